'use strict';
// Stream digests of sources that never end never delay process.exit(), the
// end of the process or worker.terminate(), and never hold the thread pool
// so that other work on it stops; many streams at once, and streams in
// workers, give the right digests. Each endless case runs in a child
// process with a time limit: a hang is a failure, not a stuck suite.
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { Readable } = require('stream');
const { Worker } = require('worker_threads');
const { hashStream, hmacStream, hash, hmac } = require('..');
const { bytes } = require('./common');
const { endsAtOnce } = require('./child');

const ROOT = path.join(__dirname, '..');
const LIMIT_MS = 20000;
const ZERO = '/dev/zero';

// What every child runs first: `f` the package, an endless Readable.
// ROOT is named in the child so that a worker's source, a template there,
// takes it as the child's own string (a path spliced in here would have its
// backslashes, on Windows, read a second time).
const PRELUDE = `const ROOT = ${JSON.stringify(ROOT)};
  const f = require(ROOT);
  const { Readable } = require('stream');
  const endless = () => new Readable({ read() { this.push(Buffer.alloc(65536, 1)); } });`;

const HAS_ZERO = fs.existsSync(ZERO);
const CASES = [
  {
    what: 'process.exit() during endless streams (an in-memory Readable, an async generator)',
    src: `f.hashStream('sha256', endless()); f.hmacStream('sha512', 'k', endless());
      f.hashStream('md5', (async function* () { for (;;) yield Buffer.alloc(100000); })());
      setTimeout(() => { console.log('exiting'); process.exit(7); }, 300);`,
    status: 7, stdout: 'exiting\n',
  },
  {
    what: `process.exit() during hashStream(fs.createReadStream('${ZERO}'))`, skip: !HAS_ZERO,
    src: `f.hashStream('sha256', require('fs').createReadStream('${ZERO}'));
      setTimeout(() => { console.log('exiting'); process.exit(3); }, 300);`,
    status: 3, stdout: 'exiting\n',
  },
  {
    what: 'timers run beside endless sync sources (a generator of Buffers, of empty strings)',
    src: `f.hashStream('sha256', (function* () { const b = Buffer.alloc(4096); for (;;) yield b; })());
      f.hashStream('sha1', (function* () { for (;;) yield ''; })());
      setTimeout(() => { console.log('exiting'); process.exit(5); }, 300);`,
    status: 5, stdout: 'exiting\n',
  },
  {
    what: 'timers run beside endless in-memory sources of empty chunks (Readable.from, ReadableStream)',
    src: `f.hashStream('sha256', Readable.from((function* () { for (;;) yield ''; })()));
      f.hashStream('sha256', new ReadableStream({ pull(c) { c.enqueue(new Uint8Array(0)); } }));
      setTimeout(() => { console.log('exiting'); process.exit(6); }, 300);`,
    status: 6, stdout: 'exiting\n',
  },
  {
    what: 'the process ends by itself when nothing but a stalled source is left',
    src: `f.hashStream('sha256', { [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => {}) }) })
        .then(() => console.log('settled'));
      f.hashStream('sha256', new Readable({ read() {} })).then(() => console.log('settled'));
      f.hashStream('sha256', new ReadableStream({ pull() { return new Promise(() => {}); } }));
      console.log('started');`,
    status: 0, stdout: 'started\n',
  },
  {
    what: 'fs.readFile and crypto.pbkdf2 while eight endless streams run, then process.exit()',
    src: `for (let i = 0; i < 8; i++) f.hashStream(i % 2 ? 'sha512' : 'sha256', endless());
      const t0 = Date.now();
      const seen = [];
      const done = (what) => {
        seen.push(String(what));
        if (seen.length < 2) return;
        console.log(seen.sort().join(' '));
        process.exit(Date.now() - t0 < 5000 ? 0 : 9);
      };
      setTimeout(() => {
        require('fs').readFile(${JSON.stringify(__filename)}, 'utf8', (err, text) => done(!err && text.includes('pbkdf2')));
        require('crypto').pbkdf2('p', 's', 1, 32, 'sha256', (err) => done(err ? err.code : 'pbkdf2'));
      }, 200);`,
    status: 0, stdout: 'pbkdf2 true\n',
  },
  {
    what: 'worker.terminate() during endless streams in the worker, then the pool is free',
    src: `const { Worker } = require('worker_threads');
      const w = new Worker(\`const f = require(\${JSON.stringify(ROOT)});
        const { Readable } = require('stream');
        for (let i = 0; i < 4; i++) f.hashStream('sha256', new Readable({ read() { this.push(Buffer.alloc(65536)); } }));
        f.hashStream('sha1', (function* () { for (;;) yield 'x'; })());
        require('worker_threads').parentPort.postMessage(0);\`, { eval: true });
      w.once('message', () => setTimeout(async () => {
        console.log('terminated', await w.terminate());
        console.log(await f.hashStream('sha256', ['abc']) === require('crypto').createHash('sha256').update('abc').digest('hex'));
      }, 300));`,
    status: 0, stdout: 'terminated 1\ntrue\n',
  },
  {
    what: 'process.exit() while the addon\'s threads are inside provider digests (sha3-512, blake2b512, shake256)',
    src: `for (const alg of ['sha3-512', 'blake2b512', 'shake256', 'sha3-256']) f.hashStream(alg, endless());
      setTimeout(() => { console.log('exiting'); process.exit(4); }, 300);`,
    status: 4, stdout: 'exiting\n',
  },
  {
    what: 'worker.terminate() three times while provider digests run in the worker',
    src: `const { Worker } = require('worker_threads');
      (async () => {
        for (let i = 0; i < 3; i++) {
          const w = new Worker(\`const f = require(\${JSON.stringify(ROOT)});
            const { Readable } = require('stream');
            for (const alg of ['sha3-512', 'blake2b512', 'sha512'])
              f.hashStream(alg, new Readable({ read() { this.push(Buffer.alloc(1 << 20)); } }));
            require('worker_threads').parentPort.postMessage(0);\`, { eval: true });
          await new Promise((resolve) => w.once('message', resolve));
          await new Promise((resolve) => setTimeout(resolve, 100));
          await w.terminate();
        }
        console.log('terminated');
      })();`,
    status: 0, stdout: 'terminated\n',
  },
  {
    what: 'a stream of many batches (each hashed right after the last) ends with the right digest',
    src: `const data = Buffer.alloc(24 << 20, 7);
      f.hashStream('sha256', [data.subarray(0, 1 << 20), data.subarray(1 << 20)]).then((got) => {
        console.log(got === require('crypto').createHash('sha256').update(data).digest('hex'));
      });`,
    status: 0, stdout: 'true\n',
  },
  {
    what: "hashStream while libuv's only pool thread is blocked (a FIFO opened with no writer)",
    skip: process.platform === 'win32',
    src: `process.env.UV_THREADPOOL_SIZE = '1';
      const fs = require('fs');
      const dir = fs.mkdtempSync(require('path').join(require('os').tmpdir(), 'fast-hash-fifo-'));
      const fifo = require('path').join(dir, 'fifo');
      require('child_process').execFileSync('mkfifo', [fifo]);
      fs.open(fifo, 'r', (err, fd) => { if (!err) fs.closeSync(fd); fs.rmSync(dir, { recursive: true }); });
      setTimeout(() => f.hashStream('sha256', [Buffer.alloc(8 << 20, 1)]).then((got) => {
        console.log(got === require('crypto').createHash('sha256').update(Buffer.alloc(8 << 20, 1)).digest('hex'));
        fs.closeSync(fs.openSync(fifo, 'w'));
      }), 100);`,
    status: 0, stdout: 'true\n',
  },
];

