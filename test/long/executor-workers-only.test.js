'use strict';
// @native-only: the addon loaded by workers alone, and unloaded (dlclose) by Node when the last of them ends
// The addon loaded only by worker_threads, never by the main thread: a
// worker loads it, hashes (hashStream of 16 MiB, hashAsync of 4 MiB,
// hashFile of an 8 MiB file, a createHash piped from a stream), and ends;
// Node then closes the addon (dlclose). API.md: "The addon may be loaded only by
// workers, loaded again after they end, and unloaded by Node: its threads
// never outlive the code they run." A thread of the addon still alive when
// its code is unmapped ends the process with SIGSEGV (or leaves it hung):
// that happens in only a fraction of runs, so each pattern runs in TEN
// child processes (two at a time, 60 s each), and one crash, hang or wrong
// digest among them fails the test.
//
// The child's main thread never requires fast-hash: this file never
// requires the package (not even on the mocha side), the workers load it
// from eval'd source, and the child checks at its end that no module of
// the package is in its require cache and that its process.dlopen was
// never called.

const path = require('path');
const ROOT = path.join(__dirname, '..', '..');
const MIB = 2 ** 20;
const CHILD_LIMIT_MS = 60000;
const RUNS = 10;
const KINDS = ['stream', 'async', 'file', 'pipe'];

// ---- the worker (eval'd source; workerData: { root, kinds, file }) ---------

const WORKER_SRC = `
const { parentPort, workerData } = require('worker_threads');
const { Readable } = require('stream');
const { pipeline } = require('stream/promises');
const f = require(workerData.root);
const MIB = ${MIB};
const jobs = {
  stream: () => f.hashStream('sha256', [Buffer.alloc(16 * MIB)]),
  async: () => f.hashAsync('sha256', Buffer.alloc(4 * MIB, 1)),
  file: () => f.hashFile('sha256', workerData.file),
  pipe: async () => {
    const h = f.createHash('sha256');
    const parts = [];
    const chunks = function* () { for (let i = 0; i < 16; i++) yield Buffer.alloc(MIB, i); };
    await pipeline(Readable.from(chunks()), h, async (s) => { for await (const c of s) parts.push(c); });
    return Buffer.concat(parts).toString('hex');
  },
};
(async () => {
  const digests = {};
  for (const kind of workerData.kinds) digests[kind] = await jobs[kind]();
  parentPort.postMessage({ implementation: f.implementation, digests });
})();
`;

// ---- the child process ------------------------------------------------------

// What each kind's digest must be, from node:crypto.
function expected(kind) {
  const crypto = require('crypto');
  const h = crypto.createHash('sha256');
  if (kind === 'stream') h.update(Buffer.alloc(16 * MIB));
  if (kind === 'async') h.update(Buffer.alloc(4 * MIB, 1));
  if (kind === 'file') h.update(fileBytes());
  if (kind === 'pipe') for (let i = 0; i < 16; i++) h.update(Buffer.alloc(MIB, i));
  return h.digest('hex');
}
const fileBytes = () => Buffer.alloc(8 * MIB, 7);

// Runs one worker doing `kinds` to its natural end. Resolves with what it
// reported and its exit code.
function runWorker(kinds, file) {
  const { Worker } = require('worker_threads');
  return new Promise((resolve, reject) => {
    const w = new Worker(WORKER_SRC, { eval: true, workerData: { root: ROOT, kinds, file } });
    let message = null;
    w.on('message', (m) => { message = m; });
    w.on('error', reject);
    w.on('exit', (code) => resolve({ code, message }));
  });
}

