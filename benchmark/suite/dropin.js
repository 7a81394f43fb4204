'use strict';
// (l) drop-in: createHash/createHmac chains against node:crypto's (the
// stream machinery must cost nothing until used), and await hashAsync
// against crypto.subtle.digest and an already-resolved promise of hash()
// (small inputs are hashed at once; large ones on the pool). Each row is
// one cell with its target (issue 39):
//   createHash('sha256').update(64 B).digest('hex')  >= 3x crypto.createHash's,
//                                                    >= 0.95x createHasher's
//   await hashAsync('sha256', 64 B)                  >= 10x crypto.subtle.digest,
//                                                    within 3x of await Promise.resolve(hash())
//   await hashAsync('sha256', 1 MiB)                 >= 1x crypto.subtle.digest (the pool path)
// Async cells time runs of AWAITS sequential awaits, reported per await.
//
// Two lines beside the targets, for reading the first: hash() against the
// same crypto.createHash chain (what no chain can beat: one call), and the
// createHash cell again in batches of SUSTAINED_MS, long enough that each
// holds the garbage collections the calls cause. The best of 2 ms batches
// leaves those out, and node:crypto's Hash objects cause more of them.

const bench = require('../common');
const { peer, crypto, fastHash, LABEL } = require('./peers');
const { bytes } = require('./inputs');

const KEY = bytes(32, 73, 11);
const AWAITS = 2000;
const SUSTAINED_MS = 50;

function syncCells() {
  const s = { fastHash, crypto, alg: 'sha256', data: bytes(64), key: KEY };
  return [
    ['createHash sha256, 64 B, hex', "fastHash.createHash(alg).update(data).digest('hex')",
      "crypto.createHash(alg).update(data).digest('hex')", s, 3],
    // The API's own bar: the stream machinery costs nothing until used, so
    // the chain costs what a Hasher's does.
    ['createHash vs createHasher, 64 B, hex', "fastHash.createHash(alg).update(data).digest('hex')",
      "fastHash.createHasher(alg).update(data).digest('hex')", s, 0.95],
    ['createHmac sha256, 64 B, hex', "fastHash.createHmac(alg, key).update(data).digest('hex')",
      "crypto.createHmac(alg, key).update(data).digest('hex')", s, 1],
  ];
}

// A peer whose run awaits `call` AWAITS times, one after another.
function awaiting(name, call, count = AWAITS) {
  return {
    name,
    count,
    async run() {
      let last;
      for (let i = 0; i < count; i++) last = await call();
      return last;
    },
  };
}

const hex = (r) => (typeof r === 'string' ? r : Buffer.from(r).toString('hex'));

async function asyncCell(size, rounds) {
  const data = bytes(size);
  const count = size > 4096 ? 50 : AWAITS;
  const peers = [
    awaiting('hashAsync', () => fastHash.hashAsync('sha256', data), count),
    awaiting('subtle', () => crypto.webcrypto.subtle.digest('SHA-256', data), count),
    awaiting('resolve(hash())', () => Promise.resolve(fastHash.hash('sha256', data)), count),
  ];
  const want = crypto.createHash('sha256').update(data).digest('hex');
  for (const p of peers) bench.checkResult(p.name, `(l) ${size} B`, hex(await p.run()), want);
  const m = await bench.measureRuns(peers, {}, rounds);
  const per = (name) => m[name].bestNs / count;
  return { ours: per('hashAsync'), subtle: per('subtle'), resolved: per('resolve(hash())') };
}

// The context lines (no target), for the first cell (its expressions and
// scope): [title, measureBudget's result] each.
function contextLines([, ours, theirs, s], opts) {
  const floor = bench.measureBudget([peer('fast-hash', 'fastHash.hash(alg, data)', s), peer('theirs', theirs, s)], {}, opts);
  const long = { ...opts, batchMs: SUSTAINED_MS, minRounds: opts.quick ? 5 : 10, warmupMs: Math.max(opts.warmupMs, 200) };
  const sustained = bench.measureBudget([peer('fast-hash', ours, s), peer('theirs', theirs, s)], {}, long);
  return [
    ['hash(), 64 B, hex, vs the same (the floor)', floor],
    [`createHash cell in ${SUSTAINED_MS} ms batches (GC in)`, sustained],
  ];
}

function line(title, ours, theirs, ratio, target, met) {
  console.log(`  ${title.padEnd(46)} ${ours.toFixed(1).padStart(10)} ${theirs.toFixed(1).padStart(10)} ` +
    `${ratio.toFixed(2).padStart(7)}x ${target.padStart(8)}  ${met === null ? '' : met ? 'yes' : 'NO'}`);
}

module.exports = {
  id: 'l',
  name: 'drop-in',
  algs: ['sha256'],
  async run(opts) {
    console.log(`\n(l) drop-in calls: createHash/createHmac and await hashAsync, ns per call [${LABEL}]`);
    console.log(`  ${'cell'.padEnd(46)} ${'fast-hash'.padStart(10)} ${'theirs'.padStart(10)}    ratio   target  met`);
    const rows = [];
    for (const [title, ours, theirs, s, goal] of syncCells()) {
      const peers = [peer('fast-hash', ours, s), peer('theirs', theirs, s)];
      bench.checkResult('fast-hash', `(l) ${title}`, peers[0].one(), peers[1].one());
      const m = bench.measureBudget(peers, {}, opts);
      const ratio = m.theirs.bestNs / m['fast-hash'].bestNs;
      rows.push({ question: 'l', table: title, ratio, target: goal, met: ratio >= goal });
      line(title, m['fast-hash'].bestNs, m.theirs.bestNs, ratio, `>= ${goal}`, ratio >= goal);
    }
    for (const [title, m] of contextLines(syncCells()[0], opts)) {
      const ratio = m.theirs.bestNs / m['fast-hash'].bestNs;
      rows.push({ question: 'l', table: title, ratio, target: null, met: null });
      line(title, m['fast-hash'].bestNs, m.theirs.bestNs, ratio, '-', null);
    }
    const rounds = opts.quick ? 5 : 15;
    for (const size of [64, 1 << 20]) {
      const t = await asyncCell(size, rounds);
      const label = size === 64 ? '64 B' : '1 MiB';
      const vsSubtle = t.subtle / t.ours;
      const goal = size === 64 ? 10 : 1;
      rows.push({ question: 'l', table: `await hashAsync ${label} vs subtle`, ratio: vsSubtle, target: goal, met: vsSubtle >= goal });
      line(`await hashAsync ${label} vs crypto.subtle.digest`, t.ours, t.subtle, vsSubtle, `>= ${goal}`, vsSubtle >= goal);
      if (size !== 64) continue;
      const slower = t.ours / t.resolved;
      rows.push({ question: 'l', table: 'await hashAsync 64 B vs resolve(hash())', ratio: slower, target: 3, met: slower <= 3 });
      line('await hashAsync 64 B, times await resolve(hash())', t.ours, t.resolved, slower, '<= 3', slower <= 3);
    }
    return rows;
  },
  headlines(rows) {
    const targeted = rows.filter((r) => r.target !== null);
    const missed = targeted.filter((r) => !r.met);
    return [`(l) drop-in: ${targeted.length - missed.length} of ${targeted.length} cells meet their target` +
      (missed.length ? `; not: ${missed.map((r) => `${r.table} ${r.ratio.toFixed(2)}x`).join(', ')}` : '')];
  },
};
