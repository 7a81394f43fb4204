'use strict';
// Run by Bun (see bun.js): checks Bun.CryptoHasher.hash(alg, data) against
// node:crypto on the suite's input, times it with the suite's harness and
// prints the harness's result for it as JSON.
//
//   bun benchmark/suite/bun-child.js <alg> <size> <budget-ms> <batch-ms> <warmup-ms> <min-rounds>

const crypto = require('crypto');
const bench = require('../common');
const { bytes } = require('./inputs');

const [alg, size, budgetMs, batchMs, warmupMs, minRounds] = process.argv.slice(2);
const data = bytes(Number(size));
const { CryptoHasher } = globalThis.Bun;
const expected = crypto.createHash(alg).update(data).digest('hex');
const got = Buffer.from(CryptoHasher.hash(alg, data)).toString('hex');
if (got !== expected) throw new Error(`Bun.CryptoHasher.hash(${alg}) gave ${got}, node:crypto ${expected}`);

const { tag } = bench;
const peer = {
  name: 'Bun CryptoHasher',
  loop(c, n) {
    let s = 0;
    for (let i = 0; i < n; i++) s ^= tag(CryptoHasher.hash(alg, data));
    return s;
  },
};
const m = bench.measureBudget([peer], {}, {
  budgetMs: Number(budgetMs), batchMs: Number(batchMs), warmupMs: Number(warmupMs), minRounds: Number(minRounds),
});
const r = m[peer.name];
const sorted = { bestNs: r.bestNs, medianNs: r.medianNs, p25Ns: r.p25Ns, p75Ns: r.p75Ns, rounds: r.rounds, batch: r.batch };
process.stdout.write(`${JSON.stringify(sorted)}\n`);
