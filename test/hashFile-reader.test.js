'use strict';
// hashFile and hashFileSync of files of 2 MiB and more. hashFile of such a
// regular file reads ahead where the executor has a spare thread: the job's
// companion task copies the next chunks into a ring of four 1 MiB chunks
// while the job's own step hashes one (src/file.c, "reading ahead"); with
// no spare thread, or in hashFileSync, one thread reads and hashes. Sizes
// around the ring's edges both ways (FAST_HASH_THREADS=1 leaves no spare
// thread), that the reads do come from two threads, read errors and
// interrupted or short reads in the middle of a file (injected into read()
// by a preloaded shim, in a child process), files cut short or growing
// while they are hashed, and many at once. The sizes around the ring's
// edges run in a child process with a time limit (test/child.js): a ring
// that is never refilled hangs the child, which is then killed, and fails
// its test instead of hanging the suite.
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync, execFileSync } = require('child_process');
const { Worker } = require('worker_threads');
const { hashFile, hashFileSync, hash } = require('..');

const MiB = 1 << 20;
const ROOT = path.join(__dirname, '..');

const { writeRandom } = require('../benchmark/cached-file');
const { describeNative } = require('./common');
const { childEntry, childResult } = require('./child');

// A regular file gets the ring while 2 MiB or more are left to read; the
// ring holds 4 chunks, refilled as each is hashed.
const SIZES = [2 * MiB - 1, 2 * MiB, 4 * MiB - 1, 4 * MiB, 4 * MiB + 1, 5 * MiB, 8 * MiB + 1, 9 * MiB - 3, 21 * MiB + 77];
const RING_LIMIT_MS = 90000;

