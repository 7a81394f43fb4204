'use strict';
// hashFile() of a FIFO on both implementations (the addon's src/file.c, the
// JavaScript implementation's lib/binding/js/files.js): an abort of its
// signal rejects with an AbortError within 5 s whether the FIFO has no
// writer, an idle one, or one that wrote and idles, and the FIFO is closed
// by then; process.exit() and worker.terminate() end the process or the
// worker while hashFile waits on one; and the digest is still the bytes
// written, or the empty input's for a writer that opens and closes without
// writing. Every case runs in a child process with a time limit
// (test/child.js): a hang is a failure, not a stuck suite. Most cases also
// end without process.exit(): nothing of the job may be left to keep the
// child alive. The FIFOs are made with mkfifo, in a directory of the
// child's own.
const { endsAtOnce } = require('./child');
const { FIFO_WRITER } = require('./common');

const ROOT = require('path').join(__dirname, '..');
const LIMIT_MS = 20000;

// The FIFO writer of test/common.js (FIFO_WRITER), run in the child and its workers.
const WRITER = FIFO_WRITER;

// Also in the child: fifo() makes a FIFO; fds() counts this process's open
// files (Linux; elsewhere the count goes unchecked); ended(job, controller, ms, fdsThen) aborts
// after ms and prints how the job ended: the error's name and code,
// whether its cause is the signal's reason, whether it came within 5 s,
// and whether the open files then number fdsThen.
const PRELUDE = `const f = require(${JSON.stringify(ROOT)});
  const path = require('path');
  const { Worker } = require('worker_threads');
  const { execFileSync, spawn } = require('child_process');
  ${WRITER}
  const dir = fs.mkdtempSync(path.join(require('os').tmpdir(), 'fast-hash-fifo-abort-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  let made = 0;
  const fifo = () => {
    const p = path.join(dir, 'fifo-' + made++);
    execFileSync('mkfifo', [p]);
    return p;
  };
  const fds = () => (fs.existsSync('/proc/self/fd') ? fs.readdirSync('/proc/self/fd').length : 0);
  const within = (job, ms) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('not settled within ' + ms + ' ms')), ms);
    timer.unref();
    job.then(resolve, reject).finally(() => clearTimeout(timer));
  });
  async function ended(job, controller, ms, fdsThen) {
    await sleep(ms);
    const t = Date.now();
    controller.abort();
    try {
      console.log('resolved', await within(job, 5000));
    } catch (err) {
      console.log(err.name, err.code, err.cause === controller.signal.reason, Date.now() - t < 5000,
        fdsThen === undefined || !fs.existsSync('/proc/self/fd') || fds() === fdsThen);
    }
  }
  const want = (alg, ...pieces) => require('crypto').createHash(alg).update(Buffer.concat(pieces)).digest('hex');
  const worker = (src, workerData) => new Worker(\`const f = require(${JSON.stringify(ROOT)});
    const { workerData, parentPort } = require('worker_threads');
    ${WRITER.replace(/[`\\$]/g, '\\$&')}
    \${src}\`, { eval: true, workerData });`;

const ABORTED = 'AbortError ABORT_ERR true true true\n';

// Deno's hashFile waits for a FIFO's writer in a plain open, which an abort
// ends by opening the FIFO for writing itself (lib/binding/js/files.js,
// openWaiting): other readers waiting on it then see a writer that came
// and left, and end.
const DENO = typeof globalThis.Deno === 'object';

const ABORTS = [
  {
    what: 'an abort while hashFile waits on a FIFO with no writer: an AbortError, the FIFO closed',
    src: `const p = fifo(); const before = fds(); const c = new AbortController();
      ended(f.hashFile('sha256', p, { signal: c.signal }), c, 50, before);`,
    status: 0, stdout: ABORTED,
  },
  {
    what: 'an abort of one of two hashFile calls on a FIFO with no writer, then the other\'s: both AbortErrors',
    src: `const p = fifo(); const before = fds(); const a = new AbortController(); const b = new AbortController();
      const second = f.hashFile('md5', p, { signal: b.signal });
      ended(f.hashFile('sha256', p, { signal: a.signal }), a, 50).then(() => ended(second, b, 50, before));`,
    status: 0, stdout: ABORTED + ABORTED, skip: DENO,
  },
  {
    what: 'an abort while hashFile waits on a FIFO whose writer is idle: an AbortError, the FIFO closed',
    src: `const p = fifo(); const before = fds(); const c = new AbortController();
      const job = f.hashFile('sha3-256', p, { signal: c.signal });
      writer(p).then(async (w) => { await ended(job, c, 50, before + 1); fs.closeSync(w); });`,
    status: 0, stdout: ABORTED,
  },
  {
    what: 'an abort while hashFile waits on a FIFO whose writer wrote and is idle: an AbortError, the FIFO closed',
    src: `const p = fifo(); const before = fds(); const c = new AbortController();
      const job = f.hashFile('sha512', p, { signal: c.signal });
      writer(p).then(async (w) => {
        fs.writeSync(w, Buffer.alloc(5000, 1));
        await ended(job, c, 100, before + 1);
        fs.closeSync(w);
      });`,
    status: 0, stdout: ABORTED,
  },
  {
    what: 'an abort while hashFile reads a FIFO fed endlessly by another process: an AbortError',
    src: `const p = fifo(); const c = new AbortController();
      const job = f.hashFile('sha3-512', p, { signal: c.signal });
      spawn('sh', ['-c', 'exec cat /dev/zero > "$0"', p], { stdio: 'ignore' });
      ended(job, c, 300);`,
    status: 0, stdout: ABORTED,
  },
];

