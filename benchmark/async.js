'use strict';
// hashAsync while the machine is busy: `--busy` worker_threads (default 2, as
// many as this machine's cores) burn CPU on crypto.hash the whole time, and
// we measure
//   throughput   `--jobs` sha256 digests of one 1 MiB Buffer, either as
//                hashAsync calls kept `--in-flight` at a time (default 4, the
//                default UV_THREADPOOL_SIZE) or as sync hash() calls on the
//                main thread, one after another; MB/s (10^6 bytes/s) and jobs/s
//   event loop   the longest gap between setInterval(..., 1) ticks while one
//                64 MiB sha256 runs, as hashAsync vs as sync hash()
// Each measurement is one run per peer per round, interleaved and rotated.
// The burners' own sha256 MB/s during each peer's runs is shown too: what
// the peer took from the rest of the machine.
//
// Usage: node benchmark/async.js [--quick] [--jobs 256] [--in-flight 4] [--busy 2]
//          [--rounds 7] [--json out.json]
//
// A benchmark, not a test: it never fails on speed, only on a wrong result.

const crypto = require('crypto');
const { Worker } = require('worker_threads');
const { performance } = require('perf_hooks');
const fastHash = require('..');
const bench = require('./common');

const FULL = { jobs: 256, inFlight: 4, busy: 2, rounds: 7, json: null };
const QUICK = { ...FULL, jobs: 64, rounds: 3 };
const MiB = 1 << 20;
const GAP_BYTES = 64 * MiB;
const BURN_BYTES = 16384;

// ---- busy threads -------------------------------------------------------------
// A tight synchronous loop never gets to read a postMessage, so the stop
// signal and the progress counters go through shared memory: word 0 is
// "stop", word 1 + i counts burner i's digests.
const BURNER = `
const { workerData, parentPort } = require('worker_threads');
const crypto = require('crypto');
const flags = new Int32Array(workerData.shared), data = Buffer.alloc(${BURN_BYTES}, workerData.index);
const h = crypto.hash ? (d) => crypto.hash('sha256', d) : (d) => crypto.createHash('sha256').update(d).digest('hex');
parentPort.postMessage('running');
while (Atomics.load(flags, 0) === 0) { h(data); Atomics.add(flags, 1 + workerData.index, 1); }
`;

async function startBurners(n) {
  const shared = new SharedArrayBuffer(4 * (n + 1)), flags = new Int32Array(shared);
  const workers = Array.from({ length: n },
    (_, index) => new Worker(BURNER, { eval: true, workerData: { shared, index } }));
  await Promise.all(workers.map((w) => new Promise((resolve) => w.once('message', resolve))));
  const count = () => { let s = 0; for (let i = 1; i <= n; i++) s += Atomics.load(flags, i); return s; };
  const stop = () => {
    Atomics.store(flags, 0, 1);
    return Promise.all(workers.map((w) => new Promise((resolve) => w.once('exit', resolve))));
  };
  return { count, stop };
}

// Wraps a peer's run to add up the burners' digests during its runs.
function withBurnCount(peer, burners) {
  const burn = { digests: 0, ns: 0 };
  const run = async (c) => {
    const n0 = burners.count(), t0 = process.hrtime.bigint();
    const out = await peer.run(c);
    burn.ns += Number(process.hrtime.bigint() - t0);
    burn.digests += burners.count() - n0;
    return out;
  };
  return { ...peer, run, burn };
}

// ---- throughput ---------------------------------------------------------------
// Each "lane" starts its next job when its last one settles, so exactly
// inFlight jobs are queued on the pool at any time.
const THROUGHPUT = [
  {
    name: 'hashAsync',
    async run(c) {
      let started = 0, last;
      const lane = async () => {
        while (started < c.jobs) { started++; last = await fastHash.hashAsync('sha256', c.data); }
      };
      await Promise.all(Array.from({ length: c.inFlight }, lane));
      return last;
    },
  },
  {
    name: 'sync hash',
    run(c) {
      let last;
      for (let i = 0; i < c.jobs; i++) last = fastHash.hash('sha256', c.data);
      return last;
    },
  },
];

// ---- event-loop gaps ----------------------------------------------------------
// A 1 ms interval ticks for 20 ms, then the 64 MiB digest runs, then 20 ms
// more. The gap kept is the longest between ticks that overlaps the digest:
// for the sync call at least its whole duration; for hashAsync whatever the
// call does on the main thread (it copies its input there) plus scheduling.
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const GAP = [
  { name: 'hashAsync', digest: (c) => fastHash.hashAsync('sha256', c.big) },
  { name: 'sync hash', digest: (c) => fastHash.hash('sha256', c.big) },
].map((p) => ({
  name: p.name,
  async run(c) {
    const ticks = [];
    const timer = setInterval(() => ticks.push(performance.now()), 1);
    await sleep(20);
    const t0 = performance.now();
    const out = await p.digest(c);
    const t1 = performance.now();
    await sleep(20);
    clearInterval(timer);
    let gap = 0;
    for (let i = 1; i < ticks.length; i++) {
      if (ticks[i] > t0 && ticks[i - 1] < t1) gap = Math.max(gap, ticks[i] - ticks[i - 1]);
    }
    c.gaps[p.name].push(gap * 1e6);
    c.digestNs[p.name].push((t1 - t0) * 1e6);
    return out;
  },
}));
const resetGaps = (c) => {
  c.gaps = { hashAsync: [], 'sync hash': [] };
  c.digestNs = { hashAsync: [], 'sync hash': [] };
};

