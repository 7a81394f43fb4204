'use strict';
// @native-only: the addon's executor threads (src/pool.c); the JavaScript implementation has none
// The executor's threads: as many as FAST_HASH_THREADS says (a whole number
// from 1 to 1024), else one per core, and the only threads fast-hash's
// jobs run on: libuv's pool is left to fs, dns and zlib, so every job kind
// completes while that pool's one thread is blocked. Each case runs in a
// child process with a time limit: a job that waits for libuv's pool is a
// child killed at its limit, not a stuck suite.
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { childEntry, childResult } = require('./child');

const LIMIT_MS = 60000;
const LINUX = process.platform === 'linux';

// The threads of this process named as the executor names its own (Linux).
function executorThreads() {
  return fs.readdirSync('/proc/self/task')
    .filter((tid) => {
      try {
        return fs.readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === 'fast-hash';
      } catch {
        return false; // the thread ended meanwhile
      }
    }).length;
}

// Runs more endless jobs at once than any pool here has threads (hashFile
// of /dev/zero): a thread never finds the queue empty, so the pool grows to
// its size however slowly the jobs are submitted. Counts its threads while
// they run, and after they are aborted.
async function countThreads() {
  const fh = require('..');
  const ac = new AbortController();
  const jobs = Array.from({ length: 2 * os.availableParallelism() + 4 },
    () => fh.hashFile('sha256', '/dev/zero', { signal: ac.signal }).catch((err) => err.code));
  await new Promise((resolve) => setTimeout(resolve, 50));
  const during = executorThreads();
  ac.abort();
  const codes = new Set(await Promise.all(jobs));
  return { during, after: executorThreads(), cores: os.availableParallelism(), codes: [...codes] };
}

// With libuv's only thread blocked in the open of a FIFO that has no
// writer, every job kind completes, with node:crypto's digest; then the
// open is let go (a writer comes and goes).
async function libuvBlocked(dir) {
  const fh = require('..');
  const fifo = path.join(dir, 'fifo');
  const file = path.join(dir, 'file');
  const data = crypto.randomBytes(8 << 20);
  fs.writeFileSync(file, data);
  require('child_process').execFileSync('mkfifo', [fifo]);
  const blocked = fs.promises.open(fifo, 'r');
  await new Promise((resolve) => setTimeout(resolve, 50));
  const got = await Promise.all([
    fh.hashAsync('sha256', data),
    fh.hmacAsync('sha256', 'key', data),
    fh.hashFile('sha256', file),
    fh.hashStream('sha256', [data.subarray(0, 4 << 20), data.subarray(4 << 20)]),
  ]);
  fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
  await (await blocked).close();
  const want = crypto.createHash('sha256').update(data).digest('hex');
  const mac = crypto.createHmac('sha256', 'key').update(data).digest('hex');
  return { same: got[0] === want && got[1] === mac && got[2] === want && got[3] === want };
}

function main([what, dir]) {
  return what === 'count' ? countThreads() : libuvBlocked(dir);
}

function defineTests() {
  const count = (env) => childResult(__filename, ['count'], { env, timeout: LIMIT_MS });

  (LINUX ? describe : describe.skip)('executor threads (child processes)', function () {
    this.timeout(LIMIT_MS + 10000);

    it('FAST_HASH_THREADS=3: three threads, kept once the jobs end', function () {
      const res = count({ FAST_HASH_THREADS: '3' });
      assert.deepStrictEqual([res.during, res.after, res.codes], [3, 3, ['ABORT_ERR']]);
    });

    it('FAST_HASH_THREADS=1: one thread', function () {
      assert.strictEqual(count({ FAST_HASH_THREADS: '1' }).during, 1);
    });

    it('by default, and for values that are not 1 to 1024: one thread per core', function () {
      for (const value of [undefined, '', '0', '-2', '2.5', 'x', '1025', '99999999999']) {
        const env = value === undefined ? { FAST_HASH_THREADS: undefined } : { FAST_HASH_THREADS: value };
        const res = count(env);
        assert.strictEqual(res.during, res.cores, `FAST_HASH_THREADS=${value}`);
      }
    });

    it('UV_THREADPOOL_SIZE does not size it', function () {
      const res = count({ UV_THREADPOOL_SIZE: '7', FAST_HASH_THREADS: undefined });
      assert.strictEqual(res.during, res.cores);
    });
  });

  (process.platform === 'win32' ? describe.skip : describe)('libuv pool left to fs (child process)', function () {
    this.timeout(LIMIT_MS + 10000);

    it('hashAsync, hmacAsync, hashFile and hashStream complete while libuv\'s only thread is blocked', function () {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fh-executor-'));
      try {
        const res = childResult(__filename, ['libuv', dir], { env: { UV_THREADPOOL_SIZE: '1' }, timeout: LIMIT_MS });
        assert.deepStrictEqual(res, { same: true });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

childEntry(module, main, defineTests);
