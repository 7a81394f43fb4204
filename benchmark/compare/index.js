'use strict';
// Speed of the working tree against a git ref, as Node core's
// benchmark/compare.js + compare.R report it.
//
//   npm run bench:compare -- <git-ref> [--rounds N] [--filter text]... [--batch-ms ms] [--keep]
//   node benchmark/compare/index.js --self-test
//
// Both sides are built in temporary directories, so the working tree's own
// build/ is left alone: <ref> from `git archive` (read-only on the repo), the
// working tree from a copy of src/, lib/, binding.gyp and package.json. Each
// gets a symlink to this checkout's node_modules (nothing to install: no
// network) and is compiled by node-gyp with --nodedir pointing at the running
// Node's headers when scripts/build.js finds them, as the install step does.
//
// Then, for each round and each benchmark, one fresh child process per side,
// A (the ref) then B (the working tree), each giving one ns/op sample (see
// child.js). Per benchmark, the rates (1/ns) of the two sides are compared by
// Welch's t-test: improvement is mean(B) / mean(A) - 1 (positive: the working
// tree is faster), the stars say p < 0.05, 0.01, 0.001, and accuracy is the
// half-width of the difference's 95, 99 and 99.9 % confidence intervals,
// relative to mean(A).

const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const util = require('util');
const { BENCHMARKS } = require('./child');
const stats = require('./stats');

const root = path.join(__dirname, '..', '..');
const CHILD = path.join(__dirname, 'child.js');

function usage(msg) {
  console.error(`${msg}\nusage: npm run bench:compare -- <git-ref> [--rounds N] [--filter text]... ` +
    `[--batch-ms ms] [--keep]\n       node benchmark/compare/index.js --self-test\n` +
    `benchmarks:\n  ${Object.keys(BENCHMARKS).join('\n  ')}`);
  process.exit(2);
}

function parseArgs(argv) {
  let parsed;
  try {
    parsed = util.parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        rounds: { type: 'string' }, filter: { type: 'string', multiple: true },
        'batch-ms': { type: 'string' }, keep: { type: 'boolean' },
      },
    });
  } catch (err) {
    usage(err.message);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) usage(`unexpected argument ${positionals[1]}`);
  const opts = {
    ref: positionals[0] || null,
    rounds: values.rounds === undefined ? 10 : Number(values.rounds),
    filters: values.filter || [],
    batchMs: values['batch-ms'] === undefined ? 2 : Number(values['batch-ms']),
    keep: Boolean(values.keep),
  };
  if (!opts.ref) usage('missing <git-ref>');
  // Welch's test needs a variance on each side: at least 2 samples.
  if (!(Number.isInteger(opts.rounds) && opts.rounds >= 2)) usage('--rounds needs an integer >= 2');
  if (!(opts.batchMs > 0)) usage('--batch-ms needs a positive number');
  opts.names = Object.keys(BENCHMARKS).filter((n) => !opts.filters.length || opts.filters.some((f) => n.includes(f)));
  if (!opts.names.length) usage(`no benchmark matches ${opts.filters.join(', ')}`);
  return opts;
}

const git = (...args) => spawnSync('git', ['-C', root, ...args], { encoding: 'utf8' });

// ---- the two trees ------------------------------------------------------------
function resolveRef(ref) {
  const rev = git('rev-parse', '--verify', '--quiet', `${ref}^{commit}`);
  if (rev.status !== 0) usage(`not a commit: ${ref}`);
  return rev.stdout.trim();
}

