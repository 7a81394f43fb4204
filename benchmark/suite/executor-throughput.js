'use strict';
// Rows 3, 4 and 5 of question (m) (executor.js): how the executor's
// throughput grows with the jobs given it, what one stream costs the main
// thread, and the command on many small files. Each row returns
// { figures, notes }, as executor-latency.js's do.

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { pipeline } = require('stream/promises');
const { performance } = require('perf_hooks');
const bench = require('../common');
const { warm } = require('../cached-file');
const { MiB } = require('./executor-inputs');
const { run, NODE_ENV } = require('./command').helpers;

const fmt = (x) => x.toFixed(0);

// One run of `job`, the page cache refreshed first (this VM's kernel
// reclaims page cache it deems cold, and a run that reads from disk times
// the disk): { ms, busyMs } (busyMs: event-loop utilization x wall, the
// main thread's share).
async function timed(job) {
  for (const f of job.files) warm(f.file);
  const e0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  await job.run();
  return { ms: performance.now() - t0, busyMs: performance.eventLoopUtilization(e0).active };
}

// Best wall and best busy time of each job over `rounds` rounds, the jobs
// in turn and their order rotating round by round.
async function bestOf(jobs, rounds) {
  const best = jobs.map(() => ({ ms: Infinity, busyMs: Infinity }));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < jobs.length; k++) {
      const i = (k + r) % jobs.length;
      const t = await timed(jobs[i]);
      best[i] = { ms: Math.min(best[i].ms, t.ms), busyMs: Math.min(best[i].busyMs, t.busyMs) };
    }
  }
  return best;
}

// A digest job whose result is checked against node:crypto's, each time
// (a comparison of hex strings costs nothing beside the digest).
const checked = (name, digest, f) => async () => bench.checkResult(name, '(m) executor', await digest(), f.sha256);

function scalingJobs(impl, files) {
  const size = files[0].bytes;
  const file = (f) => checked('hashFile', () => impl.hashFile('sha256', f.file), f);
  const stream = (f) => checked('hashStream(ReadStream)',
    () => impl.hashStream('sha256', fs.createReadStream(f.file, { highWaterMark: MiB })), f);
  const sixteen = Array.from({ length: 16 }, (_, i) => files[i % files.length]);
  return [
    { name: 'hashFile, one file alone', files: [files[0]], bytes: size, run: file(files[0]) },
    { name: `hashFile, ${files.length} files at once`, files, bytes: files.length * size,
      run: () => Promise.all(files.map((f) => file(f)())), of: 0 },
    { name: 'hashStream(ReadStream, 1 MiB reads), one alone', files: [files[0]], bytes: size, run: stream(files[0]) },
    { name: '16 such hashStreams at once', files, bytes: 16 * size,
      run: () => Promise.all(sixteen.map((f) => stream(f)())), of: 2 },
  ];
}

// Target: the jobs at once at least 0.9 x N x the one alone's rate.
async function scaling({ impl, inputs, n, plan }) {
  const jobs = scalingJobs(impl, inputs.scaling);
  const best = await bestOf(jobs, plan.rounds);
  const mbs = best.map((b, i) => jobs[i].bytes / b.ms / 1e3);
  const figures = [];
  jobs.forEach((j, i) => {
    if (j.of === undefined) return;
    figures.push({ row: 3, figure: `${jobs[j.of].name}, MB/s`, value: mbs[j.of] },
      { row: 3, figure: `${j.name}, MB/s (0.9 x N x one's)`, value: mbs[i], op: '>=', target: 0.9 * n * mbs[j.of] },
      { row: 3, figure: '  the same / the one alone\'s', value: mbs[i] / mbs[j.of], op: '>=', target: 0.9 * n, fixed: 2 });
  });
  const walls = jobs.map((j, i) => `${j.name} ${fmt(best[i].ms)} / ${fmt(best[i].busyMs)}`).join('; ');
  return { figures, notes: [`3: files of ${inputs.scaling[0].bytes / MiB} MiB, best of ${plan.rounds} rounds; ` +
    `wall / main-thread busy ms: ${walls}`] };
}

