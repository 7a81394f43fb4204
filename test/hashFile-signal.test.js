'use strict';
// hashFile(algorithm, path, { signal }): an abort rejects with an AbortError
// once the read has ended and the file is closed (counted in /proc/self/fd
// on Linux), within one slice; the signal's listener is let go when the job
// ends, however it ends.
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { getEventListeners } = require('events');
const { hashFile } = require('..');
const { implementation, itNative } = require('./common');

const LINUX = process.platform === 'linux';
const openFds = () => fs.readdirSync('/proc/self/fd').length;
const isAbort = (signal) => (err) => err.name === 'AbortError' && err.code === 'ABORT_ERR' &&
  err.cause === signal.reason;
const listeners = (signal) => getEventListeners(signal, 'abort').length;

// Rejects if `promise` has not settled within ms (a read that never ends).
const within = (promise, ms) => Promise.race([promise, new Promise((resolve, reject) => {
  setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms).unref();
})]);

describe('hashFile() with a signal', function () {
  this.timeout(20000);
  let dir;
  let big;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-signal-'));
    big = path.join(dir, 'big.bin');
    fs.writeFileSync(big, Buffer.alloc(64 << 20, 0x61));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  // [what, options(signal)]: a signal never aborted changes nothing.
  const UNABORTED = [
    ['hex', (signal) => ({ signal })],
    ['base64, with other options', (signal) => ({ signal, outputEncoding: 'base64' })],
    ['buffer', (signal) => ({ signal, outputEncoding: 'buffer' })],
    ['shake256 length', (signal) => ({ signal, outputLength: 50 })],
  ];
  for (const [what, options] of UNABORTED) {
    it(`a signal never aborted (${what}): the digest, and the listener let go`, async () => {
      const signal = new AbortController().signal;
      const opts = options(signal);
      const alg = opts.outputLength ? 'shake256' : 'sha256';
      const got = await hashFile(alg, big, opts);
      const want = crypto.createHash(alg, { outputLength: opts.outputLength })
        .update(fs.readFileSync(big)).digest(opts.outputEncoding ?? 'hex');
      assert.deepStrictEqual(got, want);
      assert.strictEqual(listeners(signal), 0);
    });
  }

  it('a signal already aborted: rejects with its AbortError, no file opened', async () => {
    const before = LINUX ? openFds() : 0;
    const signal = AbortSignal.abort(new Error('why'));
    const job = hashFile('sha256', big, { signal });
    assert.ok(job instanceof Promise);
    await assert.rejects(job, isAbort(signal));
    if (LINUX) assert.strictEqual(openFds(), before);
    assert.strictEqual(listeners(signal), 0);
  });

  // [what, path()]: reads that an abort stops, the file closed at the rejection.
  const ENDLESS = [
    ['/dev/zero (never ends)', () => '/dev/zero'],
    ['a 64 MiB file', () => big],
  ];
  for (const [what, file] of ENDLESS) {
    it(`an abort while reading ${what}: an AbortError, the file closed by then`, async function () {
      if (file() === '/dev/zero' && !fs.existsSync('/dev/zero')) this.skip();
      const before = LINUX ? openFds() : 0;
      const controller = new AbortController();
      // md5, the slowest common digest: 64 MiB take longer than the wait.
      const job = hashFile('md5', file(), { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 10));
      controller.abort();
      await within(assert.rejects(job, isAbort(controller.signal)), 5000);
      if (LINUX) assert.strictEqual(openFds(), before, 'the file is still open');
      assert.strictEqual(listeners(controller.signal), 0);
    });
  }

  itNative('ends the read within one slice of the abort (50 ms, read ahead included)', async () => {
    const controller = new AbortController();
    const job = hashFile('sha256', '/dev/zero', { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const start = process.hrtime.bigint();
    controller.abort();
    await assert.rejects(job, { code: 'ABORT_ERR' });
    // One slice is 50 ms; a loaded 2-core machine gets slack, an endless read none.
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    assert.ok(ms < 1000, `took ${ms} ms`);
  });

  itNative('an abort while a FIFO\'s writer is not there: closed within a slice', async function () {
    if (!LINUX) this.skip();
    const fifo = path.join(dir, 'fifo');
    require('child_process').execFileSync('mkfifo', [fifo]);
    const before = openFds();
    const controller = new AbortController();
    const job = hashFile('sha256', fifo, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 80));
    controller.abort();
    await within(assert.rejects(job, isAbort(controller.signal)), 2000);
    assert.strictEqual(openFds(), before);
  });

  it('one signal over many jobs: every one rejects and closes, one listener and then none', async () => {
    const before = LINUX ? openFds() : 0;
    const controller = new AbortController();
    const jobs = Array.from({ length: 12 }, () => hashFile('md5', big, { signal: controller.signal }));
    assert.strictEqual(listeners(controller.signal), 1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    await within(Promise.all(jobs.map((job) => assert.rejects(job, { name: 'AbortError' }))), 10000);
    if (LINUX) assert.strictEqual(openFds(), before);
    assert.strictEqual(listeners(controller.signal), 0);
  });

  it('a failure of the file lets the listener go too (ENOENT)', async () => {
    const signal = new AbortController().signal;
    await assert.rejects(hashFile('sha256', path.join(dir, 'missing'), { signal }), { code: 'ENOENT' });
    assert.strictEqual(listeners(signal), 0);
  });

  // [what, options]: argument errors reject with ERR_INVALID_ARG_TYPE.
  const BAD = [
    ['a signal that is true', { signal: true }],
    ['a signal that is null', { signal: null }],
    ['a signal that is a plain object', { signal: {} }],
  ];
  for (const [what, options] of BAD) {
    it(`${what}: rejects with ERR_INVALID_ARG_TYPE`, async () => {
      const job = hashFile('sha256', big, options);
      assert.ok(job instanceof Promise);
      await assert.rejects(job, { code: 'ERR_INVALID_ARG_TYPE', name: 'TypeError' });
    });
  }

  it(`runs on the ${implementation} implementation`, () => {
    assert.ok(implementation === 'native' || implementation === 'js');
  });
});
