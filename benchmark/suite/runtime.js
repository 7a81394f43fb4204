'use strict';
// (j) runtime: fast-hash against the runtime's own call for the same work,
// in whichever runtime runs the suite (`bun benchmark/run.js --question
// runtime`, `deno run -A benchmark/run.js ...`, Node with
// FAST_HASH_IMPLEMENTATION=js): what a user of that runtime would write
// instead. Each row is one cell: fast-hash's call, the runtime's call, their
// ratio (the runtime's time / fast-hash's, higher is faster), and the
// target for this runtime (issue 23) and whether this run met it. Bun's
// rows add Bun's own fastest calls (Bun.CryptoHasher.hash for bytes).
// Every cell times the runtime's call twice (the control: how far apart
// two identical calls read there), and text cells the floor of a call
// through any shim (floorPeer).
// Targets:
//   Node (JavaScript implementation): hash >= 0.98x crypto.hash, hmac >=
//     0.98x createHmac; createHasher chains and 'buffer' >= 1x theirs.
//   Bun: hash >= 1.5x crypto.hash for sha256 and sha1 hex at 16-64 B and >=
//     1x elsewhere; 'buffer' >= Bun.CryptoHasher.hash; hmac >= 1.15x and
//     HmacKey#digest >= 1.5x createHmac; createHasher chains >= 1x.
//   Deno: every cell >= 0.98x; createHasher chains and 'buffer' >= 1x.

const bench = require('../common');
const { peer, crypto, fastHash, LABEL } = require('./peers');
const { bytes, ascii } = require('./inputs');

const RUNTIME = process.versions.bun ? 'bun' : process.versions.deno ? 'deno' : 'node';
const KEY = bytes(32, 73, 11);
const FLOOR = RUNTIME === 'bun' ? "Bun's call alone" : 'crypto.hash in one wrapper';

// The target ratio of a cell on this runtime.
function target(kind, size, enc) {
  if (RUNTIME === 'bun') {
    if (kind === 'hash') return enc === 'hex' && size <= 64 ? 1.5 : 1;
    return { hmac: 1.15, 'HmacKey#digest': 1.5 }[kind] ?? 1;
  }
  if (kind === 'hasher' || enc === 'buffer') return 1;
  return 0.98;
}

// The cells: [kind, title, fast-hash expr, runtime expr, scope, alg, size, enc].
function cells(quick) {
  const out = [];
  const sizes = quick ? [16, 64] : [16, 64, 1024];
  for (const alg of ['sha256', 'sha1']) {
    for (const size of sizes) {
      for (const [input, data] of [['Buffer', bytes(size)], ['ASCII string', ascii(size)]]) {
        for (const enc of ['hex', 'base64', 'buffer']) {
          const s = { fastHash, crypto, alg, data, enc };
          const arg = enc === 'hex' ? '' : ', enc';
          out.push(['hash', `hash ${alg}, ${size} B ${input}, ${enc}`, `fastHash.hash(alg, data${arg})`,
            `crypto.hash(alg, data${arg})`, s, alg, size, enc]);
        }
      }
    }
  }
  for (const size of sizes) {
    const s = { fastHash, crypto, alg: 'sha256', key: KEY, data: bytes(size), hk: fastHash.createHmacKey('sha256', KEY) };
    const theirs = "crypto.createHmac(alg, key).update(data).digest('hex')";
    out.push(['hmac', `hmac sha256, ${size} B`, 'fastHash.hmac(alg, key, data)', theirs, s, 'sha256', size, 'hex'],
      ['HmacKey#digest', `HmacKey#digest sha256, ${size} B`, 'hk.digest(data)', theirs, s, 'sha256', size, 'hex']);
  }
  for (const size of [64, 1024]) {
    const whole = bytes(size);
    const s = { fastHash, crypto, alg: 'sha256', a: whole.subarray(0, size / 2), b: whole.subarray(size / 2),
      key: KEY, hk: fastHash.createHmacKey('sha256', KEY) };
    out.push(['hasher', `createHasher, two ${size / 2} B parts, hex`,
      "fastHash.createHasher(alg).update(a).update(b).digest('hex')",
      "crypto.createHash(alg).update(a).update(b).digest('hex')", s, 'sha256', size, 'hex'],
    ['hasher', `hmacKey.createHasher, two ${size / 2} B parts, hex`,
      "hk.createHasher().update(a).update(b).digest('hex')",
      "crypto.createHmac(alg, key).update(a).update(b).digest('hex')", s, 'sha256', size, 'hex']);
  }
  return out;
}

