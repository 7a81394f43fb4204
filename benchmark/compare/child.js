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

// name -> { alg, make: () => input, run: (fh, alg, data, key) => result,
// expect: (alg, data, key) => node:crypto's result }; inputs are built as
// in ../hash.js.
const buffer = (size) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + 7) & 255));
const string = (size) => Buffer.from(Array.from({ length: size }, (_, i) => 97 + (i % 26))).toString('latin1');
const hashHex = (alg, data) => crypto.createHash(alg).update(data).digest('hex');
const macHex = (alg, data, key) => crypto.createHmac(alg, key).update(data).digest('hex');
const halves = (data) => [data.subarray(0, data.length >> 1), data.subarray(data.length >> 1)];
const BENCHMARKS = {};
const row = (name, alg, make, run, expect) => { BENCHMARKS[name] = { alg, make, run, expect }; };
for (const alg of ['sha256', 'md5', 'sha3-256']) {
  for (const size of [16, 64, 1024]) {
    row(`hash ${alg} ${size}B buffer hex`, alg, () => buffer(size), (fh, a, d) => fh.hash(a, d), hashHex);
  }
}
row('hash sha256 64B string hex', 'sha256', () => string(64), (fh, a, d) => fh.hash(a, d), hashHex);
row('hash sha256 64B buffer buffer', 'sha256', () => buffer(64), (fh, a, d) => fh.hash(a, d, 'buffer'),
  (a, d) => crypto.createHash(a).update(d).digest());
row('hash shake256 64B buffer hex, 100 B out', 'shake256', () => buffer(64),
  (fh, a, d) => fh.hash(a, d, { outputLength: 100 }),
  (a, d) => crypto.createHash(a, { outputLength: 100 }).update(d).digest('hex'));
row('hmac sha256 64B buffer hex', 'sha256', () => buffer(64), (fh, a, d, k) => fh.hmac(a, k, d), macHex);
row('hmac sha3-256 64B buffer hex', 'sha3-256', () => buffer(64), (fh, a, d, k) => fh.hmac(a, k, d), macHex);
row('hmac sha256 64B buffer buffer', 'sha256', () => buffer(64), (fh, a, d, k) => fh.hmac(a, k, d, 'buffer'),
  (a, d, k) => crypto.createHmac(a, k).update(d).digest());
// A key made once per process (the first call), its digest timed.
const keys = new Map();
const keyOf = (fh, a, k) => keys.get(a) ?? keys.set(a, fh.createHmacKey(a, k)).get(a);
row('HmacKey sha256 64B buffer hex', 'sha256', () => buffer(64), (fh, a, d, k) => keyOf(fh, a, k).digest(d), macHex);
row('hasher sha256 2x32B hex', 'sha256', () => buffer(64),
  (fh, a, d) => { const [x, y] = halves(d); return fh.createHasher(a).update(x).update(y).digest('hex'); }, hashHex);
row('hasher sha256 2x400B hex', 'sha256', () => buffer(800),
  (fh, a, d) => { const [x, y] = halves(d); return fh.createHasher(a).update(x).update(y).digest('hex'); }, hashHex);
row('hasher sha3-256 2x400B hex', 'sha3-256', () => buffer(800),
  (fh, a, d) => { const [x, y] = halves(d); return fh.createHasher(a).update(x).update(y).digest('hex'); }, hashHex);
row('HmacKey hasher sha256 2x400B hex', 'sha256', () => buffer(800),
  (fh, a, d, k) => { const [x, y] = halves(d); return keyOf(fh, a, k).createHasher().update(x).update(y).digest('hex'); },
  macHex);
row('hashMany sha256 16x64B hex', 'sha256', () => Array.from({ length: 16 }, (_, i) => buffer(64 + i)),
  (fh, a, d) => fh.hashMany(a, d), (a, d) => d.map((x) => hashHex(a, x)));

function main([dir, name, batchMs]) {
  const bench = require('../common');
  const { tag } = bench;
  const fh = require(dir);
  const { alg, make, run, expect } = BENCHMARKS[name];
  const data = make();
  const key = Buffer.alloc(32, 11);
  // An older ref may predate the function: say so instead of failing.
  let first;
  try {
    first = run(fh, alg, data, key);
  } catch (err) {
    if (err instanceof TypeError && !('code' in err)) return process.stdout.write('{"missing":true}');
    throw err;
  }
  bench.checkResult('fast-hash', `${dir}: ${name}`, shown(first), shown(expect(alg, data, key)));
  // One loop per case with a direct call, so the call site stays
  // monomorphic (the harness's rule for peers).
  const loop = (c, n) => { let s = 0; for (let i = 0; i < n; i++) s ^= tag(run(fh, alg, data, key)); return s; };
  const res = bench.measure([{ name, loop }], {}, { rounds: 60, batchMs: Number(batchMs), warmupMs: 100 });
  const binary = Object.keys(require.cache).find((f) => f.endsWith('.node'));
  process.stdout.write(JSON.stringify({ ns: res[name].bestNs, binary }));
}

// A result as text, to compare (Buffers as hex, arrays joined).
const shown = (r) => (Array.isArray(r) ? r.join(',') : Buffer.isBuffer(r) ? r.toString('hex') : r);

if (require.main === module) main(process.argv.slice(2));
module.exports = { BENCHMARKS };
