'use strict';
// Teardown while every kind of job runs at once: process.exit() and
// worker.terminate() (and a worker's own process.exit()) in the middle of
// a hashStream of an endless source of 4 MiB in-memory chunks, hashAsync
// and hmacAsync of 48 MiB, hashFile of a 64 MiB file and a createHash fed
// by an endless Readable through pipe(). API.md: "A running file or stream
// digest never delays process.exit(), the end of the process, or
// worker.terminate(), even on a source that never ends." Also workers
// that end while their jobs are still queued, without awaiting them.
// The worker cases run twice: with the main thread having loaded the
// package too, and with only workers loading it (Node then unloads the
// addon when the last of them ends, and a new worker loads it again for
// the final check).
//
// Every case runs in a child process (this file, run with a case name)
// with a time limit: the child must end by itself, with status 0 and no
// signal. A crash fails its test naming the signal, a hang is killed at
// the limit. Nothing is timed: the limits are minutes where the work
// needs seconds.

const path = require('path');
const ROOT = path.join(__dirname, '..', '..');
const MIB = 2 ** 20;
const CYCLES = 20;
const EXITS = 5;
const CHILD_LIMIT_MS = 120000;
const FILE_BYTES = 64 * MIB;
const BIG = 48 * MIB;
// Jobs of each finite kind that a 'queue' worker leaves behind.
const QUEUED = 2;

// Starts every job kind at once in `f` (the package), in this thread;
// `file`: a path of FILE_BYTES bytes. Returns { started, all }: `started`
// resolves once both endless sources have given a few chunks, so every job
// has reached the pool; `all` would settle when every job does (the
// endless ones never end). Source text: it runs in workers too.
const START_JOBS = `function startJobs(f, file) {
  const { Readable } = require('stream');
  const MIB = ${MIB};
  let streamed = 0;
  let piped = 0;
  let going;
  const started = new Promise((resolve) => { going = resolve; });
  const check = () => { if (streamed >= 3 && piped >= 3) going(); };
  const chunk = Buffer.alloc(4 * MIB, 1);
  const source = async function* () { for (;;) { streamed++; check(); yield chunk; } };
  const big = Buffer.alloc(${BIG}, 2);
  const h = f.createHash('sha256');
  const readable = new Readable({ read() { piped++; check(); this.push(Buffer.alloc(MIB, 3)); } });
  readable.pipe(h);
  const all = Promise.all([
    f.hashStream('sha512', source()),
    f.hashAsync('sha256', big),
    f.hmacAsync('sha256', 'key', big),
    f.hashFile('sha256', file),
  ]);
  all.catch(() => {});
  return { started, all };
}`;

const startJobs = new Function('require', `${START_JOBS}; return startJobs;`)(require);

// Right digests from `f` after the teardowns, on the pool and off it.
// Source text: it runs in workers too.
const STILL_WORKS = `async function stillWorks(f) {
  const crypto = require('crypto');
  const buf = crypto.randomBytes(${8 * MIB});
  const want = crypto.createHash('sha256').update(buf).digest('hex');
  const got = [await f.hashAsync('sha256', buf), await f.hashStream('sha256', [buf]), f.hash('sha256', buf)];
  return got.every((d) => d === want);
}`;
const stillWorks = new Function('require', `${STILL_WORKS}; return stillWorks;`)(require);

// workerData: { root, file, mode }. mode 'run': start the jobs, say
// 'running', wait (to be terminated); 'exit': start them and call
// process.exit(0) once they run; 'queue': start QUEUED jobs of each finite
// kind, await nothing, and let the script end (each digest is posted when
// it comes); 'check': post { implementation, works } (stillWorks).
const WORKER_SRC = `
const QUEUED = ${QUEUED};
const { parentPort, workerData } = require('worker_threads');
const f = require(workerData.root);
${START_JOBS}
${STILL_WORKS}
if (workerData.mode === 'queue') {
  const big = Buffer.alloc(${BIG}, 2);
  for (let i = 0; i < QUEUED; i++) {
    f.hashAsync('sha256', big).then((d) => parentPort.postMessage({ kind: 'hashAsync', d }));
    f.hmacAsync('sha256', 'key', big).then((d) => parentPort.postMessage({ kind: 'hmacAsync', d }));
    f.hashFile('sha256', workerData.file).then((d) => parentPort.postMessage({ kind: 'hashFile', d }));
    f.hashStream('sha256', [big, big]).then((d) => parentPort.postMessage({ kind: 'hashStream', d }));
  }
} else if (workerData.mode === 'check') {
  stillWorks(f).then((works) => parentPort.postMessage({ implementation: f.implementation, works }));
} else {
  const { started } = startJobs(f, workerData.file);
  started.then(() => {
    if (workerData.mode === 'exit') process.exit(0);
    parentPort.postMessage('running');
  });
}
`;

