'use strict';
// Can mitata or tinybench measure tens of nanoseconds honestly? The evidence
// behind benchmark/README.md "Why the batch timer". Times the same four
// functions with each harness, several times over, in one process:
//   trivial      () => x ^ 1           (true cost: next to nothing, the loop's own)
//   fast-hash    hash('sha256', 16-byte Buffer)
//   crypto.hash  crypto.hash('sha256', 16-byte Buffer)
//   createHash   createHash('sha256').update(16-byte Buffer).digest('hex')
// next to benchCeiling (the digest alone, in C), a floor no harness should
// cross. A harness that adds its own cost per call shows it on `trivial`, and
// squeezes the fast-hash / crypto.hash ratio towards 1.
//
// The libraries are not devDependencies (the suite does not use them):
//   npm install --no-save mitata tinybench && node benchmark/harness-check.js
// or point HARNESS_LIBS at a folder where they are installed.

const crypto = require('crypto');
const path = require('path');
const { createRequire } = require('module');
const { pathToFileURL } = require('url');
const { hash } = require('..');
// The floor is the native code's, whichever implementation `hash` runs:
// benchCeiling, from the benchmarks' own addon (benchmark/ceiling, compiled
// on first use), with an id from that addon's own resolve().
const ceilingAddon = require('./ceiling');
const bench = require('./common');

const REPS = Number(process.env.REPS) || 5;
const data = Buffer.from(Array.from({ length: 16 }, (_, i) => i * 31 + 7));
let x = 5; // a variable, so `x ^ 1` cannot be folded into a constant
const FNS = {
  trivial: () => x ^ 1,
  'fast-hash': () => hash('sha256', data),
  'crypto.hash': () => crypto.hash('sha256', data),
  createHash: () => crypto.createHash('sha256').update(data).digest('hex'),
};

async function load(name) {
  const from = createRequire(path.join(process.env.HARNESS_LIBS || path.join(__dirname, '..'), 'x.js'));
  const file = from.resolve(name);
  const dir = path.join(file.slice(0, file.lastIndexOf('node_modules') + 13), name);
  const { version } = require(path.join(dir, 'package.json'));
  return { lib: await import(pathToFileURL(file)), version };
}

// Every harness gets a freshly compiled wrapper per function, so no call
// site sees two functions (shared type feedback would slow all of them).
const fresh = (src, ...args) => new Function('f', 'm', `return ${src}`)(...args);

// Each harness times every function of FNS: { [name]: { best, median } } ns per call.
// The batch timer of common.js, as the suite runs it (short batches, the
// functions interleaved, a time budget) and in rounds of long batches, as
// the per-API scripts (hash.js, hmac.js, many.js) run it (here nine 40 ms
// batches per function).
const loops = () => Object.entries(FNS).map(([name, f]) =>
  ({ name, loop: fresh('(c, n) => { let s = 0; for (let i = 0; i < n; i++) s ^= f() ? 1 : 0; return s; }', f) }));
const pick = (r) => Object.fromEntries(Object.entries(r).map(([n, v]) => [n, { best: v.bestNs, median: v.medianNs }]));
const suiteTimer = () => pick(bench.measureBudget(loops(), {}, { budgetMs: 1500, batchMs: 2, warmupMs: 150 }));
const longBatches = () => pick(bench.measure(loops(), {}, { rounds: 9, batchMs: 40, warmupMs: 150 }));