// The cases: 'one <kind>' (one worker doing one job kind), 'six' (six
// workers one after the other, each doing every kind), 'again' (two
// workers at once doing every kind; once both have ended, a third loads
// the addon again and does every kind).
async function main([pattern, kind]) {
  const fs = require('fs');
  const os = require('os');
  const dlopen = process.dlopen;
  let dlopened = 0;
  process.dlopen = function (...args) { dlopened++; return dlopen.apply(this, args); };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fh-workers-only-'));
  const file = path.join(dir, 'data');
  fs.writeFileSync(file, fileBytes());
  const runs = [];
  try {
    if (pattern === 'one') {
      runs.push(await runWorker([kind], file));
    } else if (pattern === 'six') {
      for (let i = 0; i < 6; i++) runs.push(await runWorker(KINDS, file));
    } else if (pattern === 'again') {
      runs.push(...await Promise.all([runWorker(KINDS, file), runWorker(KINDS, file)]));
      await new Promise((resolve) => setTimeout(resolve, 100));
      runs.push(await runWorker(KINDS, file));
    } else {
      throw new Error(`unknown pattern ${pattern}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const loadedHere = Object.keys(require.cache).filter((p) => p.startsWith(path.join(ROOT, 'lib')) ||
    p.endsWith('.node'));
  const want = {};
  for (const k of KINDS) want[k] = expected(k);
  return { runs, want, loadedHere, dlopened };
}

// ---- the mocha side -----------------------------------------------------------

function defineTests() {
  const assert = require('assert');
  const { spawn } = require('child_process');
  const { resultOf } = require('../child');

  // One child, asynchronously: { status, signal, stdout, stderr, ms, late }.
  function runChild(args) {
    return new Promise((resolve) => {
      const started = Date.now();
      const child = spawn(process.execPath, [__filename, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, FAST_HASH_IMPLEMENTATION: 'native' },
      });
      const out = { stdout: '', stderr: '', late: false };
      child.stdout.setEncoding('utf8').on('data', (t) => { out.stdout += t; });
      child.stderr.setEncoding('utf8').on('data', (t) => { out.stderr += t; });
      const timer = setTimeout(() => { out.late = true; child.kill('SIGKILL'); }, CHILD_LIMIT_MS);
      child.on('close', (status, signal) => {
        clearTimeout(timer);
        resolve({ ...out, status, signal, ms: Date.now() - started });
      });
    });
  }

  // RUNS children of `args`, two at a time; what went wrong in each.
  async function runMany(args, check) {
    const problems = [];
    let next = 0;
    const lane = async () => {
      while (next < RUNS) {
        const i = next++;
        const res = await runChild(args);
        const where = `run ${i + 1} (${res.ms} ms)`;
        let problem = null;
        if (res.late) problem = `hung: killed after ${CHILD_LIMIT_MS} ms`;
        else if (res.signal !== null) problem = `killed by ${res.signal}`;
        else if (res.status !== 0) problem = `exited with ${res.status}`;
        if (problem === null) {
          try {
            check(resultOf(res.stdout));
          } catch (err) {
            problem = err.message;
          }
        }
        if (problem !== null) problems.push(`${where}: ${problem}\n${res.stderr.slice(-600)}`);
      }
    };
    await Promise.all([lane(), lane()]);
    return problems;
  }

  function checkRuns(expectRuns, kinds) {
    return ({ runs, want, loadedHere, dlopened }) => {
      assert.deepStrictEqual(loadedHere, [], 'the main thread loaded the package');
      assert.strictEqual(dlopened, 0, 'the main thread called process.dlopen');
      assert.strictEqual(runs.length, expectRuns);
      for (const [i, r] of runs.entries()) {
        assert.strictEqual(r.code, 0, `worker ${i} exited with ${r.code}`);
        assert.ok(r.message, `worker ${i} reported nothing`);
        assert.strictEqual(r.message.implementation, 'native');
        for (const k of kinds) assert.strictEqual(r.message.digests[k], want[k], `worker ${i}: ${k} digest`);
      }
    };
  }

  const verdict = (problems) => assert.strictEqual(problems.length, 0,
    `${problems.length} of ${RUNS} child processes failed:\n${problems.join('\n')}`);

  describe('the addon loaded only by workers (never by the main thread)', function () {
    const budget = Math.ceil(RUNS / 2) * CHILD_LIMIT_MS + 30000;
    for (const kind of KINDS) {
      it(`one worker runs ${kind} and ends: ${RUNS} processes each end by themselves with status 0`, async function () {
        this.timeout(budget);
        verdict(await runMany(['one', kind], checkRuns(1, [kind])));
      });
    }

    it(`six workers one after the other, each running every job kind: ${RUNS} processes end cleanly`, async function () {
      this.timeout(budget);
      verdict(await runMany(['six'], checkRuns(6, KINDS)));
    });

    it(`loaded again by a new worker after every worker that had it ended: ${RUNS} processes end cleanly`, async function () {
      this.timeout(budget);
      verdict(await runMany(['again'], checkRuns(3, KINDS)));
    });
  });
}

require('../child').childEntry(module, main, defineTests);
