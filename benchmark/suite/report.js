'use strict';
// Printing: one table per question and variant, rows printed as they are
// measured (so a long run shows its progress), then the headline lines.

const { fmtNs } = require('../common');

const W = { ns: 10, mbs: 8, vs: 8, ceilNs: 10, ceilRatio: 11, noise: 7 };
const SHORT = { 'fast-hash': 'fh', hmac: 'hmac', hashMany: 'many' }; // in the ceiling's ratio column
const pad = (s, w) => String(s).padStart(w);

function fmtSize(n) {
  if (n >= 1 << 20 && n % (1 << 20) === 0) return `${n / (1 << 20)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} B`;
}
const fmtMBs = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const fmtX = (v) => (v == null ? 'n/a' : v >= 10 ? `${v.toFixed(1)}x` : `${v.toFixed(2)}x`);

const LEGEND = [
  'ns/op: the best batch of the cell (batches of ~2 ms, peers interleaved round by round); MB/s: bytes / best time',
  '  (10^6 bytes per second); vs: the peer\'s ns / the fast-hash call\'s ns (2.00x: fast-hash takes half the time);',
  '  ceiling: benchCeiling, the same OpenSSL digest alone in a native loop, and <fh>/ceil: the fast-hash call\'s ns',
  '  over it (1.00: nothing but the digest); noise: (median - best) / best of the fast-hash call, and the row\'s',
  '  largest (long single calls of slow peers are the most often interrupted).',
];

// Column groups: the primary (ns/op, MB/s), each peer (ns/op, MB/s, vs),
// the ceiling (ns/op, ratio), noise.
function printHead(id, title, primary, names) {
  const peers = names.filter((n) => n !== primary && n !== 'ceiling'), ceil = names.includes('ceiling');
  const short = SHORT[primary] || primary;
  const groups = [[primary, W.ns + W.mbs], ...peers.map((n) => [n, W.ns + W.mbs + W.vs])];
  if (ceil) groups.push(['ceiling', W.ceilNs + W.ceilRatio]);
  const sub = pad('ns/op', W.ns) + pad('MB/s', W.mbs);
  const subs = [sub, ...peers.map(() => sub + pad('vs', W.vs))];
  if (ceil) subs.push(pad('ns/op', W.ceilNs) + pad(`${short}/ceil`, W.ceilRatio));
  console.log(`\n(${id}) ${title}`);
  console.log(' '.repeat(8) + groups.map(([n, w]) => ` |${pad(n, w)}`).join('') + ' |');
  console.log(pad('size', 8) + subs.map((s) => ` |${s}`).join('') + ' |' + pad('noise', W.noise) + pad('max', W.noise));
  return { primary, peers, ceil };
}

function printRow(head, row) {
  const p = row.peers, f = p[head.primary];
  const mbs = (r) => fmtMBs(row.bytes / r.bestNs * 1e3);
  const cells = [pad(fmtNs(f.bestNs), W.ns) + pad(mbs(f), W.mbs)];
  for (const n of head.peers) {
    cells.push(pad(fmtNs(p[n].bestNs), W.ns) + pad(mbs(p[n]), W.mbs) + pad(fmtX(p[n].bestNs / f.bestNs), W.vs));
  }
  if (head.ceil) {
    cells.push(pad(fmtNs(p.ceiling.bestNs), W.ceilNs) + pad((f.bestNs / p.ceiling.bestNs).toFixed(2), W.ceilRatio));
  }
  const pct = (r) => pad(`${(100 * (r.medianNs / r.bestNs - 1)).toFixed(0)}%`, W.noise);
  const worst = Object.values(p).reduce((a, r) => (r.medianNs / r.bestNs > a.medianNs / a.bestNs ? r : a));
  console.log(pad(fmtSize(row.size), 8) + cells.map((s) => ` |${s}`).join('') + ' |' + pct(f) + pct(worst));
}

