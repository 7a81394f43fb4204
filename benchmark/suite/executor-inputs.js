'use strict';
// The inputs of question (m) (executor.js): every file made once in one
// temporary folder under os.tmpdir(), read once so that it is in the page
// cache (the figures are those of the executor, not of the disk), with its
// sha256 from node:crypto for the result checks; the folder is removed when
// the process exits (Ctrl-C included).

const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { MiB, writeRandom } = require('../cached-file');
const { smallFiles } = require('./command').helpers;

const sha256 = (buf) => crypto.createHash('sha256').update(buf).digest('hex');

// A file of `bytes` random bytes: { file, bytes, sha256 } (the read that
// gives the digest also puts the file in the page cache).
function randomFile(dir, name, bytes) {
  const file = path.join(dir, name);
  writeRandom(file, bytes);
  return { file, bytes, sha256: sha256(fs.readFileSync(file)) };
}

function removeOnExit(dir) {
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  process.on('exit', remove);
  process.on('SIGINT', () => process.exit(130));
  return remove;
}

// n: the cores (os.availableParallelism()); plan: the sizes (executor.js's
// FULL or QUICK). The small files of row 5 are made only where that row runs.
function makeInputs(n, plan) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-executor-'));
  const remove = removeOnExit(dir);
  const inputs = {
    dir, remove,
    stat: randomFile(dir, 'stat-me', 100),
    mib1: randomFile(dir, 'one-mib', MiB),
    mib64: randomFile(dir, 'sixty-four-mib', 64 * MiB),
    scaling: Array.from({ length: 2 * n }, (_, i) => randomFile(dir, `scaling-${i}`, plan.scalingMib * MiB)),
    stream: randomFile(dir, 'one-stream', plan.streamMib * MiB),
    small: plan.command ? smallFiles(dir, 17) : [],
  };
  for (const file of inputs.small) fs.readFileSync(file);
  return inputs;
}

// The in-memory inputs (each its own memory, not a slice of Buffer's pool),
// with the sha256 of those a result is checked for.
function buffers() {
  const random = (bytes) => crypto.randomFillSync(Buffer.alloc(bytes));
  const b = { mib: random(MiB), mib4: random(4 * MiB), k64: random(64 * 1024), k256: random(256 * 1024) };
  return { ...b, sha256: { mib4: sha256(b.mib4), k64: sha256(b.k64), k256: sha256(b.k256) } };
}

module.exports = { makeInputs, buffers, sha256, MiB };
