'use strict';
// Rows 1 and 2 of question (m) (executor.js): how long short jobs wait
// while long ones keep every executor thread busy. Each row returns
// { figures, notes }: figures as executor.js prints them ({ row, figure,
// idle?, value, op, target }), notes as lines under the table.

const crypto = require('crypto');
const fs = require('fs');
const { performance } = require('perf_hooks');
const { setTimeout: sleep } = require('timers/promises');
const bench = require('../common');
const { MiB } = require('./executor-inputs');

const GAP_MS = 2; // between two samples: a caller that is not a tight loop
const SETTLE_MS = 300; // after starting a load: every thread busy before sampling

// The same chunk again and again until st.stop (or `limit` chunks: the
// result check); st.bytes counts what was handed over.
async function* repeated(chunk, st, limit = Infinity) {
  for (let i = 0; i < limit && !st.stop; i++) {
    st.bytes += chunk.length;
    yield chunk;
  }
}

// Calls job() one after another until st.stop.
async function repeat(st, job, bytes) {
  while (!st.stop) {
    await job();
    st.bytes += bytes;
  }
}

// One of each per core: (impl, inputs, st) -> a promise that settles once
// st.stop is set.
const LOADS = {
  "hashStream('sha512', endless 1 MiB chunks)": (impl, inp, st) => impl.hashStream('sha512', repeated(inp.bufs.mib, st)),
  "hashFile('sha256', 64 MiB cached file) loop": (impl, inp, st) =>
    repeat(st, () => impl.hashFile('sha256', inp.mib64.file), inp.mib64.bytes),
  "hashAsync('sha256', 4 MiB) loop": (impl, inp, st) => repeat(st, () => impl.hashAsync('sha256', inp.bufs.mib4), 4 * MiB),
  "hashStream('sha3-512', endless 1 MiB chunks)": (impl, inp, st) =>
    impl.hashStream('sha3-512', repeated(inp.bufs.mib, st)),
};
const [STREAMS, FILES, ASYNC, SHA3] = Object.keys(LOADS);

// Starts n of each named load; returns stop(), which ends them and gives
// each kind's MB/s while it ran.
function startLoad(impl, inputs, n, names) {
  const states = names.map((name) => ({ name, stop: false, bytes: 0 }));
  const all = Promise.all(states.flatMap((st) => Array.from({ length: n }, () => LOADS[st.name](impl, inputs, st))));
  all.catch(() => {}); // a failure is thrown by stop()'s await, not left unhandled until then
  const t0 = performance.now();
  return async () => {
    const ms = performance.now() - t0;
    const rates = states.map((st) => ({ name: st.name, mbs: st.bytes / ms / 1e3 }));
    for (const st of states) st.stop = true;
    await all;
    return rates;
  };
}

// Every load's digest once, against node:crypto, on finite inputs through
// the same calls (an endless stream's digest would cost as much again).
async function checkLoads(impl, inputs) {
  const b = inputs.bufs, st = { stop: false, bytes: 0 };
  const four = (alg) => {
    const h = crypto.createHash(alg);
    for (let i = 0; i < 4; i++) h.update(b.mib);
    return h.digest('hex');
  };
  for (const alg of ['sha512', 'sha3-512']) {
    bench.checkResult(`hashStream ${alg}`, '(m) load', await impl.hashStream(alg, repeated(b.mib, st, 4)), four(alg));
  }
  bench.checkResult('hashFile', '(m) load', await impl.hashFile('sha256', inputs.mib64.file), inputs.mib64.sha256);
  bench.checkResult('hashAsync', '(m) load', await impl.hashAsync('sha256', b.mib4), b.sha256.mib4);
}

// Row 1's short jobs: { name, run, expected, target: [median, p95] }.
function probes(impl, inp) {
  const b = inp.bufs;
  return [
    { name: 'fs.promises.stat, small file', run: () => fs.promises.stat(inp.stat.file), target: [5, 20] },
    { name: "hashStream('sha256', [256 KiB])", run: () => impl.hashStream('sha256', [b.k256]),
      expected: b.sha256.k256, target: [30, 100] },
    { name: "hashAsync('sha256', 64 KiB)", run: () => impl.hashAsync('sha256', b.k64),
      expected: b.sha256.k64, target: [30, 100] },
    { name: "hashFile('sha256', 1 MiB cached file)", run: () => impl.hashFile('sha256', inp.mib1.file),
      expected: inp.mib1.sha256, target: [30, 100] },
  ];
}

