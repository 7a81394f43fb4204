'use strict';
// hashFile and hashFileSync of sources that never end (/dev/zero) never
// delay process.exit() or worker.terminate(), and never hold the thread
// pool so that other work stops; and a file long enough to be hashed in
// many slices gives node:crypto's digest. Each endless case runs in a child
// process with a time limit: a hang is a failure, not a stuck suite.
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { hashFile, hashFileSync } = require('..');
const { writeRandom } = require('../benchmark/cached-file');
const { endsAtOnce } = require('./child');

const ROOT = path.join(__dirname, '..');
const ENDLESS = '/dev/zero';
const LIMIT_MS = 20000;

const PRELUDE = `const f = require(${JSON.stringify(ROOT)});`;

const CASES = [
  {
    what: 'process.exit() during hashFile',
    src: `f.hashFile('sha256', '${ENDLESS}'); f.hashFile('sha3-256', '${ENDLESS}');
      setTimeout(() => { console.log('exiting'); process.exit(7); }, 300);`,
    status: 7, stdout: 'exiting\n',
  },
  {
    what: 'fs.readFile while four hashFile calls fill the thread pool, then process.exit()',
    src: `for (let i = 0; i < 4; i++) f.hashFile(i % 2 ? 'md5' : 'sha512', '${ENDLESS}');
      setTimeout(() => require('fs').readFile(${JSON.stringify(__filename)}, 'utf8', (err, text) => {
        console.log(err ? err.code : text.includes('readFile while four'));
        process.exit(0);
      }), 200);`,
    status: 0, stdout: 'true\n',
  },
  {
    what: 'worker.terminate() during hashFileSync in the worker',
    src: `const { Worker } = require('worker_threads');
      const w = new Worker(\`require('worker_threads').parentPort.postMessage(0);
        require(${JSON.stringify(ROOT)}).hashFileSync('sha256', '${ENDLESS}');\`, { eval: true });
      w.once('message', () => setTimeout(() => w.terminate().then((code) => console.log('terminated', code)), 300));`,
    status: 0, stdout: 'terminated 1\n',
  },
  {
    what: 'worker.terminate() during four hashFile calls in the worker, then the pool is free',
    src: `const { Worker } = require('worker_threads');
      const w = new Worker(\`const f = require(${JSON.stringify(ROOT)});
        for (let i = 0; i < 4; i++) f.hashFile(i % 2 ? 'sha3-256' : 'sha256', '${ENDLESS}');
        require('worker_threads').parentPort.postMessage(0);\`, { eval: true });
      w.once('message', () => setTimeout(async () => {
        console.log('terminated', await w.terminate());
        console.log(await f.hashFile('sha256', ${JSON.stringify(__filename)}) ===
          require('crypto').createHash('sha256').update(require('fs').readFileSync(${JSON.stringify(__filename)})).digest('hex'));
      }, 300));`,
    status: 0, stdout: 'terminated 1\ntrue\n',
  },
];

(fs.existsSync(ENDLESS) ? describe : describe.skip)('hashFile() and hashFileSync() of a source that never ends', function () {
  endsAtOnce(CASES, PRELUDE, LIMIT_MS);
});

// A file whose digest takes many slices: each slice but the last ends with
// chunks the reader thread read ahead, hashed before the next slice.
describe('hashFile() and hashFileSync() of a file hashed in many slices', function () {
  this.timeout(120000);
  let dir;
  let file;
  let content;
  before(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-slices-'));
    file = path.join(dir, 'long.bin');
    writeRandom(file, 192 << 20);
    content = fs.readFileSync(file);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const alg of ['sha256', 'md5', 'sha3-512']) {
    it(`${alg}: equals node:crypto, on the thread pool and here`, async function () {
      const want = crypto.createHash(alg).update(content).digest('hex');
      assert.strictEqual(await hashFile(alg, file), want);
      assert.strictEqual(hashFileSync(alg, file), want);
    });
  }
});
