'use strict';
// hashMany vs a loop: is one call for a whole list cheaper per item than one
// call per item? In one process, interleaved, on 1,000 Buffers, hex output:
//   hashMany           fastHash.hashMany(alg, inputs)             one call, one array back
//   hash loop          for (...) out[i] = fastHash.hash(alg, inputs[i])
//   crypto.hash loop   for (...) out[i] = crypto.hash(alg, inputs[i])   (Node >= 20.12 / 21.7)
// Times are per ITEM (a call's time / 1,000). Ratios: `hashMany / hash loop`
// is hashMany's per-item time over the loop's (below 1: hashMany is cheaper);
// `crypto.hash loop / hashMany` is how many times slower Node's loop is.
//
// Usage: node benchmark/many.js [--quick] [--alg sha256,md5] [--size 16,64,1024]
//          [--count 1000] [--rounds 7] [--batch-ms 75] [--warmup-ms 200] [--json out.json]
//
// A benchmark, not a test: it never fails on speed, only on a wrong result.
// The harness (timing, tables, options, --json) is in ./common.js.

const crypto = require('crypto');
const fastHash = require('..');
const bench = require('./common');

const FULL = {
  alg: ['sha256', 'md5'], size: [16, 64, 1024], count: 1000, rounds: 7, batchMs: 75, warmupMs: 200, json: null,
};
const QUICK = { ...FULL, alg: ['sha256'], size: [64], rounds: 3, batchMs: 25, warmupMs: 100 };

// ---- peers --------------------------------------------------------------------
// Every peer builds the whole array of results, as a caller would keep them:
// the loops write into a preallocated array so they pay no growth cost that
// hashMany (which knows the length) does not. Each list folds one of its
// results into the sink, so no list can be optimised away. `one` runs once,
// for the result check.
const { tag } = bench;
const PEERS = [
  {
    name: 'hashMany',
    one: (c) => fastHash.hashMany(c.alg, c.inputs),
    loop(c, n) {
      const { alg, inputs } = c;
      let s = 0;
      for (let k = 0; k < n; k++) s ^= tag(fastHash.hashMany(alg, inputs)[k % inputs.length]);
      return s;
    },
  },
  {
    name: 'hash loop',
    one: (c) => c.inputs.map((d) => fastHash.hash(c.alg, d)),
    loop(c, n) {
      const { alg, inputs } = c, m = inputs.length;
      let s = 0;
      for (let k = 0; k < n; k++) {
        const out = new Array(m);
        for (let i = 0; i < m; i++) out[i] = fastHash.hash(alg, inputs[i]);
        s ^= tag(out[k % m]);
      }
      return s;
    },
  },
  typeof crypto.hash === 'function' && {
    name: 'crypto.hash loop',
    one: (c) => c.inputs.map((d) => crypto.hash(c.alg, d)),
    loop(c, n) {
      const { alg, inputs } = c, m = inputs.length;
      let s = 0;
      for (let k = 0; k < n; k++) {
        const out = new Array(m);
        for (let i = 0; i < m; i++) out[i] = crypto.hash(alg, inputs[i]);
        s ^= tag(out[k % m]);
      }
      return s;
    },
  },
].filter(Boolean);
const NAMES = PEERS.map((p) => p.name);

// ---- cells --------------------------------------------------------------------
// Distinct contents per item (so a mix-up of results is caught), each its
// own Buffer: Buffer.alloc does not slice the shared pool, so no two items
// share memory and hashMany cannot profit from neighbouring data.
function cell(alg, size, count) {
  const inputs = Array.from({ length: count }, (_, k) => {
    const b = Buffer.alloc(size);
    for (let i = 0; i < size; i++) b[i] = (i * 31 + k * 7 + 3) & 255;
    return b;
  });
  return { alg, size, count, inputs };
}
const label = (c) => `${c.alg} ${c.count}x${c.size}B buffers -> hex`;

function measure(c, opts) {
  const expected = c.inputs.map((d) => crypto.createHash(c.alg).update(d).digest('hex'));
  for (const p of PEERS) {
    const got = p.one(c);
    bench.checkResult(`${p.name} (length)`, label(c), got.length, expected.length);
    got.forEach((r, i) => bench.checkResult(`${p.name} [${i}]`, label(c), r, expected[i]));
  }
  const perCall = bench.measure(PEERS, c, opts);
  // One op of measure() is a call over the whole list: divide down to items.
  const peers = {};
  for (const [name, r] of Object.entries(perCall)) {
    peers[name] = { ...r, bestNs: r.bestNs / c.count, medianNs: r.medianNs / c.count, perCallBestNs: r.bestNs };
  }
  return { alg: c.alg, size: c.size, count: c.count, input: 'buffer', enc: 'hex', unit: 'ns per item', peers };
}

// ---- report -------------------------------------------------------------------
// bench.ratio(res, a, b) is b's time over a's, so `hashMany / hash loop` has
// the loop as `fast` and hashMany as `peer`.
const RATIOS = [
  { label: 'hashMany / hash loop', fast: 'hash loop', peer: 'hashMany' },
  { label: 'crypto.hash loop / hashMany', fast: 'hashMany', peer: 'crypto.hash loop' },
];
const ratio = (res, fast, peer) => bench.fmtRatio(bench.ratio(res, fast, peer));

function main() {
  const opts = bench.parseArgs(process.argv.slice(2), {
    script: 'many.js', full: FULL, quick: QUICK, numbers: { count: 'N' },
  });
  opts.count = Math.round(opts.count);
  const started = process.hrtime.bigint();
  const env = bench.envInfo();
  bench.printHeader(env, opts, NAMES);

  const results = [];
  for (const alg of opts.alg) {
    const rows = opts.size.map((size) => measure(cell(alg, size, opts.count), opts));
    results.push(...rows);
    bench.printTable(`${alg}, ${opts.count} Buffers of <size> per list, hex output, ns per ITEM`, rows, NAMES, RATIOS);
  }

  // Headline cell: from the grid when it ran it, else measured now (quick settings).
  const h = results.find((r) => r.alg === 'sha256' && r.size === 64 && r.count === 1000) ||
    { ...measure(cell('sha256', 64, 1000), QUICK), dedicated: true };

  bench.finish({ env, opts, started, results, headline: h });
  console.log(`headline hashMany sha256 1000x64B: per-item time = ${ratio(h, 'hash loop', 'hashMany')} ` +
    `of a hash() loop, crypto.hash loop / hashMany = ${ratio(h, 'hashMany', 'crypto.hash loop')}`);
}

main();
