'use strict';
// Tests that can crash the process (a signal from the addon, an abort in
// Node), or that need a process of their own (--expose-gc, RSS, the
// environment), run their cases in a child: the test file itself, run by
// node with a case name. A crash then fails one test with its signal
// instead of ending mocha.
//
// The test file ends with
//   childEntry(module, main, defineTests);
// Loaded by mocha, that calls defineTests(); run as a child, it calls
// main(args) (args: the strings after the file name) and prints what main
// returns, if anything, as one `RESULT <json>` line. The mocha side runs
// the child with childResult(__filename, args) (that value) or
// childOutput(__filename, args) (its stdout), which fail the test when the
// child is killed, times out or exits with a status other than 0; or with
// spawnChild (spawnSync's result, nothing asserted) to judge a crash itself.
const assert = require('assert');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

const MARK = 'RESULT ';
const tail = (text, n = 4000) => String(text || '').slice(-n);

// Runs `file` in a new node process. Options: args given to node before the
// file (`flags`, default --expose-gc), timeout (ms, default 120000, then
// SIGKILL), env (added to this process's), cwd, maxBuffer. Returns
// spawnSync's result with `ms`, the time it took.
function spawnChild(file, args = [], options = {}) {
  const { flags = ['--expose-gc'], timeout = 120000, env, cwd, maxBuffer = 64 << 20 } = options;
  const started = Date.now();
  const res = spawnSync(process.execPath, [...flags, file, ...args.map(String)], {
    encoding: 'utf8', maxBuffer, timeout, killSignal: 'SIGKILL', cwd,
    env: env === undefined ? process.env : { ...process.env, ...env },
  });
  res.ms = Date.now() - started;
  return res;
}

// spawnChild, asserting that the child ended by itself with status 0.
// Returns its stdout.
function childOutput(file, args = [], options = {}) {
  const res = spawnChild(file, args, options);
  const where = `child "${[path.basename(file), ...args].join(' ')}" after ${res.ms} ms`;
  if (res.error) throw new Error(`${where}: ${res.error.message}\n${tail(res.stderr)}`);
  assert.strictEqual(res.signal, null, `${where} was killed by ${res.signal}\n${tail(res.stderr)}`);
  assert.strictEqual(res.status, 0, `${where} exited with ${res.status}\n${tail(res.stderr)}`);
  return res.stdout;
}

// The value the child's main returned (its last RESULT line), from a child
// run as childOutput runs it.
function childResult(file, args = [], options = {}) {
  const stdout = childOutput(file, args, options);
  return resultOf(stdout, `child "${[path.basename(file), ...args].join(' ')}"`);
}

// The value of the last RESULT line in `stdout`; fails when there is none.
function resultOf(stdout, where = 'child') {
  const line = String(stdout).split('\n').reverse().find((l) => l.startsWith(MARK));
  assert.ok(line, `${where} printed no result\n${tail(stdout)}`);
  return JSON.parse(line.slice(MARK.length));
}

// See the top of this file. With { exit: true } the child exits as soon as
// its result is written, rather than when nothing is left to run (a case
// may leave handles behind on purpose).
function childEntry(mod, main, defineTests, { exit = false } = {}) {
  if (require.main !== mod) {
    defineTests();
    return;
  }
  Promise.resolve().then(() => main(process.argv.slice(2))).then((result) => {
    const text = result === undefined ? '' : `\n${MARK}${JSON.stringify(result)}\n`;
    process.stdout.write(text, () => { if (exit) process.exit(0); });
  }, (err) => {
    process.stderr.write(`child error: ${err && err.stack ? err.stack : String(err)}\n`);
    process.exitCode = 1;
    if (exit) process.exit(1);
  });
}

// Defines one test per case of `cases` ({ what, src, status, stdout, skip }):
// `src` runs as `node -e` (this runtime) after `prelude`, and must end by
// itself within limitMs (a child still running then is killed and fails
// its test) with `status` and exactly `stdout`. For cases about sources
// that never end: a hang is a failure, not a stuck suite, and its message
// has what the child printed and where its threads were.
// Node's children run without V8's background threads (--single-threaded):
// Node's own exit can deadlock with one of them, a concurrent Maglev
// compile waiting for a garbage collection that the exiting main thread
// never makes (nodejs/node#54918, open; here the main thread in
// NodePlatform::Shutdown joining the V8Worker, parked in
// CollectionBarrier::AwaitCollectionBackground, in about 1 in 20 runs of
// the first endless case under Node 24 with the JavaScript implementation).
// That hang is Node's at any process.exit(); libuv's thread pool, where
// the addon hashes, still runs.
const CHILD_FLAGS = process.versions.bun || process.versions.deno ? [] : ['--single-threaded'];
function endsAtOnce(cases, prelude, limitMs) {
  for (const c of cases) {
    (c.skip ? it.skip : it)(`${c.what}: the process ends at once (child process)`, async function () {
      this.timeout(limitMs + 60000);
      const res = await runWithin([...CHILD_FLAGS, '-e', `${prelude}\n${c.src}`], limitMs);
      assert.ok(res.status !== null && !res.late, `${c.what}: still running after ${limitMs} ms\n` +
        `stdout: ${JSON.stringify(res.stdout)}\nstderr: ${tail(res.stderr)}\n${res.stacks}`);
      assert.strictEqual(res.status, c.status, res.stderr);
      assert.strictEqual(res.stdout, c.stdout, res.stderr);
    });
  }
}

// Runs this runtime with `args`; a child still running after limitMs has
// its native stacks taken (gdb, where the machine has it) and is killed.
// Resolves to { status (null when killed), late, stdout, stderr, stacks }:
// `late` when the limit passed first, since gdb's attach can interrupt a
// blocked system call and let the child end by itself while the stacks
// are taken.
function runWithin(args, limitMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = { stdout: '', stderr: '', stacks: '', late: false };
    child.stdout.setEncoding('utf8').on('data', (text) => { out.stdout += text; });
    child.stderr.setEncoding('utf8').on('data', (text) => { out.stderr += text; });
    const timer = setTimeout(() => {
      out.late = true;
      out.stacks = stacksOf(child.pid);
      child.kill('SIGKILL');
    }, limitMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ ...out, status });
    });
  });
}

function stacksOf(pid) {
  const res = spawnSync('gdb', ['-p', String(pid), '-batch', '-ex', 'thread apply all bt'],
    { encoding: 'utf8', timeout: 45000, killSignal: 'SIGKILL' });
  if (res.error) return `(no native stacks: ${res.error.message})`;
  return `native stacks (gdb):\n${tail(res.stdout, 30000)}`;
}

module.exports = { spawnChild, childOutput, childResult, resultOf, childEntry, endsAtOnce };
