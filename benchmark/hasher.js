'use strict';
// createHasher() and hmacKey.createHasher() against node:crypto, in one
// process, interleaved. Four questions (issue 13), each a fast-hash peer
// and the node:crypto way to do the same:
//   one part     createHasher(alg).update(data).digest('hex')
//                  vs createHash(alg).update(data).digest('hex')   (and crypto.hash, hash())
//   update       hasher.update(part) on a long-lived hasher
//                  vs hash.update(part) on a long-lived Hash
//   two parts    createHasher(alg).update(a).update(b).digest('hex')
//                  vs crypto.hash(alg, Buffer.concat([a, b]))     (and the createHash chain)
//   HMAC         hmacKey.createHasher().update(a).update(b).digest('hex')
//                  vs createHmac(alg, key).update(a).update(b).digest('hex')
// Buffer data, hex output, 32-byte HMAC key. Sizes: --size is the part size
// for one part and update (default 64 and 16) and for each of the two parts
// (default 32).
//
// Usage: node benchmark/hasher.js [--quick] [--alg sha256,sha512] [--budget-ms 2000]
//          [--rounds 5] [--batch-ms 2] [--warmup-ms 200] [--json out.json]   (npm run bench:hasher)
//
// A benchmark, not a test: it never fails on speed, only on a wrong result.
// The targets printed are the issue's; the harness is ./common.js.

const crypto = require('crypto');
const fastHash = require('..');
const bench = require('./common');

// Timing as benchmark/run.js does it on these shared cores: many short
// batches, interleaved, for a time budget per cell; the best batch counts.
const FULL = {
  alg: ['sha256', 'sha512', 'md5', 'sha3-256'], rounds: 5, batchMs: 2, warmupMs: 200, budgetMs: 2000, json: null,
};
const QUICK = { ...FULL, alg: ['sha256'], warmupMs: 100, budgetMs: 700 };
const { tag } = bench;
const KEY = Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 73 + 11) & 255));
const bytes = (size, mul, add) => Buffer.from(Array.from({ length: size }, (_, i) => (i * mul + add) & 255));

// ---- questions ----------------------------------------------------------------
// Each: its peers (the first is fast-hash's), the expected result, and the
// ratio the issue asks for (the first peer against `against`). A peer is
// { name, one(c) (one call, checked), loop(c, n) }.
const peer = (name, one, loop) => ({ name, one, loop });
const hasCryptoHash = typeof crypto.hash === 'function';

const QUESTIONS = [
  {
    name: 'one part',
    what: (alg, size) => `${alg}, one ${size}-byte part -> hex`,
    size: 64,
    expected: (c) => crypto.createHash(c.alg).update(c.a).digest('hex'),
    against: 'createHash chain',
    target: 2.5,
    peers: [
      peer('createHasher chain', (c) => fastHash.createHasher(c.alg).update(c.a).digest('hex'),
        (c, n) => { const { alg, a } = c; let s = 0; for (let i = 0; i < n; i++) s ^= tag(fastHash.createHasher(alg).update(a).digest('hex')); return s; }),
      peer('createHash chain', (c) => crypto.createHash(c.alg).update(c.a).digest('hex'),
        (c, n) => { const { alg, a } = c; let s = 0; for (let i = 0; i < n; i++) s ^= tag(crypto.createHash(alg).update(a).digest('hex')); return s; }),
      hasCryptoHash && peer('crypto.hash', (c) => crypto.hash(c.alg, c.a),
        (c, n) => { const { alg, a } = c; let s = 0; for (let i = 0; i < n; i++) s ^= tag(crypto.hash(alg, a)); return s; }),
      peer('hash()', (c) => fastHash.hash(c.alg, c.a),
        (c, n) => { const { alg, a } = c; let s = 0; for (let i = 0; i < n; i++) s ^= tag(fastHash.hash(alg, a)); return s; }),
    ],
  },
  {
    name: 'update',
    what: (alg, size) => `${alg}, update() of ${size} bytes on a long-lived hasher`,
    size: 16,
    expected: null, // checked by the tests; here each side absorbs for ever
    against: 'Hash#update',
    target: 1,
    peers: [
      peer('Hasher#update', null, (c, n) => { const { hasher, a } = c; for (let i = 0; i < n; i++) hasher.update(a); return 0; }),
      peer('Hash#update', null, (c, n) => { const { hash, a } = c; for (let i = 0; i < n; i++) hash.update(a); return 0; }),
    ],
  },
  {
    name: 'two parts',
    what: (alg, size) => `${alg}, two ${size}-byte parts -> hex`,
    size: 32,
    expected: (c) => crypto.createHash(c.alg).update(c.a).update(c.b).digest('hex'),
    against: hasCryptoHash ? 'crypto.hash(concat)' : 'createHash chain',
    target: 1.3,
    peers: [
      peer('createHasher chain', (c) => fastHash.createHasher(c.alg).update(c.a).update(c.b).digest('hex'),
        (c, n) => { const { alg, a, b } = c; let s = 0; for (let i = 0; i < n; i++) s ^= tag(fastHash.createHasher(alg).update(a).update(b).digest('hex')); return s; }),
      hasCryptoHash && peer('crypto.hash(concat)', (c) => crypto.hash(c.alg, Buffer.concat([c.a, c.b])),
        (c, n) => { const { alg, a, b } = c; let s = 0; for (let i = 0; i < n; i++) s ^= tag(crypto.hash(alg, Buffer.concat([a, b]))); return s; }),
      peer('hash(concat)', (c) => fastHash.hash(c.alg, Buffer.concat([c.a, c.b])),
        (c, n) => { const { alg, a, b } = c; let s = 0; for (let i = 0; i < n; i++) s ^= tag(fastHash.hash(alg, Buffer.concat([a, b]))); return s; }),
      peer('createHash chain', (c) => crypto.createHash(c.alg).update(c.a).update(c.b).digest('hex'),
        (c, n) => { const { alg, a, b } = c; let s = 0; for (let i = 0; i < n; i++) s ^= tag(crypto.createHash(alg).update(a).update(b).digest('hex')); return s; }),
    ],
  },
  {
    name: 'HMAC',
    what: (alg, size) => `HMAC-${alg}, 32-byte key, two ${size}-byte parts -> hex`,
    size: 32,
    expected: (c) => crypto.createHmac(c.alg, KEY).update(c.a).update(c.b).digest('hex'),
    against: 'createHmac chain',
    target: 3,
    peers: [
      peer('HmacKey#createHasher chain', (c) => c.hmacKey.createHasher().update(c.a).update(c.b).digest('hex'),
        (c, n) => { const { hmacKey, a, b } = c; let s = 0; for (let i = 0; i < n; i++) s ^= tag(hmacKey.createHasher().update(a).update(b).digest('hex')); return s; }),
      peer('createHmac chain', (c) => crypto.createHmac(c.alg, KEY).update(c.a).update(c.b).digest('hex'),
        (c, n) => { const { alg, a, b } = c; let s = 0; for (let i = 0; i < n; i++) s ^= tag(crypto.createHmac(alg, KEY).update(a).update(b).digest('hex')); return s; }),
      peer('HmacKey#digest(concat)', (c) => c.hmacKey.digest(Buffer.concat([c.a, c.b])),
        (c, n) => { const { hmacKey, a, b } = c; let s = 0; for (let i = 0; i < n; i++) s ^= tag(hmacKey.digest(Buffer.concat([a, b]))); return s; }),
    ],
  },
];