// ---- measurement --------------------------------------------------------------
// The last digest of every timed run is checked too, not only a first call.
const checked = (p, want, where) => ({
  ...p,
  async run(c) {
    const out = await p.run(c);
    bench.checkResult(p.name, where, out, want);
    return out;
  },
});
const burnMBs = (p) => (p.burn.digests * BURN_BYTES) / p.burn.ns * 1e3;

// One warm-up run per peer (dropped, and it is the first result check), then the rounds.
async function measure(peers, c, rounds) {
  for (const p of peers) await p.run(c);
  resetGaps(c);
  peers.forEach((p) => { p.burn.digests = 0; p.burn.ns = 0; });
  const res = await bench.measureRuns(peers, c, rounds);
  for (const p of peers) res[p.name].busyThreadsMBs = burnMBs(p);
  return res;
}

// ---- report -------------------------------------------------------------------
const ms = (ns) => (ns / 1e6).toFixed(1);

async function main() {
  const opts = bench.parseArgs(process.argv.slice(2), {
    script: 'async.js', full: FULL, quick: QUICK, numbers: { jobs: 'N', 'in-flight': 'N', busy: 'N' },
    omit: ['alg', 'size', 'batch-ms', 'warmup-ms'],
  });
  for (const k of ['jobs', 'inFlight', 'busy']) opts[k] = Math.round(opts[k]);
  const started = process.hrtime.bigint();
  const env = bench.envInfo();
  bench.printEnv(env);
  const pool = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  console.log(`${opts.busy} busy worker_threads (sha256 of ${BURN_BYTES / 1024} KiB in a loop), thread pool ${pool}, ` +
    `rounds ${opts.rounds}, one run per peer per round`);

  const c = {
    jobs: opts.jobs, inFlight: opts.inFlight, data: crypto.randomBytes(MiB), big: crypto.randomBytes(GAP_BYTES),
  };
  const expected = crypto.createHash('sha256').update(c.data).digest('hex');
  const expectedBig = crypto.createHash('sha256').update(c.big).digest('hex');
  resetGaps(c);

  const burners = await startBurners(opts.busy);
  const tp = THROUGHPUT.map((p) => withBurnCount(checked(p, expected, 'a run of 1 MiB jobs'), burners));
  const gp = GAP.map((p) => withBurnCount(checked(p, expectedBig, '64 MiB'), burners));
  let throughput, gapRuns;
  try {
    throughput = await measure(tp, c, opts.rounds);
    gapRuns = await measure(gp, c, opts.rounds);
  } finally {
    await burners.stop();
  }

  const mbs = (ns) => (opts.jobs * MiB) / ns * 1e3;
  const jobs = (ns) => opts.jobs / ns * 1e9;
  const both = (f, r) => `${f(r.bestNs).toFixed(0)} (${f(r.medianNs).toFixed(0)})`;
  console.log(`\nthroughput: ${opts.jobs} x sha256 of 1 MiB, hashAsync ${opts.inFlight} in flight   (best (median))`);
  console.log(`${'peer'.padEnd(12)}${'MB/s'.padStart(16)}${'jobs/s'.padStart(16)}   busy threads meanwhile`);
  for (const p of tp) {
    const r = throughput[p.name];
    console.log(`${p.name.padEnd(12)}${both(mbs, r).padStart(16)}${both(jobs, r).padStart(16)}   ` +
      `${r.busyThreadsMBs.toFixed(0)} MB/s`);
  }
  const vsSync = bench.ratio({ peers: throughput }, 'hashAsync', 'sync hash');
  console.log(`hashAsync vs sync hash = ${bench.fmtRatio(vsSync)}`);

  // Per round, the longest gap; over the rounds, the median (and the range).
  console.log('\nevent loop: longest gap between 1 ms interval ticks during one 64 MiB sha256   ' +
    `(ms, ${opts.rounds} rounds)`);
  console.log(`${'peer'.padEnd(12)}${'median gap'.padStart(12)}${'min..max'.padStart(16)}` +
    `${'digest time'.padStart(14)}   busy threads meanwhile`);
  const gaps = {};
  for (const p of gp) {
    const g = bench.summarize(c.gaps[p.name]), d = bench.summarize(c.digestNs[p.name]);
    gaps[p.name] = { gapMs: g.medianNs / 1e6, gapsMs: g.samplesNs.map((x) => x / 1e6), digestMs: d.medianNs / 1e6,
      busyThreadsMBs: gapRuns[p.name].busyThreadsMBs };
    const range = `${ms(g.bestNs)}..${ms(Math.max(...g.samplesNs))}`;
    console.log(`${p.name.padEnd(12)}${ms(g.medianNs).padStart(12)}${range.padStart(16)}` +
      `${`${ms(d.medianNs)} ms`.padStart(14)}   ` +
      `${gapRuns[p.name].busyThreadsMBs.toFixed(0)} MB/s`);
  }

  const headline = { asyncMBs: mbs(throughput.hashAsync.bestNs), syncMBs: mbs(throughput['sync hash'].bestNs),
    asyncGapMs: gaps.hashAsync.gapMs, syncGapMs: gaps['sync hash'].gapMs };
  bench.finish({ env, opts, started, results: { throughput, gaps }, headline });
  console.log(`headline hashAsync 1MiB with ${opts.busy} busy threads: ${headline.asyncMBs.toFixed(0)} MB/s ` +
    `(sync hash: ${headline.syncMBs.toFixed(0)} MB/s); 64 MiB: max event-loop gap ` +
    `async ${headline.asyncGapMs.toFixed(1)} ms vs sync ${headline.syncGapMs.toFixed(1)} ms`);
}

main();