// ---- the child process ------------------------------------------------------

function makeFile() {
  const fs = require('fs');
  const os = require('os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fh-teardown-'));
  const file = path.join(dir, 'data');
  const part = Buffer.alloc(MIB, 5);
  const fd = fs.openSync(file, 'w');
  for (let i = 0; i < FILE_BYTES / MIB; i++) fs.writeSync(fd, part);
  fs.closeSync(fd);
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return file;
}

function worker(mode, file) {
  const { Worker } = require('worker_threads');
  return new Worker(WORKER_SRC, { eval: true, workerData: { root: ROOT, file, mode } });
}

// The package on the main thread where `scope` is 'main-too'; where it is
// 'workers-only' the main thread never loads it (only workers do, and Node
// unloads the addon when the last of them ends).
const load = (scope) => (scope === 'main-too' ? require(ROOT) : null);

// The end of a case: a new worker loads the package and checks its
// digests, and so does the main thread where it has loaded it.
async function finish(f, more) {
  const w = worker('check');
  const checked = await new Promise((resolve, reject) => {
    let m = null;
    w.on('message', (msg) => { m = msg; });
    w.on('error', reject);
    w.on('exit', () => resolve(m));
  });
  const works = checked !== null && checked.works && (f === null || await stillWorks(f));
  return { implementation: checked && checked.implementation, works, ...more };
}

const CASES = {
  // CYCLES workers, one after the other, each terminated while every job
  // kind runs in it.
  async terminate([scope]) {
    const f = load(scope);
    const file = makeFile();
    let terminated = 0;
    for (let i = 0; i < CYCLES; i++) {
      const w = worker('run', file);
      let exitCode;
      const exited = new Promise((resolve) => w.on('exit', (code) => { exitCode = code; resolve(); }));
      const errors = [];
      w.on('error', (err) => errors.push(String(err)));
      await new Promise((resolve) => w.once('message', resolve));
      await new Promise((resolve) => setTimeout(resolve, i % 4)); // 0 to 3 ms more
      await w.terminate();
      await exited;
      if (errors.length !== 0) throw new Error(`worker ${i}: ${errors.join('; ')}`);
      if (exitCode === 1) terminated++; // terminate() makes it 1
    }
    return finish(f, { terminated });
  },

  // Workers, one after the other, that process.exit(0) themselves while
  // every job kind runs.
  async 'worker-exit'([scope]) {
    const f = load(scope);
    const file = makeFile();
    const codes = [];
    for (let i = 0; i < 8; i++) {
      const w = worker('exit', file);
      codes.push(await new Promise((resolve, reject) => { w.on('exit', resolve); w.on('error', reject); }));
    }
    return finish(f, { codes });
  },

  // Four workers at once that queue jobs and end without awaiting them:
  // every job's digest still comes back, and each worker ends by itself
  // with code 0.
  async queue([scope]) {
    const crypto = require('crypto');
    const f = load(scope);
    const file = makeFile();
    const want = {
      hashAsync: crypto.createHash('sha256').update(Buffer.alloc(BIG, 2)).digest('hex'),
      hmacAsync: crypto.createHmac('sha256', 'key').update(Buffer.alloc(BIG, 2)).digest('hex'),
      hashFile: crypto.createHash('sha256').update(Buffer.alloc(FILE_BYTES, 5)).digest('hex'),
      hashStream: crypto.createHash('sha256').update(Buffer.alloc(BIG, 2)).update(Buffer.alloc(BIG, 2)).digest('hex'),
    };
    const runs = await Promise.all([0, 1, 2, 3].map(() => new Promise((resolve, reject) => {
      const w = worker('queue', file);
      const got = [];
      w.on('message', (m) => got.push(m.d === want[m.kind] ? m.kind : `wrong ${m.kind}`));
      w.on('error', reject);
      w.on('exit', (code) => resolve({ code, got: got.sort() }));
    })));
    return finish(f, { runs });
  },

  // process.exit(0) on the main thread while every job kind runs there
  // ('main'), or in two workers (scope 'main-too' or 'workers-only').
  async exit([where]) {
    const fs = require('fs');
    const file = makeFile();
    let implementation;
    if (where === 'main') {
      const f = require(ROOT);
      implementation = f.implementation;
      await startJobs(f, file).started;
    } else {
      implementation = load(where) === null ? 'workers' : require(ROOT).implementation;
      const ws = [worker('run', file), worker('run', file)];
      await Promise.all(ws.map((w) => new Promise((resolve) => w.once('message', resolve))));
    }
    fs.writeSync(1, `exiting ${implementation}\n`);
    process.exit(0);
  },
};

