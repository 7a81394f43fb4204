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

const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const fastHash = require('..');

// ---- options ------------------------------------------------------------------
const FULL = {
  alg: ['sha256', 'sha512', 'md5', 'sha1', 'sha3-256'],
  size: [16, 64, 1024, 16384],
  input: ['buffer', 'string', 'string-utf8'], // string-utf8: sha256 only
  enc: ['hex'],
  rounds: 7, batchMs: 75, warmupMs: 200, json: null,
};
const QUICK = { ...FULL, alg: ['sha256', 'sha512'], size: [16, 64], rounds: 3, batchMs: 25, warmupMs: 100 };
const INPUTS = ['buffer', 'string', 'string-utf8'], ENCODINGS = ['hex', 'base64', 'buffer'];

function usage(msg) {
  console.error(`${msg}\nusage: node benchmark/hash.js [--quick] [--alg a,b] [--size n,m] ` +
    '[--input buffer,string,string-utf8] [--enc hex,base64,buffer] [--rounds R] ' +
    '[--batch-ms ms] [--warmup-ms ms] [--json file]');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { ...(argv.includes('--quick') ? QUICK : FULL), quick: argv.includes('--quick') };
  const list = (v) => v.split(',').map((s) => s.trim()).filter(Boolean);
  const num = (flag, v) => {
    const n = Number(v);
    if (!(n > 0)) usage(`${flag} needs a positive number, got ${v}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--quick') continue;
    const v = argv[++i];
    if (v === undefined) usage(`missing value for ${flag}`);
    switch (flag) {
      case '--alg': opts.alg = list(v); break;
      case '--size': opts.size = list(v).map((s) => Math.round(num(flag, s))); break;
      case '--input': opts.input = list(v); break;
      case '--enc': opts.enc = list(v); break;
      case '--rounds': opts.rounds = Math.round(num(flag, v)); break;
      case '--batch-ms': opts.batchMs = num(flag, v); break;
      case '--warmup-ms': opts.warmupMs = num(flag, v); break;
      case '--json': opts.json = v; break;
      default: usage(`unknown option ${flag}`);
    }
  }
  for (const x of opts.input) if (!INPUTS.includes(x)) usage(`unknown input type ${x}`);
  for (const x of opts.enc) if (!ENCODINGS.includes(x)) usage(`unknown encoding ${x}`);
  for (const a of opts.alg) if (!crypto.getHashes().includes(a)) usage(`unknown algorithm ${a}`);
  return opts;
}

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
// Each peer has its own loop rather than one shared loop calling a function
// value, so every call site stays monomorphic and no peer pays for another's
// type feedback. `c.opt` is undefined for hex: that is the default argument,
// the way people actually call the one-shot APIs.
const tag = (r) => r.length ^ (typeof r === 'string' ? r.charCodeAt(0) : r[0]);
let sink = 0; // results feed this, so no call can be optimised away

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

// ---- measurement --------------------------------------------------------------
function check(c) {
  const expected = crypto.createHash(c.alg).update(c.data).digest(c.enc);
  for (const p of PEERS) {
    const got = p.one(c);
    const ok = Buffer.isBuffer(expected) ? Buffer.isBuffer(got) && got.equals(expected) : got === expected;
    if (!ok) {
      console.error(`RESULT CHECK FAILED: ${p.name} on ${label(c)}\n` +
        `  got      ${Buffer.isBuffer(got) ? got.toString('hex') + ' (Buffer)' : JSON.stringify(got)}\n` +
        `  expected ${Buffer.isBuffer(expected) ? expected.toString('hex') + ' (Buffer)' : JSON.stringify(expected)}`);
      process.exit(1);
    }
  }
}

function timeBatch(p, c, n) {
  const t0 = process.hrtime.bigint();
  sink ^= p.loop(c, n);
  return Number(process.hrtime.bigint() - t0);
}

// Warm-up doubles as calibration: grow the batch until the warm-up time is
// spent, then size the timed batch from the last (warmest) estimate.
function warmUp(p, c, warmupMs, batchMs) {
  let n = 1, spent = 0, nsPerOp = 0;
  while (spent < warmupMs * 1e6) {
    const ns = timeBatch(p, c, n);
    spent += ns;
    nsPerOp = ns / n;
    if (ns < 10e6) n *= 2;
  }
  return Math.max(1, Math.round((batchMs * 1e6) / nsPerOp));
}

function measure(c, { rounds, batchMs, warmupMs }) {
  check(c);
  const batch = PEERS.map((p) => warmUp(p, c, warmupMs, batchMs));
  const samples = PEERS.map(() => []);
  // Rotate the order each round (A B C, B C A, ...) so drift and
  // after-effects (GC, frequency changes) do not always hit the same peer.
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < PEERS.length; k++) {
      const i = (k + r) % PEERS.length;
      samples[i].push(timeBatch(PEERS[i], c, batch[i]) / batch[i]);
    }
  }
  const peers = {};
  PEERS.forEach((p, i) => {
    const sorted = [...samples[i]].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    peers[p.name] = {
      bestNs: sorted[0], medianNs: median, opsPerSec: 1e9 / sorted[0], batch: batch[i], samplesNs: samples[i],
    };
  });
  return { alg: c.alg, input: c.input, size: c.size, enc: c.enc, peers };
}

function cell(alg, input, size, enc) {
  return { alg, input, size, enc, opt: enc === 'hex' ? undefined : enc, data: makeInput(input, size) };
}
const label = (c) => `${c.alg} ${c.size}B ${c.input} -> ${c.enc}`;

// Peer best / fast-hash best: above 1 means fast-hash is faster.
function ratio(res, peer) {
  const p = res.peers[peer];
  return p ? p.bestNs / res.peers['fast-hash'].bestNs : null;
}
const fmtRatio = (x) => (x === null ? 'n/a' : `${x.toFixed(2)}x`);
const fmtNs = (ns) => (ns < 10000 ? ns.toFixed(1) : ns.toFixed(0));

// ---- report -------------------------------------------------------------------
function printTable(title, rows) {
  const cols = [...PEERS.map((p) => p.name), 'vs crypto.hash', 'vs createHash'];
  const w = 17;
  console.log(`\n${title}   (best ns/op, median in parentheses)`);
  console.log('    size' + cols.map((h) => h.padStart(w)).join(''));
  for (const r of rows) {
    const cells = PEERS.map((p) => `${fmtNs(r.peers[p.name].bestNs)} (${fmtNs(r.peers[p.name].medianNs)})`);
    cells.push(fmtRatio(ratio(r, 'crypto.hash')), fmtRatio(ratio(r, 'createHash')));
    console.log(`${r.size}B`.padStart(8) + cells.map((s) => s.padStart(w)).join(''));
  }
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const started = process.hrtime.bigint();
  const cpus = os.cpus();
  const env = { node: process.version, v8: process.versions.v8, openssl: process.versions.openssl,
    cpu: cpus.length ? cpus[0].model : 'unknown', cores: cpus.length };
  console.log(`Node ${env.node}, V8 ${env.v8}, OpenSSL ${env.openssl}, CPU ${env.cpu} x ${env.cores} cores`);
  console.log(`rounds ${opts.rounds}, batches ~${opts.batchMs} ms, warm-up ${opts.warmupMs} ms per peer per cell; ` +
    `peers: ${PEERS.map((p) => p.name).join(', ')}`);

  const results = [];
  for (const alg of opts.alg) {
    for (const input of opts.input) {
      if (input === 'string-utf8' && alg !== 'sha256') continue;
      for (const enc of opts.enc) {
        const rows = opts.size.map((size) => measure(cell(alg, input, size, enc), opts));
        results.push(...rows);
        printTable(`${alg}, ${input} input, ${enc} output`, rows);
      }
    }
  }

  // Headline cells: taken from the grid when it ran them, else measured now (quick settings).
  const find = (input) =>
    results.find((r) => r.alg === 'sha256' && r.size === 64 && r.input === input && r.enc === 'hex') ||
    { ...measure(cell('sha256', input, 64, 'hex'), QUICK), dedicated: true };
  const hb = find('buffer'), hs = find('string');
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;

  if (opts.json) {
    const out = { env, options: opts, elapsedSec: elapsed, results, headline: { buffer: hb, string: hs }, sink };
    fs.writeFileSync(opts.json, JSON.stringify(out, null, 2));
  }
  console.log(`\ndone in ${elapsed.toFixed(1)} s${opts.json ? `, JSON written to ${opts.json}` : ''} (sink ${sink})\n`);
  console.log(`headline sha256 64B Buffer hex: fast-hash vs crypto.hash = ${fmtRatio(ratio(hb, 'crypto.hash'))}, ` +
    `vs createHash = ${fmtRatio(ratio(hb, 'createHash'))}`);
  console.log(`headline sha256 64B string hex: fast-hash vs crypto.hash = ${fmtRatio(ratio(hs, 'crypto.hash'))}`);
}

main();