function stats(times) {
  const s = [...times].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  const median = s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return { n: s.length, median, p95: at(0.95), max: s[s.length - 1] };
}

// A timer for each call: the commit before the executor kept a fresh
// stream waiting minutes behind endless ones (an AbortSignal did not end
// the wait: the job was already queued). A call still pending at
// plan.cutMs counts as cutMs, which makes the figures it reaches lower
// bounds; it is left running, and its result checked once the load stops
// (settle()). Calls after it may queue behind it: those figures, too, are
// then only the least the wait was.
function cutter(plan) {
  const late = [];
  return {
    late,
    async time(p) {
      let timer;
      const t0 = performance.now();
      const call = p.run();
      const cut = new Promise((resolve) => { timer = setTimeout(resolve, plan.cutMs, late); });
      const got = await Promise.race([call, cut]);
      clearTimeout(timer);
      if (got === late) {
        late.push({ ...p, call });
        return plan.cutMs;
      }
      if (p.expected !== undefined) bench.checkResult(p.name, '(m) executor', got, p.expected);
      return performance.now() - t0;
    },
  };
}

async function settle(late) {
  for (const p of late) {
    const got = await p.call;
    if (p.expected !== undefined) bench.checkResult(p.name, '(m) executor, a call cut', got, p.expected);
  }
}

// Rounds of one call of each probe in turn, a few ms apart (so a phase of
// the load falls on all of them), until plan.samples rounds, or
// plan.minSamples once plan.budgetMs has passed.
async function sample(list, plan, cut) {
  const times = list.map(() => []);
  const t0 = performance.now();
  for (let r = 0; r < plan.samples; r++) {
    if (r >= plan.minSamples && performance.now() - t0 > plan.budgetMs) break;
    for (const [i, p] of list.entries()) {
      times[i].push(await cut.time(p));
      await sleep(GAP_MS);
    }
  }
  return times.map(stats);
}

const loadNote = (row, rates) => `${row}: load while sampling, MB/s: ` +
  rates.map((r) => `${r.name} ${r.mbs.toFixed(0)}`).join('; ');
const cutNote = (row, cut, plan) => (cut.late.length ?
  [`${row}: ${cut.late.length} calls still pending at ${plan.cutMs} ms, counted as that (">=": at least)`] : []);

async function mixedLoad({ impl, inputs, n, plan }) {
  const list = probes(impl, inputs);
  const cut = cutter(plan);
  const idle = await sample(list, plan, cut);
  const stop = startLoad(impl, inputs, n, [STREAMS, FILES, ASYNC]);
  await sleep(SETTLE_MS);
  const loaded = await sample(list, plan, cut);
  const rates = await stop();
  await settle(cut.late);
  const figures = list.flatMap((p, i) => [['median', 0], ['p95', 1]].map(([q, k]) => ({
    row: 1, figure: `${p.name}, ${q} ms`, idle: idle[i][q], value: loaded[i][q], op: '<=', target: p.target[k],
    atLeast: cut.late.length > 0 && loaded[i][q] >= plan.cutMs,
  })));
  const notes = [`1: ${n} of each at once: ${[STREAMS, FILES, ASYNC].join(', ')}; ` +
    `${loaded[0].n} samples of each under load (idle: ${idle[0].n})`, loadNote('1', rates), ...cutNote('1', cut, plan)];
  return { figures, notes };
}

async function starvation({ impl, inputs, n, plan }) {
  const b = inputs.bufs;
  const stop = startLoad(impl, inputs, n, [SHA3]);
  await sleep(SETTLE_MS);
  const p = { name: "hashStream('sha256', [256 KiB])", run: () => impl.hashStream('sha256', [b.k256]), expected: b.sha256.k256 };
  const cut = cutter(plan), times = [];
  for (let i = 0; i < 10; i++) times.push(await cut.time(p));
  const rates = await stop();
  await settle(cut.late);
  const s = stats(times);
  const figure = (q, target) => ({ row: 2, figure: `10 x ${p.name} in turn, ${q} ms`, value: s[q], op: '<=', target,
    atLeast: cut.late.length > 0 && s[q] >= plan.cutMs });
  return {
    figures: [figure('median', 50), figure('max', 150)],
    notes: [`2: under ${n} x ${SHA3}`, loadNote('2', rates), ...cutNote('2', cut, plan)],
  };
}

module.exports = { checkLoads, mixedLoad, starvation };
