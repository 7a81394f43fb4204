'use strict';
// One sample for compare: loads the fast-hash at <dir> (its lib/ and its
// build/Release), checks one benchmark's result against node:crypto, times
// it with the shared harness (../common.js) and prints
// { ns: <best ns/op of 60 short batches>, binary: <the .node file loaded> }
// as JSON. Best, not median, and short batches (2 ms by default): on shared,
// busy cores other processes only ever add time, and a batch of tens of ms
// is seldom run without losing the core, while one of a few ms often is
// (benchmark/README.md, "Times and scatter measured on this VM", has how far each scatters).
//
//   node benchmark/compare/child.js <dir> <benchmark name> <batch-ms>
//
// A fresh process per sample, so neither JIT state nor the library's caches
// carry over from one benchmark or one side to the next.

const crypto = require('crypto');

// name -> [algorithm, input, hmac?]; inputs are built as in ../hash.js.
const buffer = (size) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + 7) & 255));
const string = (size) => Buffer.from(Array.from({ length: size }, (_, i) => 97 + (i % 26))).toString('latin1');
const BENCHMARKS = {};
for (const alg of ['sha256', 'md5', 'sha3-256']) {
  for (const size of [16, 64, 1024]) BENCHMARKS[`hash ${alg} ${size}B buffer hex`] = [alg, () => buffer(size)];
}
BENCHMARKS['hash sha256 64B string hex'] = ['sha256', () => string(64)];
BENCHMARKS['hmac sha256 64B buffer hex'] = ['sha256', () => buffer(64), true];

function main([dir, name, batchMs]) {
  const bench = require('../common');
  const { tag } = bench;
  const fh = require(dir);
  const [alg, make, isHmac] = BENCHMARKS[name];
  // An older ref may predate the function: say so instead of failing.
  if (typeof (isHmac ? fh.hmac : fh.hash) !== 'function') return process.stdout.write('{"missing":true}');
  const data = make();
  const key = Buffer.alloc(32, 11);
  const expected = (isHmac ? crypto.createHmac(alg, key) : crypto.createHash(alg)).update(data).digest('hex');
  // Each case gets its own loop with a direct call, so the call site stays
  // monomorphic (the harness's rule for peers).
  const loop = isHmac
    ? (c, n) => { let s = 0; for (let i = 0; i < n; i++) s ^= tag(fh.hmac(alg, key, data)); return s; }
    : (c, n) => { let s = 0; for (let i = 0; i < n; i++) s ^= tag(fh.hash(alg, data)); return s; };
  bench.checkResult('fast-hash', `${dir}: ${name}`, isHmac ? fh.hmac(alg, key, data) : fh.hash(alg, data), expected);

  const res = bench.measure([{ name, loop }], {}, { rounds: 60, batchMs: Number(batchMs), warmupMs: 100 });
  const binary = Object.keys(require.cache).find((f) => f.endsWith('.node'));
  process.stdout.write(JSON.stringify({ ns: res[name].bestNs, binary }));
}

if (require.main === module) main(process.argv.slice(2));
module.exports = { BENCHMARKS };
