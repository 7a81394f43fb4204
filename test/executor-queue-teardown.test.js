'use strict';
// @native-only: the addon's executor queue (src/pool.c); the JavaScript implementation has none
// An environment that ends while tasks of its own wait in the executor's
// queue: they are dropped with it, never run after it, and the queue goes
// on for everyone else. With one thread (FAST_HASH_THREADS=1) shared with
// the main thread's endless stream, a worker queues many jobs (its streams'
// updates among them, which touch the worker's hasher states) and is
// terminated while most of them wait, ten times over; the main thread's
// stream, requeued after every step, must still end with node:crypto's
// digest. A
// task run after its environment is gone reads freed memory (the sanitizer
// run reports it), and a queue left pointing at a dropped task loses the
// main thread's job (the child is killed at its time limit). In a child
// process with a time limit.
const assert = require('assert');
const crypto = require('crypto');
const path = require('path');
const { Worker } = require('worker_threads');
const { childEntry, childResult } = require('./child');

const ROOT = path.join(__dirname, '..');
const CYCLES = 10;

// In the worker: many jobs of every kind that waits in the queue, then a
// message once they are all submitted; it is terminated after it.
const WORKER = `
  const { parentPort, workerData } = require('worker_threads');
  const f = require(workerData.root);
  const data = Buffer.alloc(4 << 20, 7);
  for (let i = 0; i < 8; i++) {
    f.hashAsync('sha512', data).catch(() => {});
    f.hmacAsync('sha512', 'k', data).catch(() => {});
    f.hashStream('sha512', [data, data]).catch(() => {});
  }
  // The streams' first updates are submitted a few turns later.
  setTimeout(() => parentPort.postMessage('queued'), 100);
  setInterval(() => {}, 1000);`;

async function cycle() {
  const worker = new Worker(WORKER, { eval: true, workerData: { root: ROOT } });
  await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
}

async function main() {
  const f = require(ROOT);
  const chunk = Buffer.alloc(1 << 20, 3);
  let chunks = 0;
  const flag = { going: true };
  async function* endless() {
    for (; flag.going; chunks++) yield chunk;
  }
  const long = f.hashStream('sha256', endless());
  for (let i = 0; i < CYCLES; i++) await cycle();
  flag.going = false;
  const want = crypto.createHash('sha256');
  const got = await long;
  for (let i = 0; i < chunks; i++) want.update(chunk);
  return { long: got === want.digest('hex'), went: chunks > 0 };
}

function defineTests() {
  it(`workers terminated ${CYCLES} times with jobs queued behind the main thread's: dropped, and the main thread's stream ends right (child process)`, function () {
    this.timeout(150000);
    const res = childResult(__filename, [], { timeout: 120000, env: { FAST_HASH_THREADS: '1' } });
    assert.deepStrictEqual(res, { long: true, went: true });
  });
}

childEntry(module, main, defineTests);