// ---- headlines ------------------------------------------------------------------
// The figures a closing note quotes, from this run's rows (n/a where the run
// did not measure them: filters, a Node without crypto.hash, no addon for the
// ceiling). `label` names the implementation measured, on every line that
// quotes it: a line copied out of the output still says which it was. On a
// Node without crypto.hash the digest lines compare with createHash, the call
// a user would write there instead.
function headlines(results, algs, label, measured) {
  const find = (q, alg, size, enc) => results.find((r) => r.question === q && r.alg === alg && r.size === size &&
    (enc === undefined || r.enc === enc));
  const lines = [`measured: ${measured}`];
  for (const size of [16, 64]) {
    for (const alg of algs) {
      const r = find('a', alg, size);
      if (!r) continue;
      const fh = r.peers['fast-hash'], c = r.peers.ceiling;
      const base = r.peers['crypto.hash'] ? 'crypto.hash' : 'createHash';
      const above = c ? `${fmtNs(fh.bestNs - c.bestNs)} ns above ceiling (${fmtNs(c.bestNs)} ns)` : 'no ceiling';
      lines.push(`${alg} ${size} B Buffer hex: ${label} ${fmtNs(fh.bestNs)} ns, ${above}; ` +
        `vs ${base} ${fmtX(r.peers[base].bestNs / fh.bestNs)}`);
    }
  }
  if (lines.length === 1) lines.push('Buffer hex at 16 and 64 B: not measured in this run');
  const b = find('c', 'sha256', 64, 'buffer');
  const bch = b && b.peers['crypto.hash'];
  lines.push(`sha256 64 B 'buffer' output: ${label} vs crypto.hash(..., 'buffer') ` +
    `${bch ? fmtX(bch.bestNs / b.peers['fast-hash'].bestNs) : 'n/a (not measured)'}`);
  if (b) lines.push(bufferLine(b, label));
  const big = algs.map((alg) => [alg, find('a', alg, 1 << 20)]).filter(([, r]) => r && r.peers.ceiling)
    .map(([alg, r]) => `${alg} ${(r.peers['fast-hash'].bestNs / r.peers.ceiling.bestNs).toFixed(3)}`);
  lines.push(`${label} / ceiling at 1 MiB: ${big.length ? big.join(', ') : 'not measured'}`);
  for (const alg of ['sha256', 'sha512']) {
    const h = find('d', alg, 64);
    if (h) {
      const x = (n) => fmtX(h.peers.createHmac.bestNs / h.peers[n].bestNs);
      lines.push(`HMAC-${alg} 64 B, ${label}: hmac vs createHmac ${x('hmac')}, ` +
        `HmacKey#digest vs createHmac ${x('HmacKey#digest')}`);
      if (h.peers['C HmacKey']) lines.push(hmacAboveC(h, alg, label));
    }
  }
  const m = find('e', 'sha256', 64);
  if (m) {
    const x = (n) => (m.peers[n] ? fmtX(m.peers[n].bestNs / m.peers.hashMany.bestNs) : 'n/a');
    lines.push(`hashMany sha256 64 B items, ${label}: hash() loop / hashMany ${x('hash() loop')}, ` +
      `crypto.hash loop / hashMany ${x('crypto.hash loop')}`);
  }
  const hasher = (title, size) => results.find((r) => r.question === 'f' && r.alg === 'sha256' && r.size === size &&
    r.table.includes(title));
  const [one, upd, two, mac] = [['one Buffer part', 64], ['long-lived', 16], ['two Buffer halves', 64],
    ['HMAC', 64]].map(([t, size]) => hasher(t, size));
  if (one || upd || two || mac) {
    const x = (r, peer) => (r && r.peers[peer] ? fmtX(r.peers[peer].bestNs / r.peers['fast-hash'].bestNs) : 'n/a');
    lines.push(`hasher sha256, ${label}: one 64 B part vs the createHash chain ${x(one, 'createHash')} (target 2.5x), ` +
      `update(16 B) vs Hash#update ${x(upd, 'Hash#update')} (1x), two 32 B parts vs crypto.hash(Buffer.concat) ` +
      `${x(two, 'crypto.hash(concat)')} (1.3x), HMAC of two 32 B parts vs createHmac ${x(mac, 'createHmac')} (3x)`);
  }
  console.log('');
  for (const l of lines) console.log(`headline ${l}`);
}

// What 'buffer' output costs over the hex output of the same digest, and how
// it and the call floor stand against Bun's bytes output (timed in Bun, same
// harness).
function bufferLine(r, label) {
  const p = r.peers, fh = p['fast-hash'].bestNs;
  const hex = p['hex output'] ? `${fmtNs(fh - p['hex output'].bestNs)} ns above its hex output (target <= 40)` :
    'hex output not measured';
  const b = p['Bun CryptoHasher'], floor = p['call floor'];
  const bun = b ? `Bun.CryptoHasher.hash bytes ${fmtNs(b.bestNs)} ns: ${label} ${fmtX(b.bestNs / fh)} (target > 1x)` +
    (floor ? `, the Node-API floor (call floor ${fmtNs(floor.bestNs)} ns) ${fmtX(b.bestNs / floor.bestNs)}` : '') :
    'no Bun column';
  return `sha256 64 B 'buffer' output, ${label}: ${fmtNs(fh)} ns, ${hex}; ${bun}`;
}

// HMAC calls above their C work alone (native loops of the same code).
function hmacAboveC(r, alg, label) {
  const p = r.peers, above = (name, c) => fmtNs(p[name].bestNs - p[c].bestNs);
  return `HMAC-${alg} 64 B above the C loop, ${label}: HmacKey#digest +${above('HmacKey#digest', 'C HmacKey')} ns ` +
    `and HmacKey#verify +${above('HmacKey#verify', 'C HmacKey')} ns over precomputed states ` +
    `(${fmtNs(p['C HmacKey'].bestNs)} ns), hmac() +${above('hmac', 'C hmac')} ns over the C HMAC with its key ` +
    `schedule (${fmtNs(p['C hmac'].bestNs)} ns) (targets <= 100)`;
}

module.exports = { LEGEND, printHead, printRow, headlines, fmtSize };