// mitata: its own measure() (batches of 4096 calls in a generated loop, about
// 0.6 s per function); do_not_optimize is its sink.
async function mitata(m) {
  const out = {};
  for (const [name, f] of Object.entries(FNS)) {
    const r = await m.measure(fresh('() => m.do_not_optimize(f())', f, m));
    out[name] = { best: r.min, median: r.p50 };
  }
  return out;
}
// mitata's measure() as the suite would have to use it to interleave peers:
// 20 rounds, each giving every function (rotated) 20 ms of its own sampling.
async function mitataInterleaved(m) {
  const fns = Object.entries(FNS).map(([name, f]) => [name, fresh('() => m.do_not_optimize(f())', f, m)]);
  const samples = Object.fromEntries(fns.map(([name]) => [name, []]));
  for (const [, f] of fns) await m.measure(f, { min_cpu_time: 150e6, min_samples: 1 }); // warm-up
  for (let r = 0; r < 20; r++) {
    for (let k = 0; k < fns.length; k++) {
      const [name, f] = fns[(k + r) % fns.length];
      samples[name].push(...(await m.measure(f, { min_cpu_time: 20e6, min_samples: 1 })).samples);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, v]) => {
    const s = bench.summarize(v);
    return [name, { best: s.bestNs, median: s.medianNs }];
  }));
}
// tinybench: each call timed on its own (hrtime), 0.5 s per function, with
// and without its timer-overhead subtraction.
async function tinybench(t, subtract) {
  const out = {};
  for (const [name, f] of Object.entries(FNS)) {
    const b = new t.Bench({
      time: 500, warmupTime: 150, timestampProvider: 'hrtimeNow', subtractTimerOverhead: subtract,
    });
    const sink = { s: 0 };
    b.add(name, fresh('() => { m.s ^= f() ? 1 : 0; }', f, sink));
    await b.run();
    const l = b.tasks[0].result.latency; // milliseconds
    out[name] = { best: l.min * 1e6, median: l.p50 * 1e6 };
  }
  return out;
}

async function main() {
  bench.printEnv(bench.envInfo());
  const [m, t] = await Promise.all([load('mitata'), load('tinybench')]);
  console.log(`mitata ${m.version}, tinybench ${t.version}; ${REPS} repetitions of every harness x function`);
  const harnesses = {
    'batch timer, 2 ms batches (suite)': suiteTimer,
    'batch timer, 40 ms batches': longBatches,
    [`mitata ${m.version}`]: () => mitata(m.lib),
    [`mitata ${m.version}, interleaved rounds`]: () => mitataInterleaved(m.lib),
    [`tinybench ${t.version}`]: () => tinybench(t.lib, false),
    [`tinybench ${t.version} subtract`]: () => tinybench(t.lib, true),
  };
  // Repetitions rotate the harness order, so load from other processes on
  // these shared cores does not always hit the same harness.
  const names = Object.keys(harnesses);
  const out = {}, wall = {};
  const ceiling = [];
  const native = ceilingAddon.load();
  const id = native.resolve('sha256').id;
  for (let rep = 0; rep < REPS; rep++) {
    // The ceiling as the best of many ~2 ms native loops (one long loop is
    // likely to be descheduled on these shared cores).
    ceiling.push(Math.min(...Array.from({ length: 200 }, () => native.benchCeiling(id, data, 20000))));
    for (let k = 0; k < names.length; k++) {
      const h = names[(k + rep) % names.length];
      const t0 = process.hrtime.bigint();
      (out[h] ||= []).push(await harnesses[h]());
      (wall[h] ||= []).push(Number(process.hrtime.bigint() - t0) / 1e9);
      x = (x + 1) & 7;
    }
  }
  // Per harness and function: the lowest best over repetitions (the least
  // disturbed), the median of the bests and of the medians, and the ratio
  // crypto.hash / fast-hash taken within each repetition (median and range).
  const med = (a) => { const s = [...a].sort((p, q) => p - q); return s[s.length >> 1]; };
  const f1 = (v) => v.toFixed(1);
  console.log(`\nbenchCeiling sha256 16 B (the digest alone, C loop): median ${f1(med(ceiling))} ns, ` +
    `lowest ${f1(Math.min(...ceiling))}, over repetitions`);
  console.log('\nns per call: lowest best / median best / median median, over repetitions');
  console.log('harness'.padEnd(40) + Object.keys(FNS).map((k) => k.padStart(24)).join('') +
    '   crypto.hash/fast-hash [range]   s/rep');
  for (const [h, reps] of Object.entries(out)) {
    const row = Object.keys(FNS).map((n) => {
      const b = reps.map((r) => r[n].best);
      return `${f1(Math.min(...b))} / ${f1(med(b))} / ${f1(med(reps.map((r) => r[n].median)))}`;
    });
    const ratios = reps.map((r) => r['crypto.hash'].best / r['fast-hash'].best), f2 = (v) => v.toFixed(2);
    const ratio = `${f2(med(ratios))}x [${f2(Math.min(...ratios))}-${f2(Math.max(...ratios))}]`;
    console.log(h.padEnd(40) + row.map((s) => s.padStart(24)).join('') + ratio.padStart(33) +
      med(wall[h]).toFixed(1).padStart(8));
  }
}

main().catch((e) => { console.error(e.message); process.exit(1); });
