'use strict';
// @native-only: the addon's FIFO reads, stopped between slices (src/file.c); on the JS implementation the cases fail at their time limits
// hashFile and hashFileSync of FIFOs: one whose writer is not yet there, one
// whose writer is there and idle, and one fed endlessly in small writes (so
// that every read comes short) never delay process.exit() or
// worker.terminate(), and never hold the thread pool so that other work
// stops; a FIFO whose writer comes later, writes and closes gives
// node:crypto's digest of what it wrote, as `sha256sum fifo` does. Every
// case runs in a child process with a time limit (test/child.js): a hang is
// a failure, not a stuck suite. The FIFOs are made with mkfifo, in a
// directory of the child's own.
const { endsAtOnce } = require('./child');
const { FIFO_WRITER } = require('./common');

const ROOT = require('path').join(__dirname, '..');
const LIMIT_MS = 20000;

// Run in the child and in its workers: test/common.js's FIFO writer, and
// writeSlowly.
const WRITER = `${FIFO_WRITER}
  // Writes the pieces with a pause before each (the writer idle meanwhile),
  // then closes.
  async function writeSlowly(p, pieces, pause) {
    await sleep(pause);
    const fd = await writer(p);
    for (const piece of pieces) {
      await sleep(pause);
      await writeAll(fd, piece);
    }
    fs.closeSync(fd);
  }`;

// A process of its own that writes 64 KiB at a time to the FIFO argv[1],
// in blocking writes, so that its reader (hashing more slowly than it
// writes) seldom finds the FIFO empty: the reads come short, not late. It
// ends when the reader is gone (EPIPE) or after 30 s, past the cases' time
// limit, so that a hashing that waits for it to stop fails. Only the first open
// is non-blocking (ENXIO until a reader is there): a feeder whose reader
// never comes ends too.
const FEEDER = `const fs = require('fs');
  const { O_WRONLY, O_NONBLOCK } = fs.constants;
  const end = Date.now() + 30000;
  const chunk = Buffer.alloc(65536, 'ab');
  const open = () => {
    let probe;
    try {
      probe = fs.openSync(process.argv[1], O_WRONLY | O_NONBLOCK);
    } catch (err) {
      if (err.code !== 'ENXIO' || Date.now() > end) process.exit(0);
      return setTimeout(open, 5);
    }
    try {
      const fd = fs.openSync(process.argv[1], O_WRONLY);
      fs.closeSync(probe);
      while (Date.now() < end) fs.writeSync(fd, chunk);
    } catch {}
    process.exit(0);
  };
  open();`;

const PRELUDE = `const f = require(${JSON.stringify(ROOT)});
  const path = require('path');
  const { Worker } = require('worker_threads');
  const { execFileSync, spawn } = require('child_process');
  ${WRITER}
  const dir = fs.mkdtempSync(path.join(require('os').tmpdir(), 'fast-hash-fifo-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  let made = 0;
  const fifo = () => {
    const p = path.join(dir, 'fifo-' + made++);
    execFileSync('mkfifo', [p]);
    return p;
  };
  const fed = () => {
    const p = fifo();
    spawn(process.execPath, ['-e', ${JSON.stringify(FEEDER)}, p], { stdio: 'ignore' });
    return p;
  };
  const idle = () => {
    const p = fifo();
    writer(p).then((fd) => { globalThis.idleFds = [...(globalThis.idleFds || []), fd]; });
    return p;
  };
  const want = (alg, ...pieces) => require('crypto').createHash(alg).update(Buffer.concat(pieces)).digest('hex');
  const worker = (src, workerData) => new Worker(\`const f = require(${JSON.stringify(ROOT)});
    const { workerData, parentPort } = require('worker_threads');
    ${WRITER.replace(/[`\\$]/g, '\\$&')}
    \${src}\`, { eval: true, workerData });`;