// In the child: every size of SIZES against node:crypto, low-level and EVP
// digests, here and on the thread pool. Returns how many sizes it checked.
async function ringEdges() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-ring-'));
  try {
    for (const size of SIZES) {
      const file = path.join(dir, `size-${size}.bin`);
      writeRandom(file, size);
      const content = fs.readFileSync(file);
      for (const alg of ['sha256', 'md5', 'sha3-256', 'blake2b512']) {
        const want = crypto.createHash(alg).update(content).digest('hex');
        assert.strictEqual(hashFileSync(alg, file), want, `hashFileSync ${alg} ${size}`);
        assert.strictEqual(await hashFile(alg, file), want, `hashFile ${alg} ${size}`);
      }
      assert.strictEqual(hashFileSync('shake256', file, { outputLength: 64 }),
        crypto.createHash('shake256', { outputLength: 64 }).update(content).digest('hex'));
      fs.rmSync(file);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return SIZES.length;
}

function defineTests() {
  describe('hashFile() and hashFileSync() past the first chunk (reading ahead)', function () {
    this.timeout(60000);
    let dir;
    before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-reader-')); });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    for (const threads of [1, 3]) {
      it(`equals crypto over sizes around the ring's edges, low-level and EVP digests, FAST_HASH_THREADS=${threads} (child process)`, function () {
        this.timeout(RING_LIMIT_MS + 30000);
        const env = { FAST_HASH_THREADS: String(threads) };
        assert.strictEqual(childResult(__filename, ['ring-edges'], { timeout: RING_LIMIT_MS, env }), SIZES.length);
      });
    }

    it('many long files at once, on the thread pool and in workers', async function () {
      const files = [3 * MiB + 5, 10 * MiB, 17 * MiB].map((size, i) => {
        const file = path.join(dir, `many-${i}.bin`);
        writeRandom(file, size);
        return file;
      });
      const want = files.map((f) => hash('sha256', fs.readFileSync(f)));
      const jobs = [];
      for (let i = 0; i < 48; i++) jobs.push(hashFile('sha256', files[i % files.length]));
      (await Promise.all(jobs)).forEach((got, i) => assert.strictEqual(got, want[i % files.length], `job ${i}`));

      const src = `const { parentPort, workerData } = require('worker_threads');
        const fh = require(workerData.root);
        const out = [];
        for (let i = 0; i < 6; i++) out.push(fh.hashFileSync('sha256', workerData.files[i % workerData.files.length]));
        parentPort.postMessage(out);`;
      const results = await Promise.all([0, 1, 2, 3].map(() => new Promise((resolve, reject) => {
        const w = new Worker(src, { eval: true, workerData: { root: ROOT, files } });
        w.once('message', resolve);
        w.once('error', reject);
      })));
      for (const out of results) out.forEach((got, i) => assert.strictEqual(got, want[i % files.length]));
    });

    // The result is whatever bytes the reads saw; the promise is that nothing
    // crashes, the reader is joined, and a digest (or an fs error) comes back.
    it('a file cut short or growing while it is hashed gives a digest, no crash', async function () {
      const file = path.join(dir, 'changing.bin');
      for (let round = 0; round < 6; round++) {
        writeRandom(file, 48 * MiB);
        const pending = [hashFile('sha256', file), hashFile('md5', file), hashFile('sha3-256', file)];
        await new Promise((resolve) => setTimeout(resolve, round * 3));
        if (round % 2) fs.truncateSync(file, (round * 7 % 5) * MiB + 3);
        else fs.appendFileSync(file, crypto.randomBytes(5 * MiB));
        for (const got of await Promise.all(pending)) assert.match(got, /^[0-9a-f]+$/);
      }
      // hashFileSync, with a worker cutting and growing the file meanwhile.
      writeRandom(file, 48 * MiB);
      const src = `const fs = require('fs'); const { workerData, parentPort } = require('worker_threads');
        const stop = new Int32Array(workerData.stop);
        parentPort.postMessage('go');
        for (let i = 0; !Atomics.load(stop, 0); i++) {
          if (i % 2) fs.truncateSync(workerData.file, (i % 40) * ${MiB});
          else fs.appendFileSync(workerData.file, Buffer.alloc(3 * ${MiB}, i));
        }`;
      const stop = new SharedArrayBuffer(4);
      const w = new Worker(src, { eval: true, workerData: { file, stop } });
      await new Promise((resolve) => w.once('message', resolve));
      try {
        for (let i = 0; i < 20; i++) assert.match(hashFileSync('sha256', file), /^[0-9a-f]{64}$/);
      } finally {
        Atomics.store(new Int32Array(stop), 0, 1);
        await new Promise((resolve) => w.once('exit', resolve));
      }
    });

    // A shim preloaded into a child process makes read() of one file fail
    // (EIO, from 5 MiB on: the ring's reads) or be interrupted (EINTR, every
    // other read), which no real file reliably does. The addon's own reads
    // only: the JavaScript implementation reads through the runtime's fs.
    describeNative('read failures in the middle of a file (preloaded read() shim)', function () {
      let shim, target;
      before(function () {
        if (process.platform !== 'linux') this.skip();
        try {
          execFileSync('gcc', ['--version'], { stdio: 'ignore' });
        } catch {
          this.skip(); // no compiler for the shim
        }
        shim = buildReadShim(dir);
        target = path.join(dir, 'target.bin');
        writeRandom(target, 13 * MiB + 5);
      });

      // `sync`: hashFileSync first, then hashFile; else hashFile alone.
      function runChild(mode, { threads = 3, sync = true } = {}) {
        const script = `const fh = require(${JSON.stringify(ROOT)});
          const file = ${JSON.stringify(target)};
          const summary = (e) => ({ code: e.code, errno: e.errno, syscall: e.syscall, path: e.path, message: e.message });
          const out = {};
          if (${sync}) try { out.sync = fh.hashFileSync('sha256', file); } catch (e) { out.sync = summary(e); }
          fh.hashFile('sha256', file).then((d) => { out.async = d; }, (e) => { out.async = summary(e); })
            .then(() => console.log(JSON.stringify(out)));`;
        const env = { ...process.env, FAST_HASH_TEST_READ_PATH: target, FAST_HASH_TEST_READ_MODE: mode, FAST_HASH_THREADS: String(threads) };
        env.LD_PRELOAD = [process.env.LD_PRELOAD, shim].filter(Boolean).join(' ');
        const res = spawnSync(process.execPath, ['-e', script], { env, encoding: 'utf8', timeout: 60000 });
        assert.strictEqual(res.status, 0, `child exited ${res.status} ${res.signal || ''}: ${res.stderr}`);
        const interrupted = /read-shim: (\d+) interrupted, (\d+) threads/.exec(res.stderr);
        assert.ok(interrupted, `the shim was not loaded: ${res.stderr}`);
        return { ...JSON.parse(res.stdout), interrupted: +interrupted[1], threads: +interrupted[2] };
      }

      // Each read of the file takes 2 ms more (mode slow), so that the
      // companion's thread runs long before the job ends, however loaded
      // the machine: what is counted is which threads read, not a time.
      it('a spare thread reads ahead: the file is read by two threads, by one with FAST_HASH_THREADS=1', function () {
        const want = hash('sha256', fs.readFileSync(target));
        const spare = runChild('slow', { sync: false });
        assert.deepStrictEqual([spare.async, spare.threads], [want, 2]);
        const none = runChild('slow', { threads: 1, sync: false });
        assert.deepStrictEqual([none.async, none.threads], [want, 1]);
      });

      it('an EIO past the first chunk rejects / throws as fs would, with the path', function () {
        const { interrupted, threads, ...out } = runChild('eio');
        assert.strictEqual(interrupted, 0);
        for (const got of [out.sync, out.async]) {
          assert.strictEqual(got.code, 'EIO');
          assert.strictEqual(got.syscall, 'read');
          assert.strictEqual(got.path, target);
          assert.strictEqual(got.errno, -5);
          assert.strictEqual(got.message, `EIO: i/o error, read '${target}'`);
        }
      });

      // A pipe or a device may answer short before its end: only 0 is the end.
      it('short reads are not the end of the file, on either thread', function () {
        const want = hash('sha256', fs.readFileSync(target));
        const { interrupted, threads, ...out } = runChild('short');
        assert.deepStrictEqual(out, { sync: want, async: want });
        assert.ok(interrupted >= 10, `${interrupted} reads came short`);
      });

      it('interrupted reads on both threads are retried', function () {
        const want = hash('sha256', fs.readFileSync(target));
        const { interrupted, threads, ...out } = runChild('eintr');
        assert.deepStrictEqual(out, { sync: want, async: want });
        assert.ok(interrupted >= 14, `${interrupted} reads interrupted`); // 14 + 14 reads of 1 MiB at least
      });

      // The job ends (an abort, its worker's terminate()) while its
      // companion is in the middle of a read (each takes 2 ms more, mode
      // slow): the job's memory must outlive that read (under AddressSanitizer,
      // npm run test:sanitize, a read into freed memory is reported), and its
      // file is closed.
      it('aborted, or its worker terminated, while a spare thread reads ahead: no crash, the file closed', function () {
        const script = `const fh = require(${JSON.stringify(ROOT)});
          const fs = require('fs');
          const { Worker } = require('worker_threads');
          const file = ${JSON.stringify(target)};
          const fds = () => fs.readdirSync('/proc/self/fd').length;
          (async () => {
            // A first worker opens descriptors the process keeps.
            await new Promise((resolve) => new Worker('0', { eval: true }).once('exit', resolve));
            const before = fds();
            let aborted = 0;
            for (let i = 0; i < 12; i++) {
              const controller = new AbortController();
              const digest = fh.hashFile('sha256', file, { signal: controller.signal });
              setTimeout(() => controller.abort(), 3 + (i % 6) * 3);
              try { await digest; } catch (err) { if (err.code !== 'ABORT_ERR') throw err; aborted++; }
            }
            for (let i = 0; i < 6; i++) {
              const w = new Worker(\`require(\${JSON.stringify(${JSON.stringify(ROOT)})}).hashFile('sha256', \${JSON.stringify(file)});
                require('worker_threads').parentPort.postMessage('started');\`, { eval: true });
              await new Promise((resolve) => w.once('message', resolve));
              await new Promise((resolve) => setTimeout(resolve, 4 + i * 3));
              await w.terminate();
            }
            console.log(JSON.stringify({ aborted, open: fds() - before }));
          })();`;
        const env = { ...process.env, FAST_HASH_TEST_READ_PATH: target, FAST_HASH_TEST_READ_MODE: 'slow', FAST_HASH_THREADS: '3' };
        env.LD_PRELOAD = [process.env.LD_PRELOAD, shim].filter(Boolean).join(' ');
        const res = spawnSync(process.execPath, ['-e', script], { env, encoding: 'utf8', timeout: 60000 });
        assert.strictEqual(res.status, 0, `child exited ${res.status} ${res.signal || ''}: ${res.stderr}`);
        const out = JSON.parse(res.stdout);
        assert.ok(out.aborted >= 1, res.stdout);
        assert.strictEqual(out.open, 0, res.stdout);
      });
    });
  });

}