describe('stream digests of sources that never end', function () {
  endsAtOnce(CASES, PRELUDE, LIMIT_MS);
});

describe('many stream digests at once, and in workers', function () {
  this.timeout(120000);

  it('16 streams at once, of every length and two algorithms, each right', async function () {
    const inputs = Array.from({ length: 16 }, (_, i) => bytes((i + 1) * 397 * 1024 + i, i + 1));
    const runs = inputs.map((data, i) => {
      const parts = [];
      for (let at = 0; at < data.length; at += 65536) parts.push(data.subarray(at, at + 65536));
      return i % 2 ? hmacStream('sha512', 'k', Readable.from(parts)) : hashStream('sha256', parts);
    });
    const got = await Promise.all(runs);
    got.forEach((digest, i) => {
      assert.strictEqual(digest, i % 2 ? hmac('sha512', 'k', inputs[i]) : hash('sha256', inputs[i]), `stream ${i}`);
    });
  });

  it('streams in four workers at once give the digests this thread gives', async function () {
    const src = `const { parentPort, workerData } = require('worker_threads');
      const f = require(${JSON.stringify(ROOT)});
      const { Readable } = require('stream');
      const data = Buffer.alloc(workerData * 1024 * 1024 + 5, workerData);
      const parts = [];
      for (let at = 0; at < data.length; at += 100000) parts.push(data.subarray(at, at + 100000));
      Promise.all([f.hashStream('sha256', Readable.from(parts)), f.hmacStream('sha1', 'k', parts)])
        .then((d) => parentPort.postMessage(d));`;
    const results = await Promise.all([1, 2, 3, 9].map((n) => new Promise((resolve, reject) => {
      const w = new Worker(src, { eval: true, workerData: n });
      w.once('message', (d) => resolve([n, d]));
      w.once('error', reject);
    })));
    for (const [n, [digest, mac]] of results) {
      const data = Buffer.alloc(n * 1024 * 1024 + 5, n);
      assert.strictEqual(digest, hash('sha256', data), `worker ${n}`);
      assert.strictEqual(mac, hmac('sha1', 'k', data), `worker ${n}`);
    }
  });
});
