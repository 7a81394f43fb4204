'use strict';
// Hashers in worker_threads: six workers and the main thread at once, each
// checking createHasher() and hmacKey.createHasher() against node:crypto
// and dropping hashers unfinished as it exits; workers terminated while
// hashing; a native handle is meaningless in another thread. Every case
// runs in a child process (a crash is a failure naming its signal) that
// prints one `RESULT {json}` line.
const path = require('path');

const ROOT = path.join(__dirname, '..');
const MIB = 2 ** 20;

// ---- the worker's work ------------------------------------------------------------
// Random parts (seeded) through hashers of every algorithm, copies and HMAC
// hashers, checked against node:crypto; `keep` hashers left unfinished.
function work(seed, rounds, keep) {
  const crypto = require('crypto');
  const { createHasher, createHmacKey } = require(ROOT);
  let x = seed >>> 0 || 1;
  const pick = (n) => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x % n; };
  // (Bun's HMAC has no BLAKE2.)
  const algs = ['sha256', 'sha1', 'md5', 'sha512', 'sha3-256', 'blake2b512', 'shake128']
    .filter((a) => /shake/.test(a) || require('./common').runtimeHmacs(a));
  const bad = [];
  let checked = 0;
  for (let r = 0; r < rounds; r++) {
    const alg = algs[pick(algs.length)];
    const xof = alg.startsWith('shake') ? { outputLength: [0, 16, 100][pick(3)] } : undefined;
    const hmac = !xof && pick(3) === 0;
    const key = `key ${r % 7}`;
    const ours = hmac ? createHmacKey(alg, key).createHasher() : createHasher(alg, xof);
    const ref = hmac ? crypto.createHmac(alg, key) : crypto.createHash(alg, xof);
    let copy;
    let refCopy;
    for (let i = 0, n = 1 + pick(5); i < n; i++) {
      const part = pick(2) ? crypto.randomBytes(pick(400)) : `part ${i} ü ${'x'.repeat(pick(300))}`;
      ours.update(part);
      ref.update(part);
      if (i === 1 && !hmac) { copy = ours.copy(xof); refCopy = ref.copy(xof); }
    }
    checked++;
    if (ours.digest('hex') !== ref.digest('hex')) bad.push(`${alg} hmac=${hmac} round ${r}`);
    if (copy) {
      checked++;
      if (copy.digest('base64') !== refCopy.digest('base64')) bad.push(`${alg} copy round ${r}`);
    }
  }
  // Dropped unfinished, with native states: freed with the thread's state.
  const kept = [];
  for (let i = 0; i < keep; i++) kept.push(createHasher(algs[i % algs.length]).update(Buffer.alloc(300, i)));
  return { checked, bad: bad.slice(0, 10), badCount: bad.length, kept: kept.length };
}

// ---- the children ------------------------------------------------------------------
async function childMany() {
  const { Worker } = require('worker_threads');
  const run = (id) => new Promise((resolve, reject) => {
    const w = new Worker(__filename, { argv: ['worker', String(id)] });
    let result;
    w.on('message', (m) => { result = m; });
    w.on('error', reject);
    w.on('exit', (code) => resolve({ id, code, ...result }));
  });
  const workers = Promise.all([1, 2, 3, 4, 5, 6].map(run));
  const main = work(99, 3000, 1000);
  return { main, workers: await workers };
}

// Workers busy hashing (native states live) terminated at once, 100 times.
async function childTerminate() {
  const { Worker } = require('worker_threads');
  const { setTimeout: sleep } = require('timers/promises');
  const started = process.memoryUsage().rss;
  for (let i = 0; i < 100; i++) {
    const w = new Worker(__filename, { argv: ['spin'] });
    await new Promise((resolve) => w.once('message', resolve));
    await sleep(i % 5);
    await w.terminate();
  }
  global.gc();
  const ok = require(ROOT).createHasher('sha256').update(Buffer.alloc(300)).digest('hex') ===
    require('crypto').createHash('sha256').update(Buffer.alloc(300)).digest('hex');
  return { ok, rssGrowthMB: Math.round((process.memoryUsage().rss - started) / MIB) };
}

// A native handle is a number naming a slot of one thread's store: in
// another thread it names nothing there.
async function childHandle() {
  const { Worker } = require('worker_threads');
  const binding = require(path.join(ROOT, 'lib', 'binding'));
  const token = binding.hasherNew(binding.resolve('sha256').id, 32);
  binding.hasherUpdate(token, 'main');
  const w = new Worker(`
    const { parentPort, workerData } = require('worker_threads');
    const binding = require(${JSON.stringify(path.join(ROOT, 'lib', 'binding'))});
    let code;
    try { binding.hasherUpdate(workerData, 'x'); code = 'accepted'; } catch (err) { code = err.code; }
    parentPort.postMessage(code);`, { eval: true, workerData: token });
  const code = await new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject); });
  const digest = binding.hasherDigest(token, 0, new Uint8Array(0), 0);
  return { code, same: digest === require('crypto').createHash('sha256').update('main').digest('hex') };
}

// ---- the mocha side ----------------------------------------------------------------
function defineTests() {
  const assert = require('assert');
  const { itNative } = require('./common');
  const { childResult } = require('./child');

  function child(name, timeoutMs) {
    const r = childResult(__filename, [name], { timeout: timeoutMs });
    console.log(`      [${name}] ${JSON.stringify(r).slice(0, 400)}`);
    return r;
  }

  describe('hashers in worker_threads', function () {
    it('six workers and the main thread at once: every result matches node:crypto; hashers left unfinished at exit', function () {
      this.timeout(240000);
      const r = child('many', 220000);
      for (const w of [{ id: 'main', code: 0, ...r.main }, ...r.workers]) {
        assert.strictEqual(w.code, 0, `worker ${w.id} exited with ${w.code}`);
        assert.deepStrictEqual(w.bad, [], `worker ${w.id}: ${w.badCount} of ${w.checked} differ`);
        assert.ok(w.checked >= 3000, `worker ${w.id}: ${w.checked} checked`);
        assert.strictEqual(w.kept, 1000);
      }
    });

    it('workers terminated while hashing, 100 times: no crash, the main thread unaffected', function () {
      this.timeout(240000);
      const r = child('terminate', 220000);
      assert.ok(r.ok);
      assert.ok(r.rssGrowthMB < 150, `RSS grew ${r.rssGrowthMB} MB`);
    });

    itNative('a native handle from one thread names nothing in another', function () {
      this.timeout(60000);
      const r = child('handle', 50000);
      assert.strictEqual(r.code, 'ERR_CRYPTO_HASH_FINALIZED');
      assert.ok(r.same, 'the main thread\'s hasher is untouched');
    });
  });
}

// ---- entry ---------------------------------------------------------------------------
const { isMainThread, parentPort } = require('worker_threads');
if (!isMainThread) {
  const [mode, id] = process.argv.slice(2);
  if (mode === 'worker') {
    parentPort.postMessage(work(Number(id) * 7919, 3000, 1000));
  } else if (mode === 'spin') {
    const { createHasher } = require(ROOT);
    const live = Array.from({ length: 200 }, (_, i) => createHasher(i % 2 ? 'sha256' : 'sha3-256').update(Buffer.alloc(300)));
    parentPort.postMessage('ready');
    for (let i = 0; ; i++) live[i % live.length].update(Buffer.alloc(100, i));
  }
} else {
  const children = { many: childMany, terminate: childTerminate, handle: childHandle };
  require('./child').childEntry(module, ([name]) => children[name](), defineTests);
}