childEntry(module, ([name]) => {
  if (name === 'ring-edges') return ringEdges();
  throw new Error(`no case ${name}`);
}, defineTests);

// Compiles the read() shim: reads of the file FAST_HASH_TEST_READ_PATH fail
// with EIO from offset 5 MiB on (mode eio), with EINTR every other call
// (mode eintr), come short (100003 bytes) every other call from offset
// 3 MiB on (mode short; counted as "interrupted"), or take 2 ms longer
// (mode slow); in every mode the threads that read it are counted.
// Everything else reaches libc's read().
function buildReadShim(dir) {
  const src = path.join(dir, 'read-shim.c');
  const lib = path.join(dir, 'read-shim.so');
  fs.writeFileSync(src, `#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int is_target(int fd) {
  char link[64], where[PATH_MAX];
  const char *want = getenv("FAST_HASH_TEST_READ_PATH");
  ssize_t n;
  if (want == NULL) return 0;
  snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
  n = readlink(link, where, sizeof(where) - 1);
  if (n <= 0) return 0;
  where[n] = '\\0';
  return strcmp(where, want) == 0;
}

static unsigned calls, interrupted, nthreads;
static long threads[64];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

__attribute__((destructor)) static void report(void) {
  if (getenv("FAST_HASH_TEST_READ_MODE") != NULL)
    fprintf(stderr, "read-shim: %u interrupted, %u threads\\n", interrupted, nthreads);
}

static void note_thread(void) {
  long self = syscall(SYS_gettid);
  unsigned i;
  pthread_mutex_lock(&lock);
  for (i = 0; i < nthreads && threads[i] != self; i++) {}
  if (i == nthreads && nthreads < 64) threads[nthreads++] = self;
  pthread_mutex_unlock(&lock);
}

ssize_t read(int fd, void *buf, size_t len) {
  static ssize_t (*real)(int, void *, size_t);
  const char *mode = getenv("FAST_HASH_TEST_READ_MODE");
  if (real == NULL) real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
  if (mode != NULL && is_target(fd)) {
    note_thread();
    if (strcmp(mode, "slow") == 0) usleep(2000);
    if (strcmp(mode, "eio") == 0 && lseek(fd, 0, SEEK_CUR) >= 5 * 1048576) {
      errno = EIO;
      return -1;
    }
    if (strcmp(mode, "short") == 0 && lseek(fd, 0, SEEK_CUR) >= 3 * 1048576 &&
        __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED) % 2 == 0 && len > 100003) {
      __atomic_fetch_add(&interrupted, 1, __ATOMIC_RELAXED);
      return real(fd, buf, 100003);
    }
    if (strcmp(mode, "eintr") == 0 && __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED) % 2 == 0) {
      __atomic_fetch_add(&interrupted, 1, __ATOMIC_RELAXED);
      errno = EINTR;
      return -1;
    }
  }
  return real(fd, buf, len);
}
`);
  execFileSync('gcc', ['-shared', '-fPIC', '-O1', '-o', lib, src, '-ldl', '-lpthread']);
  return lib;
}
