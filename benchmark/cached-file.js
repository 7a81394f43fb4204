'use strict';
// A file of random bytes under os.tmpdir(), in the page cache, for the
// benchmarks that hash whole files (file.js, suite/file.js). MB/s are then
// those of the reading and hashing machinery, not of the disk.

const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');

const MiB = 1 << 20;

// Writes `bytes` random bytes to `file` (test/hashFile-reader.test.js too).
function writeRandom(file, bytes) {
  const fd = fs.openSync(file, 'w');
  try {
    const chunk = Buffer.allocUnsafe(8 * MiB);
    for (let done = 0; done < bytes; done += chunk.length) {
      crypto.randomFillSync(chunk);
      fs.writeSync(fd, chunk, 0, Math.min(chunk.length, bytes - done));
    }
  } finally {
    fs.closeSync(fd);
  }
}

// Reused when a file of the right size is already there (from a --keep run
// of file.js): writing hundreds of MiB of random bytes costs more than the
// rounds themselves. Returns { file, bytes, how, buf }: buf is the file's
// bytes read back, the one read that also puts the file in the page cache
// (fs.readFileSync: below 2 GiB).
function prepareFile(sizeMib) {
  const file = path.join(os.tmpdir(), `fast-hash-bench-${sizeMib}MiB.bin`);
  const bytes = sizeMib * MiB;
  let how = 'reused';
  if (!(fs.existsSync(file) && fs.statSync(file).size === bytes)) {
    how = 'created';
    writeRandom(file, bytes);
  }
  return { file, bytes, how, buf: fs.readFileSync(file) };
}

// Reads `file` through once, untimed, before a run: this VM's kernel
// reclaims page cache it deems cold (kdamond), and a run that reads from
// disk measures the disk.
function warm(file) {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafeSlow(8 * MiB);
    while (fs.readSync(fd, buf, 0, buf.length, null) > 0);
  } finally {
    fs.closeSync(fd);
  }
}

// Removes `file` when the process exits, Ctrl-C and process.exit() included.
// Returns the function that removes it now (and drops the hooks).
function removeOnExit(file) {
  const remove = () => fs.rmSync(file, { force: true });
  const interrupted = () => process.exit(130);
  process.on('exit', remove);
  process.on('SIGINT', interrupted);
  return () => {
    process.off('exit', remove);
    process.off('SIGINT', interrupted);
    remove();
  };
}

module.exports = { MiB, prepareFile, removeOnExit, warm, writeRandom };