function run(q, alg, opts) {
  const peers = q.peers.filter(Boolean);
  const c = {
    alg, a: bytes(q.size, 31, 7), b: bytes(q.size, 17, 3), hmacKey: fastHash.createHmacKey(alg, KEY),
    hasher: fastHash.createHasher(alg), hash: crypto.createHash(alg),
  };
  const what = q.what(alg, q.size);
  if (q.expected !== null) {
    const want = q.expected(c);
    for (const p of peers) bench.checkResult(p.name, what, p.one(c), want);
  }
  const res = bench.measureBudget(peers, c, { ...opts, minRounds: opts.rounds });
  c.hmacKey.destroy();
  return { question: q.name, alg, size: q.size, what, against: q.against, target: q.target, peers: res };
}

// ---- report -------------------------------------------------------------------
function printQuestion(q, rows) {
  const names = q.peers.filter(Boolean).map((p) => p.name);
  const fast = names[0];
  console.log(`\n${q.name}: ${q.what('<alg>', q.size)}   (best ns/op, median in parentheses)`);
  const widths = names.map((n) => Math.max(20, n.length + 2));
  console.log('   alg'.padEnd(12) + names.map((n, j) => n.padStart(widths[j])).join('') +
    `   ${fast} vs ${q.against}`.padStart(10) + '   target');
  for (const r of rows) {
    const cells = names.map((n, j) => `${bench.fmtNs(r.peers[n].bestNs)} (${bench.fmtNs(r.peers[n].medianNs)})`.padStart(widths[j]));
    const x = bench.ratio(r, fast, q.against);
    console.log(`   ${r.alg}`.padEnd(12) + cells.join('') + `${bench.fmtRatio(x)}`.padStart(10) +
      `   >= ${q.target}x ${x === null ? '' : x >= q.target ? 'met' : 'MISSED'}`);
  }
}

function main() {
  const opts = bench.parseArgs(process.argv.slice(2), {
    script: 'hasher.js', full: FULL, quick: QUICK, omit: ['size'], numbers: { 'budget-ms': 'ms' },
  });
  const started = process.hrtime.bigint();
  const env = bench.envInfo();
  bench.printEnv(env);
  console.log(`fast-hash ${fastHash.implementation}; per cell: ${opts.budgetMs} ms of ~${opts.batchMs} ms batches ` +
    `(at least ${opts.rounds} rounds), warm-up ${opts.warmupMs} ms per peer`);
  const results = [];
  for (const q of QUESTIONS) {
    const rows = opts.alg.map((alg) => run(q, alg, opts));
    results.push(...rows);
    printQuestion(q, rows);
  }
  bench.finish({ env, opts, started, results, headline: null });
  for (const r of results.filter((x) => x.alg === 'sha256')) {
    const fast = Object.keys(r.peers)[0];
    const x = bench.ratio(r, fast, r.against);
    console.log(`headline hasher sha256 ${r.question}: ${fast} vs ${r.against} = ${bench.fmtRatio(x)} (target ${r.target}x)`);
  }
}

main();