function main([name, ...args]) {
  return CASES[name](args);
}

// ---- the mocha side -----------------------------------------------------------

function defineTests() {
  const assert = require('assert');
  const { spawnChild, childResult } = require('../child');
  const IMPL = require(ROOT).implementation; // what this runtime picks (Node 18, Bun and Deno: js)

  function child(name, scope) {
    const started = Date.now();
    const r = childResult(__filename, [name, scope], { timeout: CHILD_LIMIT_MS, flags: [] });
    console.log(`      [${name} ${scope}] ${Date.now() - started} ms`);
    assert.strictEqual(r.implementation, IMPL);
    assert.strictEqual(r.works, true, 'wrong digests afterwards (from a new worker, or the main thread)');
    return r;
  }

  // Where the workers-only cases end in Node's unloading the addon.
  const SCOPES = {
    'main-too': 'the main thread has loaded the package too',
    'workers-only': 'only workers load the package',
  };

  describe('executor teardown while every job kind runs', function () {
    for (const [scope, what] of Object.entries(SCOPES)) {
      describe(what, function () {
        it(`worker.terminate() while every job kind runs in the worker, ${CYCLES} workers one after the other: ` +
          'the child ends by itself with status 0', function () {
          this.timeout(CHILD_LIMIT_MS + 30000);
          const r = child('terminate', scope);
          assert.strictEqual(r.terminated, CYCLES, `only ${r.terminated} of ${CYCLES} workers were cut off by terminate()`);
        });

        it('process.exit(0) in workers while every job kind runs in them: each worker ends with code 0', function () {
          this.timeout(CHILD_LIMIT_MS + 30000);
          const r = child('worker-exit', scope);
          assert.deepStrictEqual(r.codes, Array(8).fill(0));
        });

        it('workers that end without awaiting their queued jobs end by themselves, and every digest comes back right', function () {
          this.timeout(CHILD_LIMIT_MS + 30000);
          const r = child('queue', scope);
          const all = ['hashAsync', 'hmacAsync', 'hashFile', 'hashStream'].flatMap((k) => Array(QUEUED).fill(k)).sort();
          for (const [i, run] of r.runs.entries()) {
            assert.strictEqual(run.code, 0, `worker ${i} exited with ${run.code}`);
            assert.deepStrictEqual(run.got, all, `worker ${i}`);
          }
        });
      });
    }

    const EXIT_CASES = {
      main: ['on the main thread', IMPL],
      'main-too': ['in two workers, the main thread having loaded the package too', IMPL],
      'workers-only': ['in two workers, the only threads that load the package', 'workers'],
    };
    for (const [where, [what, printed]] of Object.entries(EXIT_CASES)) {
      it(`process.exit(0) while every job kind runs ${what}, ${EXITS} child processes: ` +
        'each ends by itself with status 0', async function () {
        this.timeout(EXITS * CHILD_LIMIT_MS + 30000);
        const problems = [];
        for (let i = 0; i < EXITS; i++) {
          const res = spawnChild(__filename, ['exit', where], { timeout: CHILD_LIMIT_MS, flags: [] });
          let problem = null;
          if (res.error && res.error.code === 'ETIMEDOUT') problem = `hung: killed after ${CHILD_LIMIT_MS} ms`;
          else if (res.signal !== null) problem = `killed by ${res.signal}`;
          else if (res.status !== 0) problem = `exited with ${res.status}`;
          else if (res.stdout !== `exiting ${printed}\n`) problem = `printed ${JSON.stringify(res.stdout)}`;
          if (problem !== null) problems.push(`run ${i + 1} (${res.ms} ms): ${problem}\n${String(res.stderr).slice(-600)}`);
        }
        assert.strictEqual(problems.length, 0, `${problems.length} of ${EXITS} child processes failed:\n${problems.join('\n')}`);
      });
    }
  });
}

require('../child').childEntry(module, main, defineTests);