// Bun's own bytes call beside a 'buffer' cell: the issue's bar there.
function bunPeers(kind, s, enc) {
  if (RUNTIME !== 'bun' || kind !== 'hash' || enc !== 'buffer') return [];
  return [peer('Bun.CryptoHasher.hash', 'Bun.CryptoHasher.hash(alg, data)', s)];
}

// Beside a text cell, the least a call through any shim costs: on Bun the
// class's hash() alone, elsewhere the runtime's crypto.hash under one bare
// wrapper shared by every cell (as the shim's code is), so a ratio below
// target shows whether the shim or the call under it is the cost. Not part
// of the bar.
function wrap(alg, data, enc) {
  return crypto.hash(alg, data, enc);
}

function floorPeer(kind, s, enc) {
  if (kind !== 'hash' || enc === 'buffer') return [];
  if (RUNTIME !== 'bun') return [peer('floor', 'wrap(alg, data, enc)', { ...s, wrap })];
  const cls = { sha256: 'SHA256', sha1: 'SHA1' }[s.alg];
  return [peer('floor', `Bun.${cls}.hash(data, enc)`, s)];
}

function printHead() {
  console.log(`\n(j) fast-hash vs ${RUNTIME}'s own call for the same work [${LABEL}]`);
  console.log(`  ${'cell'.padEnd(44)} ${'fast-hash'.padStart(10)} ${'theirs'.padStart(10)}  ratio  target  met  same`);
}

// One cell's line. `same`: theirs / the control, the same call timed again,
// i.e. how far two identical calls read apart in this cell.
function printRow(title, m, row, bar) {
  const same = m.control.bestNs / m.theirs.bestNs;
  console.log(`  ${title.padEnd(44)} ${m['fast-hash'].bestNs.toFixed(1).padStart(10)} ${bar.toFixed(1).padStart(10)} ` +
    `${row.ratio.toFixed(2).padStart(6)}x ${row.target.toFixed(2).padStart(6)}  ${row.met ? 'yes' : 'NO '} ` +
    `${same.toFixed(2).padStart(5)}x` +
    (m.floor ? `  (${FLOOR} ${m.floor.bestNs.toFixed(1)} ns: at most ${(bar / m.floor.bestNs).toFixed(2)}x)` : ''));
}

module.exports = {
  id: 'j',
  name: 'runtime',
  algs: ['sha256', 'sha1'],
  async run(opts) {
    printHead();
    const rows = [];
    for (const [kind, title, ours, theirs, s, alg, size, enc] of cells(opts.quick)) {
      const extra = bunPeers(kind, s, enc);
      const peers = [peer('fast-hash', ours, s), peer('theirs', theirs, s), peer('control', theirs, s),
        ...extra, ...floorPeer(kind, s, enc)];
      const want = peers[1].one();
      for (const p of peers) bench.checkResult(p.name, `(j) ${title}`, p.one(), want);
      const m = bench.measureBudget(peers, {}, opts);
      const bar = extra.length ? Math.min(m.theirs.bestNs, m[extra[0].name].bestNs) : m.theirs.bestNs;
      const ratio = bar / m['fast-hash'].bestNs;
      const goal = target(kind, size, enc);
      const row = { question: 'j', table: title, runtime: RUNTIME, kind, alg, size, enc, ratio, target: goal,
        met: ratio >= goal, peers: Object.fromEntries(Object.entries(m).map(([k, v]) => [k, { bestNs: v.bestNs }])) };
      rows.push(row);
      printRow(title, m, row, bar);
    }
    return rows;
  },
  headlines(rows) {
    const missed = rows.filter((r) => !r.met);
    return [`(j) ${RUNTIME}: ${rows.length - missed.length} of ${rows.length} cells meet their target` +
      (missed.length ? `; not: ${missed.map((r) => `${r.table} ${r.ratio.toFixed(2)}x`).join(', ')}` : '')];
  },
};
