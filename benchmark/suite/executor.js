'use strict';
// (m) executor: what the one executor off the main thread (src/pool.c: a
// thread per core or FAST_HASH_THREADS, FIFO, tasks of bounded 1 MiB
// steps) gives every kind of job at once. N = os.availableParallelism().
// Rows, each figure beside its target (the targets of the executor's issue):
//   1 mixed load   N endless hashStream('sha512') of in-memory 1 MiB chunks,
//                  N hashFile('sha256', 64 MiB cached) loops and N
//                  hashAsync('sha256', 4 MiB) loops at once; meanwhile, one
//                  after another: fs.promises.stat (median <= 5 ms, p95 <= 20)
//                  and hashStream of [256 KiB], hashAsync of 64 KiB,
//                  hashFile of a 1 MiB cached file (each median <= 30 ms,
//                  p95 <= 100); idle figures beside them, for context
//   2 starvation   ten 256 KiB hashStream('sha256')s in turn under N
//                  endless hashStream('sha3-512')s: median <= 50 ms, max <= 150
//   3 scaling      hashFile of 2N cached files at once, and 16 hashStreams
//                  of cached files through fs.createReadStream (1 MiB reads):
//                  aggregate >= 0.9 x N x one alone's rate
//   4 one stream   a 256 MiB cached file through fs.createReadStream (64 KiB
//                  and 1 MiB reads): hashStream's wall <= the faster of
//                  pipeline(src, createHash) and a for-await Hash#update
//                  loop; its busy time (event-loop utilization x wall) <=
//                  0.3 x pipeline's
//   5 command      node bin/fast-hash.js on 2,000 cached files of 1-17 KiB,
//                  less node -e 0, <= 0.6 x sha256sum's wall (best rounds)
// Every digest is checked against node:crypto (the command's output against
// sha256sum's). Alone, and against another checkout (the commit before the
// executor, say): node benchmark/executor.js [--quick] [--impl DIR].

const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { performance } = require('perf_hooks');
const { makeInputs, buffers } = require('./executor-inputs');
const { checkLoads, mixedLoad, starvation } = require('./executor-latency');
const { scaling, oneStream, command } = require('./executor-throughput');

const CORES = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;

// samples: row 1's rounds (at least minSamples, then up to budgetMs of
// each phase); cutMs: where row 2 gives up on a call; rounds: rows 3 and
// 4's; sizes in MiB.
const FULL = {
  samples: 100, minSamples: 20, budgetMs: 20000, cutMs: 5000, rounds: 5, commandRounds: 11, scalingMib: 128, streamMib: 256,
};
const QUICK = {
  samples: 30, minSamples: 10, budgetMs: 5000, cutMs: 2000, rounds: 2, commandRounds: 5, scalingMib: 128, streamMib: 256,
};
const ROWS = [mixedLoad, starvation, scaling, oneStream, command];

// The fast-hash of checkout `dir` (default: this one), and what to call it.
function loadImpl(dir) {
  const root = dir ? path.resolve(dir) : path.join(__dirname, '..', '..');
  const impl = require(root);
  let commit = 'not a git checkout';
  try {
    const git = (...args) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    commit = git('log', '-1', '--format=%h').trim() + (git('status', '--porcelain', '-uno').trim() ? ' + changes' : '');
  } catch {
    // no git, or not a checkout: the path alone names it
  }
  return { impl, root, label: `fast-hash (${impl.implementation} implementation) at ${root}, ${commit}` };
}

const met = (f) => f.op === undefined || (f.op === '<=' ? f.value <= f.target : f.value >= f.target);
const num = (x, fixed) => (x === undefined ? '' : fixed !== undefined ? x.toFixed(fixed) :
  x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

function print(figures, notes) {
  console.log(`\n  ${'row / figure'.padEnd(66)}${'idle'.padStart(9)}${'measured'.padStart(10)}  ${'target'.padEnd(12)}`);
  for (const f of figures) {
    const target = f.op ? `${f.op} ${num(f.target, f.fixed)}` : '';
    const verdict = f.op ? (met(f) ? 'met' : 'NOT met') : '';
    const value = (f.atLeast ? '>=' : '') + num(f.value, f.fixed);
    console.log(`  ${String(f.row)}  ${f.figure.padEnd(63)}${num(f.idle, f.fixed).padStart(9)}` +
      `${value.padStart(10)}  ${target.padEnd(12)}${verdict}`);
  }
  for (const line of notes) console.log(`  ${line}`);
}

// opts: run.js's (quick), or executor.js's (quick, impl: a checkout).
async function runQuestion(opts) {
  const { impl, root, label } = loadImpl(opts.impl);
  const plan = opts.quick ? QUICK : FULL;
  console.log(`\n(m) executor: ${label}; N = ${CORES} (os.availableParallelism()); FAST_HASH_THREADS ` +
    `${process.env.FAST_HASH_THREADS ?? 'unset'}; UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? 'unset (4)'}`);
  const inputs = { ...makeInputs(CORES, plan), bufs: buffers() };
  const figures = [], notes = [];
  try {
    await checkLoads(impl, inputs);
    for (const [i, row] of ROWS.entries()) {
      const t0 = performance.now();
      const r = await row({ impl, root, inputs, n: CORES, plan });
      figures.push(...r.figures);
      notes.push(...r.notes);
      console.log(`  (row ${i + 1} done in ${((performance.now() - t0) / 1e3).toFixed(1)} s)`);
    }
  } finally {
    inputs.remove();
  }
  print(figures, notes);
  return figures.map((f) => ({ question: 'm', table: 'executor', implementation: label, ...f, met: met(f) }));
}

function headlines(rows) {
  const targets = rows.filter((r) => r.op !== undefined);
  const missed = targets.filter((r) => !r.met)
    .map((r) => `${r.row} ${r.figure.trim()} ${r.atLeast ? '>=' : ''}${num(r.value, r.fixed)}`);
  return [`executor (m), ${rows[0]?.implementation}: ${targets.length - missed.length} of ${targets.length} ` +
    `targets met${missed.length ? `; not met: ${missed.join('; ')}` : ''}`];
}

module.exports = { id: 'm', name: 'executor', algs: ['sha256'], run: runQuestion, headlines };
