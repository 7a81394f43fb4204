'use strict';
// The fast-hash command against /usr/bin/sha256sum as whole processes:
//   small  2,000 files of 1-16 KiB (sizes from a fixed seed)
//   large  8 files of 128 MiB, read once beforehand so they are in the page cache
// Each round runs both commands once, in turn, with the same argument list
// and stdout to a pipe; the figure is each command's best wall time over the
// rounds and the ratio of the two (fast-hash / sha256sum: below 1 is
// faster). Outputs are compared byte for byte first. The node commands run
// without NODE_EXTRA_CA_CERTS, as a default install has it (Node 20 parses
// the whole bundle at every start-up otherwise). Usage:
//   node benchmark/cli.js [--rounds N] [--skip-large]

const { spawnSync } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');

const BIN = path.join(__dirname, '..', 'bin', 'fast-hash.js');
const SHA256SUM = '/usr/bin/sha256sum';
const argv = process.argv.slice(2);
const ROUNDS = argv.includes('--rounds') ? Number(argv[argv.indexOf('--rounds') + 1]) : 15;
const { NODE_EXTRA_CA_CERTS: _dropped, ...ENV } = process.env;

// A small linear congruential generator: the same sizes on every run.
function sizes(count, seed) {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return 1024 + (state % (15 * 1024 + 1));
  });
}

function makeSmall(dir) {
  const block = crypto.randomBytes(16 * 1024);
  return sizes(2000, 42).map((size, i) => {
    const name = path.join(dir, `small-${i}`);
    fs.writeFileSync(name, block.subarray(0, size));
    return name;
  });
}

function makeLarge(dir) {
  const chunk = crypto.randomBytes(1 << 20);
  return Array.from({ length: 8 }, (_, i) => {
    const name = path.join(dir, `large-${i}`);
    const fd = fs.openSync(name, 'w');
    for (let m = 0; m < 128; m++) fs.writeSync(fd, chunk);
    fs.closeSync(fd);
    spawnSync('cat', [name], { stdio: ['ignore', 'ignore', 'ignore'] }); // into the page cache
    return name;
  });
}

function time(command, args) {
  const started = process.hrtime.bigint();
  const res = spawnSync(command, args, { env: ENV, maxBuffer: 64 << 20 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 0) throw new Error(`${command} failed: ${res.stderr}`);
  return { ms, stdout: res.stdout };
}

function compare(what, files, rounds) {
  const ours = [process.execPath, [BIN, ...files]];
  const theirs = [SHA256SUM, files];
  if (!time(...ours).stdout.equals(time(...theirs).stdout)) throw new Error(`${what}: outputs differ`);
  let best = { ours: Infinity, theirs: Infinity };
  for (let r = 0; r < rounds; r++) {
    best = { ours: Math.min(best.ours, time(...ours).ms), theirs: Math.min(best.theirs, time(...theirs).ms) };
  }
  const ratio = best.ours / best.theirs;
  console.log(`${what.padEnd(24)} fast-hash ${best.ours.toFixed(1).padStart(7)} ms  sha256sum ${best.theirs.toFixed(1).padStart(7)} ms  ` +
    `fast-hash / sha256sum ${ratio.toFixed(2)}x (${(1 / ratio).toFixed(2)}x as fast)`);
}

function main() {
  if (!fs.existsSync(SHA256SUM)) {
    console.log(`${SHA256SUM} not found: nothing to compare with`);
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-cli-bench-'));
  try {
    console.log(`node ${process.version}, ${os.availableParallelism()} CPUs, best of ${ROUNDS} rounds`);
    compare('2,000 files of 1-16 KiB', makeSmall(dir), ROUNDS);
    if (!argv.includes('--skip-large')) compare('8 files of 128 MiB', makeLarge(dir), Math.max(3, Math.ceil(ROUNDS / 3)));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main();
