'use strict';
// Per-call cost of fastHash.hash() vs Node's own APIs, in one process:
//   fast-hash    require('fast-hash').hash(alg, data[, enc])
//   crypto.hash  crypto.hash(alg, data[, enc])                (Node >= 20.12 / 21.7)
//   createHash   crypto.createHash(alg).update(data).digest(enc)
//
// Usage: node benchmark/hash.js [--quick] [--alg sha256,md5] [--size 16,64]
//          [--input buffer,string,string-utf8] [--enc hex|base64|buffer]
//          [--rounds 7] [--batch-ms 75] [--warmup-ms 200] [--json out.json]
//
// A benchmark, not a test: it never fails on speed, only on a wrong result.
// The harness (timing, tables, options, --json) is in ./common.js.

const crypto = require('crypto');
const fastHash = require('..');
const bench = require('./common');

// ---- options ------------------------------------------------------------------
const FULL = {
  alg: ['sha256', 'sha512', 'md5', 'sha1', 'sha3-256'],
  size: [16, 64, 1024, 16384],
  input: ['buffer', 'string', 'string-utf8'], // string-utf8: sha256 only
  enc: ['hex'],
  rounds: 7, batchMs: 75, warmupMs: 200, json: null,
};
const QUICK = { ...FULL, alg: ['sha256', 'sha512'], size: [16, 64], rounds: 3, batchMs: 25, warmupMs: 100 };
const LISTS = {
  input: { what: 'input type', values: ['buffer', 'string', 'string-utf8'] },
  enc: { what: 'encoding', values: ['hex', 'base64', 'buffer'] },
};

// ---- inputs -------------------------------------------------------------------
// Strings are built through a Buffer so V8 holds them flat (not as cons or
// sliced strings, which would add a one-off flattening to the first call).
function makeInput(type, size) {
  if (type === 'buffer') return Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + 7) & 255));
  if (type === 'string') {
    return Buffer.from(Array.from({ length: size }, (_, i) => 97 + (i % 26))).toString('latin1');
  }
  // Mixed 2- and 3-byte characters: V8 stores this two-byte, so it takes the
  // full UTF-8 conversion path. Padded with ASCII to exactly `size` bytes.
  const chars = ['é', '€', 'a', 'ß', 'ü', '✓'];
  let s = '';
  for (let i = 0, bytes = 0; ; i++) {
    const c = chars[i % chars.length];
    const n = Buffer.byteLength(c);
    if (bytes + n > size) { s += 'a'.repeat(size - bytes); break; }
    s += c; bytes += n;
  }
  return Buffer.from(s, 'utf8').toString('utf8');
}

// ---- peers --------------------------------------------------------------------
// `one` makes a single call for the result check. `c.opt` is undefined for
// hex: that is the default argument, the way people call the one-shot APIs.
const { tag } = bench;
const PEERS = [
  {
    name: 'fast-hash',
    one: (c) => fastHash.hash(c.alg, c.data, c.opt),
    loop(c, n) {
      const { alg, data, opt } = c;
      let s = 0;
      for (let i = 0; i < n; i++) s ^= tag(fastHash.hash(alg, data, opt));
      return s;
    },
  },
  typeof crypto.hash === 'function' && {
    name: 'crypto.hash',
    one: (c) => crypto.hash(c.alg, c.data, c.opt),
    loop(c, n) {
      const { alg, data, opt } = c;
      let s = 0;
      for (let i = 0; i < n; i++) s ^= tag(crypto.hash(alg, data, opt));
      return s;
    },
  },
  {
    name: 'createHash',
    one: (c) => crypto.createHash(c.alg).update(c.data).digest(c.enc),
    loop(c, n) {
      const { alg, data, enc } = c;
      let s = 0;
      for (let i = 0; i < n; i++) s ^= tag(crypto.createHash(alg).update(data).digest(enc));
      return s;
    },
  },
].filter(Boolean);
const NAMES = PEERS.map((p) => p.name);

// ---- cells --------------------------------------------------------------------
function cell(alg, input, size, enc) {
  return { alg, input, size, enc, opt: enc === 'hex' ? undefined : enc, data: makeInput(input, size) };
}
const label = (c) => `${c.alg} ${c.size}B ${c.input} -> ${c.enc}`;

function measure(c, opts) {
  const expected = crypto.createHash(c.alg).update(c.data).digest(c.enc);
  for (const p of PEERS) bench.checkResult(p.name, label(c), p.one(c), expected);
  return { alg: c.alg, input: c.input, size: c.size, enc: c.enc, peers: bench.measure(PEERS, c, opts) };
}

// ---- report -------------------------------------------------------------------
const RATIOS = [
  { label: 'vs crypto.hash', fast: 'fast-hash', peer: 'crypto.hash' },
  { label: 'vs createHash', fast: 'fast-hash', peer: 'createHash' },
];
const ratio = (res, peer) => bench.fmtRatio(bench.ratio(res, 'fast-hash', peer));

function main() {
  const opts = bench.parseArgs(process.argv.slice(2), { script: 'hash.js', full: FULL, quick: QUICK, lists: LISTS });
  const started = process.hrtime.bigint();
  const env = bench.envInfo();
  bench.printHeader(env, opts, NAMES);

  const results = [];
  for (const alg of opts.alg) {
    for (const input of opts.input) {
      if (input === 'string-utf8' && alg !== 'sha256') continue;
      for (const enc of opts.enc) {
        const rows = opts.size.map((size) => measure(cell(alg, input, size, enc), opts));
        results.push(...rows);
        bench.printTable(`${alg}, ${input} input, ${enc} output`, rows, NAMES, RATIOS);
      }
    }
  }

  // Headline cells: taken from the grid when it ran them, else measured now (quick settings).
  const find = (input) =>
    results.find((r) => r.alg === 'sha256' && r.size === 64 && r.input === input && r.enc === 'hex') ||
    { ...measure(cell('sha256', input, 64, 'hex'), QUICK), dedicated: true };
  const hb = find('buffer'), hs = find('string');

  bench.finish({ env, opts, started, results, headline: { buffer: hb, string: hs } });
  console.log(`headline sha256 64B Buffer hex: fast-hash vs crypto.hash = ${ratio(hb, 'crypto.hash')}, ` +
    `vs createHash = ${ratio(hb, 'createHash')}`);
  console.log(`headline sha256 64B string hex: fast-hash vs crypto.hash = ${ratio(hs, 'crypto.hash')}`);
}

main();