function prepareRef(commit, dir) {
  const tar = `${dir}.tar`;
  fs.mkdirSync(dir);
  const steps = [['git', ['-C', root, 'archive', '--format=tar', '-o', tar, commit]], ['tar', ['-xf', tar, '-C', dir]]];
  for (const [cmd, args] of steps) {
    const r = spawnSync(cmd, args, { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed`);
  }
  fs.rmSync(tar);
  fs.rmSync(path.join(dir, 'build'), { recursive: true, force: true }); // never a committed binary
  fs.rmSync(path.join(dir, 'prebuilds'), { recursive: true, force: true });
}

function prepareWorkingTree(dir) {
  fs.mkdirSync(dir);
  for (const f of ['src', 'lib', 'binding.gyp', 'package.json']) {
    fs.cpSync(path.join(root, f), path.join(dir, f), { recursive: true });
  }
}

// node-gyp in `dir`; resolves to null on success, else to the tail of its log.
function build(dir) {
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const args = [require.resolve('node-gyp/bin/node-gyp.js', { paths: [root] }), 'rebuild'];
  const nodedir = require(path.join(root, 'scripts', 'build.js')).localNodeDir();
  if (nodedir) args.push(`--nodedir=${nodedir}`);
  return new Promise((resolve) => {
    const p = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    p.stdout.on('data', (d) => { log += d; });
    p.stderr.on('data', (d) => { log += d; });
    p.on('close', (code) => resolve(code === 0 ? null : log.split('\n').slice(-30).join('\n')));
  });
}

// ---- sampling -----------------------------------------------------------------
function sample(side, name, batchMs) {
  const r = spawnSync(process.execPath, [CHILD, side.dir, name, String(batchMs)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 120e3 });
  if (r.status !== 0) throw new Error(`${side.label}: ${name} failed (exit ${r.status ?? r.signal})`);
  const { ns, binary, missing } = JSON.parse(r.stdout);
  if (missing) return null;
  // Guard against timing the same binary twice (say, a prebuild picked up).
  if (!binary || !binary.startsWith(side.dir + path.sep)) {
    throw new Error(`${side.label} loaded ${binary}, not a binary built in ${side.dir}`);
  }
  return ns;
}

// ---- report -------------------------------------------------------------------
// Rows as compare.R prints its data frame: names left-aligned, then each
// column right-aligned under its header, one space apart.
function report(names, samples) {
  const ALPHAS = [0.05, 0.01, 0.001];
  const rows = names.map((name) => {
    const rate = (xs) => xs.map((ns) => 1e9 / ns);
    const a = rate(samples[name].A), b = rate(samples[name].B);
    const w = stats.welch(a, b);
    const stars = ALPHAS.filter((alpha) => w.p < alpha).length;
    return [name, '*'.repeat(stars), `${((w.mb / w.ma - 1) * 100).toFixed(2)} %`,
      ...ALPHAS.map((alpha) => `±${((w.halfWidth(alpha) / w.ma) * 100).toFixed(2)}%`)];
  });
  const heads = ['', 'confidence', 'improvement', 'accuracy (*)', '(**)', '(***)'];
  const widths = heads.map((h, j) => Math.max(h.length, ...rows.map((r) => r[j].length)));
  const line = (cells) => cells.map((c, j) => (j ? c.padStart(widths[j]) : c.padEnd(widths[j]))).join(' ');
  console.log(line(heads));
  for (const r of rows) console.log(line(r));

  const n = names.length;
  console.log(`
Be aware that when doing many comparisons the risk of a false-positive
result increases. In this case, there are ${n} comparisons, you can thus
expect the following amount of false-positive results:
  ${(n * 0.05).toFixed(2)} false positives, when considering a   5% risk acceptance (*, **, ***),
  ${(n * 0.01).toFixed(2)} false positives, when considering a   1% risk acceptance (**, ***),
  ${(n * 0.001).toFixed(2)} false positives, when considering a 0.1% risk acceptance (***)`);
}

// ---- main ---------------------------------------------------------------------
async function main(argv) {
  // The statistics are hand-written: check them against known values first.
  const failures = stats.selfTest();
  if (argv[0] === '--self-test' || failures.length) {
    console.log(failures.length ? `t-distribution self-test FAILED:\n  ${failures.join('\n  ')}`
      : 't-distribution self-test: all known values match to 1e-9');
    return failures.length ? 1 : 0;
  }
  const opts = parseArgs(argv);
  const commit = resolveRef(opts.ref);
  const started = Date.now();
  const secs = () => ((Date.now() - started) / 1000).toFixed(1);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-compare-'));
  try {
    const A = { label: opts.ref, dir: path.join(tmp, 'a') };
    const B = { label: 'working tree', dir: path.join(tmp, 'b') };
    prepareRef(commit, A.dir);
    prepareWorkingTree(B.dir);
    const head = git('rev-parse', '--short', 'HEAD').stdout.trim();
    console.error(`building A = ${opts.ref} (${commit.slice(0, 12)}) and B = working tree (HEAD ${head} + changes) in ${tmp}`);
    // Two builds at once: node-gyp compiles one file at a time.
    const logs = await Promise.all([build(A.dir), build(B.dir)]);
    for (const [side, log] of [[A, logs[0]], [B, logs[1]]]) {
      if (log !== null) { console.error(`build of ${side.label} failed:\n${log}`); return 1; }
    }
    console.error(`built in ${secs()} s; ${opts.rounds} rounds x ${opts.names.length} benchmarks x 2 sides`);

    const samples = Object.fromEntries(opts.names.map((n) => [n, { A: [], B: [] }]));
    const missing = new Set(); // benchmarks a side has no function for
    for (let r = 0; r < opts.rounds; r++) {
      for (const name of opts.names) {
        if (missing.has(name)) continue;
        const a = sample(A, name, opts.batchMs), b = a === null ? null : sample(B, name, opts.batchMs);
        if (a === null || b === null) { missing.add(name); continue; }
        samples[name].A.push(a);
        samples[name].B.push(b);
      }
      console.error(`round ${r + 1}/${opts.rounds} done at ${secs()} s`);
    }

    console.log(`\nA = ${opts.ref} (${commit.slice(0, 12)}), B = working tree; Node ${process.version}; ` +
      `${opts.rounds} rounds; improvement = B's ops/s vs A's (positive: B faster)\n`);
    report(opts.names.filter((n) => !missing.has(n)), samples);
    if (missing.size) console.log(`\nnot compared (no such function on one side): ${[...missing].join(', ')}`);
    console.log(`\ndone in ${secs()} s`);
    return 0;
  } finally {
    if (opts.keep) console.error(`kept ${tmp}`);
    else fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err) => {
  console.error(err.stack || err);
  process.exitCode = 1;
});
