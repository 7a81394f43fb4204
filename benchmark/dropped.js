'use strict';
// Hashers dropped unfinished in a loop that never yields to the event loop:
// how far RSS grows with fast-hash's hashers and with node:crypto's in the
// same loop, and how many of fast-hash's native states are still live at
// its end (nothing that waits for a turn of the event loop can free them
// before then).
//
// Usage: node benchmark/dropped.js [--count N]       (npm run bench:dropped)
// (--child JSON: internal, one loop, started by the parent and by
// test/createHasher-memory.test.js)
//
// Each row is one loop of N hashers (default 1,000,000), the two kinds of
// its row alternating, one update each, gc() every 100,000; each side runs
// in a child of its own (node --expose-gc), best (least growth) of three.
const { spawnSync } = require('child_process');
const path = require('path');
const { parseCommandLine } = require('../scripts/parse-args');

const ROOT = path.join(__dirname, '..');
const ROUNDS = 3;
const USAGE = 'usage: node benchmark/dropped.js [--count N]';

// name, part size, fast-hash's two kinds, node:crypto's two kinds.
const ROWS = [
  ['sha512 + HMAC-SHA512, 17-byte parts', 17, ['createHasher', 'sha512'], ['hmacHasher', 'sha512']],
  ['sha256 + HMAC-SHA256, 200-byte parts', 200, ['createHasher', 'sha256'], ['hmacHasher', 'sha256']],
  ['sha256 + HMAC-SHA256, 300-byte parts', 300, ['createHasher', 'sha256'], ['hmacHasher', 'sha256']],
  ['sha3-256, 300-byte parts', 300, ['createHasher', 'sha3-256'], ['createHasher', 'sha3-256']],
];

// The child: one loop; prints { growthMB, live }.
function child(side, size, kinds, count) {
  const crypto = require('crypto');
  const f = require(ROOT);
  const part = Buffer.alloc(size, 3);
  const keyBytes = Buffer.alloc(32, 4);
  const keys = {};
  const make = kinds.map(([kind, alg]) => {
    if (side === 'node') {
      return kind === 'hmacHasher' ? () => crypto.createHmac(alg, keyBytes).update(part) :
        () => crypto.createHash(alg).update(part);
    }
    if (kind !== 'hmacHasher') return () => f.createHasher(alg).update(part);
    keys[alg] ||= f.createHmacKey(alg, keyBytes);
    return () => keys[alg].createHasher().update(part);
  });
  global.gc();
  const start = process.memoryUsage().rss;
  for (let i = 0; i < count; i++) {
    make[i & 1]();
    if (i % 100000 === 99999) global.gc();
  }
  global.gc();
  const binding = require(path.join(ROOT, 'lib', 'binding'));
  const live = side === 'node' || !binding.hasherStoreStats ? null : binding.hasherStoreStats().live;
  return { growthMB: (process.memoryUsage().rss - start) / 2 ** 20, live };
}

function run(side, row, count) {
  const [, size, a, b] = row;
  let best;
  for (let r = 0; r < ROUNDS; r++) {
    const res = spawnSync(process.execPath, ['--expose-gc', __filename, '--child',
      JSON.stringify([side, size, [a, b], count])], { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`${side}: ${res.stderr}`);
    const got = JSON.parse(res.stdout);
    if (best === undefined || got.growthMB < best.growthMB) best = got;
  }
  return best;
}

function main(argv) {
  const parsed = parseCommandLine(argv, { count: { type: 'string' }, child: { type: 'string' } }, USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  if (values.child !== undefined) {
    const [side, size, kinds, n] = JSON.parse(values.child);
    process.stdout.write(JSON.stringify(child(side, size, kinds, n)));
    return 0;
  }
  const count = values.count === undefined ? 1000000 : Math.round(Number(values.count));
  if (!(count > 0)) {
    console.error(`--count needs a positive number, got ${values.count}\n${USAGE}`);
    return 2;
  }
  const impl = require(ROOT).implementation;
  console.log(`${count} hashers dropped in a loop that never yields, node ${process.version}, ` +
    `fast-hash ${impl}: RSS growth over the loop (best of ${ROUNDS} children)`);
  console.log(`${'loop'.padEnd(40)}  ${'node:crypto'.padStart(11)}  ${'fast-hash'.padStart(9)}  ${'ratio'.padStart(5)}  native states live`);
  for (const row of ROWS) {
    const node = run('node', row, count);
    const ours = run('fast-hash', row, count);
    const ratio = ours.growthMB / Math.max(node.growthMB, 0.1);
    console.log(`${row[0].padEnd(40)}  ${`${node.growthMB.toFixed(1)} MB`.padStart(11)}  ` +
      `${`${ours.growthMB.toFixed(1)} MB`.padStart(9)}  ${ratio.toFixed(2).padStart(5)}  ${ours.live ?? '-'}`);
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
