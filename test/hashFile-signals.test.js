'use strict';
// hashFile of a FIFO whose writer pauses between writes, while the process
// is sent signals it handles: a wait for the FIFO that a signal interrupts
// (EINTR) goes on waiting, and the digest is node:crypto's of what was
// written, never an EINTR error. A signal sent to the process goes to its
// main thread when that can take it, so on Linux they are sent to the ids
// of the threads that read (kill() of a thread's id tries that thread
// first): the executor's, named fast-hash, on the addon, every thread on
// the JavaScript implementation. In a child process with a time limit
// (Linux and macOS: mkfifo).
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { childEntry, childResult } = require('./child');
const { slowFifo } = require('./common');

// The ids to signal: the threads that read FIFOs, where they can be told
// apart (Linux), else the process.
function targets() {
  if (process.platform !== 'linux') return [process.pid];
  const tids = fs.readdirSync('/proc/self/task').map(Number).filter((tid) => tid !== process.pid);
  const named = tids.filter((tid) => {
    try {
      return fs.readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === 'fast-hash';
    } catch {
      return false;
    }
  });
  return named.length > 0 ? named : tids;
}

async function main([dir]) {
  const fh = require('..');
  let sent = 0;
  process.on('SIGUSR1', () => {});
  const timer = setInterval(() => {
    for (const id of targets()) {
      process.kill(id, 'SIGUSR1');
      sent++;
    }
  }, 1);
  try {
    const results = await Promise.all(Array.from({ length: 3 }, async () => {
      const { fifo, data } = slowFifo(dir, [1000, 70000, 3, 200000, 5]);
      const got = await fh.hashFile('sha256', fifo).catch((err) => `${err.code}: ${err.message}`);
      return got === crypto.createHash('sha256').update(data).digest('hex') || got;
    }));
    return { results, signalled: sent > 0 };
  } finally {
    clearInterval(timer);
  }
}

function defineTests() {
  (process.platform === 'win32' ? it.skip : it)('FIFO reads interrupted by signals go on: the digest of what was written (child process)', function () {
    this.timeout(45000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fh-signals-'));
    try {
      const res = childResult(__filename, [dir], { timeout: 30000 });
      assert.deepStrictEqual(res, { results: [true, true, true], signalled: true });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}

childEntry(module, main, defineTests);