const ENDS = [
  {
    what: 'process.exit() during hashFile of a FIFO with no writer',
    src: `const p = fifo(); f.hashFile('sha256', p); f.hashFile('md5', p);
      setTimeout(() => { console.log('exiting'); process.exit(7); }, 300);`,
    status: 7, stdout: 'exiting\n',
  },
  {
    what: 'process.exit() during hashFile of a FIFO whose writer is idle',
    src: `const p = idle(); f.hashFile('sha256', p); f.hashFile('sha3-256', p);
      setTimeout(() => { console.log('exiting', globalThis.idleFds.length); process.exit(7); }, 300);`,
    status: 7, stdout: 'exiting 1\n',
  },
  {
    what: 'fs.stat while four hashFile calls of FIFOs without data fill the thread pool, then process.exit()',
    src: `const a = fifo(); const b = idle();
      for (let i = 0; i < 4; i++) f.hashFile(i % 2 ? 'md5' : 'sha512', i < 2 ? a : b);
      setTimeout(() => {
        const t = Date.now();
        fs.stat(${JSON.stringify(__filename)}, (err) => {
          console.log(err ? err.code : 'stat', Date.now() - t < 2000);
          process.exit(0);
        });
      }, 300);`,
    status: 0, stdout: 'stat true\n',
  },
  {
    what: 'worker.terminate() during four hashFile calls of FIFOs without data in the worker, then the pool is free',
    src: `const w = worker(\`const b = workerData.b;
        writer(b).then((fd) => { globalThis.fd = fd; parentPort.postMessage(0); });
        for (let i = 0; i < 4; i++) f.hashFile(i % 2 ? 'sha3-256' : 'sha256', i < 2 ? workerData.a : b);\`,
        { a: fifo(), b: fifo() });
      w.once('message', () => setTimeout(async () => {
        console.log('terminated', await w.terminate());
        const file = ${JSON.stringify(__filename)};
        console.log(await f.hashFile('sha256', file) === want('sha256', fs.readFileSync(file)));
      }, 300));`,
    status: 0, stdout: 'terminated 1\ntrue\n',
  },
  {
    what: 'worker.terminate() during hashFileSync of a FIFO with no writer in the worker',
    src: `const w = worker(\`parentPort.postMessage(0); f.hashFileSync('sha256', workerData);\`, fifo());
      w.once('message', () => setTimeout(() => w.terminate().then((code) => console.log('terminated', code)), 300));`,
    status: 0, stdout: 'terminated 1\n',
  },
  {
    what: 'process.exit() during hashFileSync of a FIFO whose writer is idle, in a worker',
    src: `const p = idle();
      const w = worker(\`parentPort.postMessage(0); f.hashFileSync('sha256', workerData);\`, p);
      w.once('message', () => setTimeout(() => { console.log('exiting'); process.exit(3); }, 300));`,
    status: 3, stdout: 'exiting\n',
  },
  {
    what: 'process.exit() during hashFile of a FIFO fed endlessly in small writes',
    src: `f.hashFile('sha3-512', fed()); f.hashFile('sha3-512', fed());
      setTimeout(() => { console.log('exiting'); process.exit(7); }, 300);`,
    status: 7, stdout: 'exiting\n',
  },
  {
    // cat keeps the FIFO full (its writes wait for room): every read comes
    // back short and none finds it empty, so only the step's own bound ends
    // a step.
    what: 'process.exit() during hashFile of FIFOs kept full by cat /dev/zero',
    src: `const full = () => { const p = fifo(); spawn('sh', ['-c', 'exec cat /dev/zero > "$0"', p], { stdio: 'ignore' }); return p; };
      f.hashFile('sha3-512', full()); f.hashFile('sha3-512', full());
      setTimeout(() => { console.log('exiting'); process.exit(7); }, 300);`,
    status: 7, stdout: 'exiting\n',
  },
  {
    what: 'worker.terminate() during hashFileSync of a FIFO fed endlessly in small writes, in the worker',
    src: `const w = worker(\`parentPort.postMessage(0); f.hashFileSync('sha3-512', workerData);\`, fed());
      w.once('message', () => setTimeout(() => w.terminate().then((code) => console.log('terminated', code)), 300));`,
    status: 0, stdout: 'terminated 1\n',
  },
];

// A FIFO whose writer comes after the digest has begun, writes with pauses
// and closes: the digest of what it wrote, as for a file.
const DIGESTS = [
  {
    what: 'hashFile of a FIFO whose writer comes late, pauses and closes: node:crypto\'s digest',
    src: `const p = fifo();
      const pieces = [require('crypto').randomBytes(100000), Buffer.from('x'), require('crypto').randomBytes(3 << 20)];
      Promise.all([f.hashFile('sha256', p), writeSlowly(p, pieces, 150)])
        .then(([got]) => console.log(got === want('sha256', ...pieces)));`,
    status: 0, stdout: 'true\n',
  },
  {
    what: 'hashFileSync of a FIFO whose writer (a worker) comes late, pauses and closes: node:crypto\'s digest',
    src: `const p = fifo();
      const pieces = [require('crypto').randomBytes(70000), require('crypto').randomBytes(2 << 20)];
      const w = worker(\`writeSlowly(workerData.p, workerData.pieces, 150);\`, { p, pieces });
      console.log(f.hashFileSync('sha256', p) === want('sha256', ...pieces));`,
    status: 0, stdout: 'true\n',
  },
  {
    what: 'hashFile and hashFileSync of a FIFO whose writer comes late and closes at once: the empty digest',
    src: `const p = fifo();
      Promise.all([f.hashFile('md5', p), writeSlowly(p, [], 300)]).then(([got]) => {
        console.log(got === want('md5'));
        const q = fifo();
        worker(\`writeSlowly(workerData, [], 300);\`, q);
        console.log(f.hashFileSync('sha256', q) === want('sha256'));
      });`,
    status: 0, stdout: 'true\ntrue\n',
  },
];

(process.platform === 'win32' ? describe.skip : describe)('hashFile() and hashFileSync() of a FIFO', function () {
  endsAtOnce(ENDS, PRELUDE, LIMIT_MS);
  endsAtOnce(DIGESTS, PRELUDE, LIMIT_MS);
});