const ENDS = [
  {
    what: 'process.exit() while hashFile with a signal waits on a FIFO with no writer',
    src: `const p = fifo(); f.hashFile('sha256', p, { signal: new AbortController().signal }); f.hashFile('md5', p);
      setTimeout(() => { console.log('exiting'); process.exit(7); }, 300);`,
    status: 7, stdout: 'exiting\n',
  },
  {
    what: 'process.exit() right after an abort of hashFile on a FIFO with no writer',
    src: `const p = fifo(); const c = new AbortController(); f.hashFile('sha256', p, { signal: c.signal }).catch(() => {});
      setTimeout(() => { c.abort(); console.log('exiting'); process.exit(7); }, 300);`,
    status: 7, stdout: 'exiting\n',
  },
  {
    what: 'process.exit() while hashFile waits on a FIFO whose writer is idle',
    src: `const p = fifo(); f.hashFile('sha256', p, { signal: new AbortController().signal });
      writer(p).then(() => setTimeout(() => { console.log('exiting'); process.exit(7); }, 300));`,
    status: 7, stdout: 'exiting\n',
  },
  {
    what: 'worker.terminate() while the worker\'s hashFile calls wait on a FIFO with no writer, then the process ends by itself',
    src: `const w = worker(\`f.hashFile('sha256', workerData); f.hashFile('sha1', workerData, { signal: new AbortController().signal });
        parentPort.postMessage(0);\`, fifo());
      w.once('message', () => setTimeout(() => w.terminate().then(() => console.log('terminated')), 300));`,
    status: 0, stdout: 'terminated\n',
  },
  {
    what: 'worker.terminate() while the worker\'s hashFile waits on a FIFO whose writer (the worker) is idle, then the process ends by itself',
    src: `const w = worker(\`f.hashFile('sha256', workerData, { signal: new AbortController().signal });
        writer(workerData).then(() => parentPort.postMessage(0));\`, fifo());
      w.once('message', () => setTimeout(() => w.terminate().then(() => console.log('terminated')), 300));`,
    status: 0, stdout: 'terminated\n',
  },
];

// A FIFO whose writer comes after the digest has begun: the digest of what
// it wrote, as for a file, with a signal that is never aborted or none.
const DIGESTS = [
  {
    what: 'a writer that comes late, writes with pauses and closes: node:crypto\'s digest, with a signal and without',
    src: `const pieces = [require('crypto').randomBytes(100000), Buffer.from('x'), require('crypto').randomBytes(3 << 20)];
      const late = async (p) => {
        await sleep(150);
        const w = await writer(p);
        for (const piece of pieces) { await sleep(100); await writeAll(w, piece); }
        fs.closeSync(w);
      };
      const p = fifo(); const q = fifo();
      Promise.all([f.hashFile('sha256', p, { signal: new AbortController().signal }), f.hashFile('sha1', q), late(p), late(q)])
        .then(([a, b]) => console.log(a === want('sha256', ...pieces), b === want('sha1', ...pieces)));`,
    status: 0, stdout: 'true true\n',
  },
  {
    what: 'a writer that comes late and closes without writing: the empty input\'s digest, with a signal and without',
    src: `const late = async (p) => { await sleep(300); fs.closeSync(await writer(p)); };
      const p = fifo(); const q = fifo();
      Promise.all([f.hashFile('md5', p, { signal: new AbortController().signal }), f.hashFile('sha256', q), late(p), late(q)])
        .then(([a, b]) => console.log(a === want('md5'), b === want('sha256')));`,
    status: 0, stdout: 'true true\n',
  },
  {
    what: 'a writer (another process) already waiting, that writes and closes: node:crypto\'s digest',
    src: `const p = fifo();
      spawn('sh', ['-c', 'printf hello > "$0"', p], { stdio: 'ignore' });
      setTimeout(() => f.hashFile('sha256', p, { signal: new AbortController().signal })
        .then((got) => console.log(got === want('sha256', Buffer.from('hello')))), 200);`,
    status: 0, stdout: 'true\n',
  },
  {
    what: 'a writer (another process) already waiting, that closes without writing: the empty input\'s digest',
    src: `const p = fifo();
      spawn('sh', ['-c', ': > "$0"', p], { stdio: 'ignore' });
      setTimeout(() => f.hashFile('sha256', p).then((got) => console.log(got === want('sha256'))), 200);`,
    status: 0, stdout: 'true\n',
  },
];

(process.platform === 'win32' ? describe.skip : describe)('hashFile() of a FIFO: aborts, exits and ends', function () {
  endsAtOnce(ABORTS, PRELUDE, LIMIT_MS);
  endsAtOnce(ENDS, PRELUDE, LIMIT_MS);
  endsAtOnce(DIGESTS, PRELUDE, LIMIT_MS);
});