// Row 4's three ways of hashing one file stream.
const WAYS = {
  hashStream: (impl, source) => impl.hashStream('sha256', source),
  pipeline: async (impl, source) => {
    const h = crypto.createHash('sha256');
    await pipeline(source, h);
    return h.digest('hex');
  },
  'for await': async (impl, source) => {
    const h = crypto.createHash('sha256');
    for await (const c of source) h.update(c);
    return h.digest('hex');
  },
};

// Targets: hashStream's wall time at most the faster peer's, its busy time
// at most 0.3 x pipeline's.
async function oneStream({ impl, inputs, plan }) {
  const f = inputs.stream, figures = [], notes = [];
  for (const hwm of [64 * 1024, MiB]) {
    const jobs = Object.entries(WAYS).map(([name, way]) => ({
      name, files: [f], run: checked(name, () => way(impl, fs.createReadStream(f.file, { highWaterMark: hwm })), f),
    }));
    const [ours, pipe, loop] = await bestOf(jobs, plan.rounds);
    const what = `${f.bytes / MiB} MiB, ${hwm < MiB ? `${hwm / 1024} KiB` : `${hwm / MiB} MiB`} reads`;
    const figure = (f4, value, target) => ({ row: 4, figure: `${what}: hashStream ${f4}`, value, op: '<=', target });
    figures.push(figure("wall ms (the faster peer's)", ours.ms, Math.min(pipe.ms, loop.ms)),
      figure("busy ms (0.3 x pipeline's)", ours.busyMs, 0.3 * pipe.busyMs));
    notes.push(`4: ${what}, wall / busy ms: hashStream ${fmt(ours.ms)} / ${fmt(ours.busyMs)}, pipeline ` +
      `${fmt(pipe.ms)} / ${fmt(pipe.busyMs)}, for await ${fmt(loop.ms)} / ${fmt(loop.busyMs)} (best of ${plan.rounds})`);
  }
  return { figures, notes };
}

// Row 5: best wall ms of each command over interleaved rounds, after one
// round that checks the command prints what sha256sum prints.
function commandTimes(root, files, rounds) {
  const commands = [
    { name: 'fast-hash', command: process.execPath, args: [path.join(root, 'bin', 'fast-hash.js'), ...files], env: NODE_ENV },
    { name: 'sha256sum', command: 'sha256sum', args: files, env: process.env },
    { name: 'node -e 0', command: process.execPath, args: ['-e', '0'], env: NODE_ENV },
  ];
  const [ours, theirs] = commands.slice(0, 2).map((c) => run(c).stdout);
  if (!ours.equals(theirs)) throw new Error('(m) the fast-hash command and sha256sum printed different output');
  const best = commands.map(() => Infinity);
  for (let r = 0; r < rounds; r++) commands.forEach((c, i) => { best[i] = Math.min(best[i], run(c).ms); });
  return best;
}

// Target: at most 0.6x sha256sum, the runtime's start-up (node -e 0) left out.
async function command({ root, inputs, plan }) {
  if (spawnSync('sha256sum', ['--version']).error) return { figures: [], notes: ['5: skipped, no sha256sum on PATH'] };
  const [ours, theirs, start] = commandTimes(root, inputs.small, plan.commandRounds);
  return {
    figures: [{ row: 5, figure: '2,000 files of 1-17 KiB: (fast-hash - node -e 0) / sha256sum', value: (ours - start) / theirs,
      op: '<=', target: 0.6, fixed: 2 }],
    notes: [`5: best wall ms of ${plan.commandRounds} rounds: fast-hash ${ours.toFixed(1)}, node -e 0 ${start.toFixed(1)}, ` +
      `sha256sum ${theirs.toFixed(1)} (the node that runs this, ${process.version}, without NODE_EXTRA_CA_CERTS)`],
  };
}

module.exports = { scaling, oneStream, command };
