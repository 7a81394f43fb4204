'use strict';
// The addon in worker_threads: eight at once, each checking every export
// against node:crypto; workers terminated in the middle of a 64 MiB
// hashAsync, of hashFile and hashFileSync of a big file. The child also
// runs the 'cycles' case (200 create/terminate cycles, many terminated while
// busy, with RSS measured), whose test is test/long/workers-cycles.test.js
// (npm run test:long, for its time).
//
// Every case runs in a child process (this file, run with a case name and
// --expose-gc): a crash (SIGSEGV, SIGABRT from a failed CHECK in Node) is a
// test failure naming the signal. The children print one `RESULT {json}`
// line.

const path = require('path');
const ROOT = path.join(__dirname, '..');
const MIB = 2 ** 20;


// ---- the mocha side --------------------------------------------------------

function defineTests() {
  const assert = require('assert');
  const { childResult } = require('./child');
  const { FIXED_MMAP_ENV: ENV } = require('./common');

  function child(name, timeoutMs) {
    const started = Date.now();
    const result = childResult(__filename, [name], { timeout: timeoutMs, env: ENV });
    console.log(`      [${name}] ${Date.now() - started} ms: ${JSON.stringify(result.report)}`);
    return result;
  }

  describe('worker_threads', function () {
    it('8 workers load the addon at once and every export matches node:crypto in each', function () {
      this.timeout(120000);
      const { workers } = child('eight', 110000);
      assert.strictEqual(workers.length, 8);
      for (const w of workers) {
        assert.deepStrictEqual(w.bad, [], `worker ${w.id}: ${w.badCount} of ${w.calls} calls differ`);
        assert.strictEqual(w.exitCode, 0, `worker ${w.id} exited with ${w.exitCode}`);
        for (const name of EXPORTS) assert.ok(w.perExport[name] > 100, `worker ${w.id} made ${w.perExport[name]} ${name} calls`);
      }
    });

    it('terminate() in the middle of a 64 MiB hashAsync does not crash; the main thread keeps hashing correctly', function () {
      this.timeout(120000);
      const { report, checks, errors } = child('terminate-async', 110000);
      assert.deepStrictEqual(errors.slice(0, 3), [], `${errors.length} worker errors`);
      assert.ok(report.terminated >= 8, `only ${report.terminated} workers terminated`);
      assert.ok(report.cutOff >= 6, `only ${report.cutOff} workers were terminated before their work ended`);
      for (const c of checks) assert.strictEqual(c.got, c.want, c.label);
    });

    it('terminate() in the middle of hashFile / hashFileSync of a big file does not crash; the main thread keeps hashing correctly', function () {
      this.timeout(120000);
      const { report, checks, errors } = child('terminate-file', 110000);
      assert.deepStrictEqual(errors.slice(0, 3), [], `${errors.length} worker errors`);
      assert.ok(report.terminated >= 8, `only ${report.terminated} workers terminated`);
      assert.ok(report.cutOff >= 6, `only ${report.cutOff} workers were terminated before their work ended`);
      for (const c of checks) assert.strictEqual(c.got, c.want, c.label);
    });
  });
}

const EXPORTS = ['hash', 'hmac', 'createHmacKey', 'verifyHmac', 'hashMany', 'hashAsync', 'hmacAsync',
  'hashFileSync', 'hashFile'];

// ---- the worker's code (run with eval: it sees only require and workerData) --

function workerMain() {
  const { parentPort, workerData } = require('worker_threads');
  const crypto = require('crypto');
  const { mode, root } = workerData;
  const MIB = 2 ** 20;

  // Eight workers meet here before loading the addon, so they load it at once.
  if (workerData.barrier) {
    const cell = new Int32Array(workerData.barrier);
    Atomics.add(cell, 0, 1);
    Atomics.notify(cell, 0);
    for (let seen; (seen = Atomics.load(cell, 0)) < workerData.parties;) Atomics.wait(cell, 0, seen, 50);
  }
  const fh = require(root);

  const ALGS = ['sha256', 'sha1', 'md5', 'sha512', 'sha384', 'sha224', 'sha512-256', 'sha3-256',
    'sha3-512', 'blake2b512', 'blake2s256', 'ripemd160', 'sm3', 'md5-sha1', 'RSA-SHA256', 'shake128', 'shake256']
    .filter((alg) => crypto.getHashes().includes(alg));
  const HMAC_ALGS = ALGS.filter((alg) => !alg.startsWith('shake'));
  const ENCS = ['hex', 'base64', 'buffer', 'base64url', 'latin1'];

  // Deterministic bytes (xorshift32).
  function bytes(n, seed) {
    const out = Buffer.allocUnsafe(n);
    let x = seed >>> 0 || 1;
    for (let i = 0; i < n; i++) {
      x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
      out[i] = x & 0xff;
    }
    return out;
  }

  // Input i in one of the accepted types, and its bytes for node:crypto.
  function input(i) {
    const n = (i * 37) % 300;
    const raw = bytes(n + 8, i + 1);
    const buf = raw.subarray(3, 3 + n);
    switch (i % 8) {
      case 0: return [`ascii ${'k'.repeat(n)}${i}`, null];
      case 1: return [`é漢😀\ud800 ${i} ${'z'.repeat(n % 50)}`, null];
      case 2: return [Buffer.from(buf), buf];
      case 3: return [new Uint8Array(raw.buffer, raw.byteOffset + 3, n), buf];
      case 4: return [new DataView(raw.buffer, raw.byteOffset + 3, n), buf];
      case 5: { const ab = new ArrayBuffer(n); new Uint8Array(ab).set(buf); return [ab, buf]; }
      case 6: {
        const m = n - (n % 4);
        return [new Float32Array(raw.buffer.slice(raw.byteOffset + 3, raw.byteOffset + 3 + m)), buf.subarray(0, m)];
      }
      default: { const sab = new SharedArrayBuffer(n); new Uint8Array(sab).set(buf); return [sab, buf]; }
    }
  }
  // Mostly the small files; one time in ten one over the 1 MiB read chunk.
  const pickFile = (i) => (files.length < 4 || i % 10 ? i % Math.min(2, files.length) : 2 + ((i / 10) % 2 | 0));
  const bytesOf = ([value, buf]) => (buf === null ? Buffer.from(value, 'utf8') : buf);

  const xofOptions = (alg, i) => (alg.startsWith('shake') ? { outputLength: [0, 16, 32, 64, 100][i % 5] } : undefined);
  const wantHash = (alg, data, enc, i) => crypto.createHash(alg, xofOptions(alg, i)).update(data).digest(enc);
  const wantHmac = (alg, key, data, enc) => crypto.createHmac(alg, key).update(data).digest(enc);
  const show = (v) => (Buffer.isBuffer(v) ? `<Buffer ${v.toString('hex')}>` : `${typeof v}:${v}`);

  const files = workerData.files || [];
  const fileBytes = files.map((f) => require('fs').readFileSync(f));

  let calls = 0;
  let badCount = 0;
  const bad = [];
  const perExport = {};
  function check(what, got, want) {
    calls++;
    if (show(got) !== show(want)) {
      badCount++;
      if (bad.length < 5) bad.push(`${what}: got ${show(got)}, want ${show(want)}`);
    }
  }

  // One call of export `op` (an index into the export list) for case i.
  // Returns a promise for the async ones.
  function mixedCall(op, i) {
    const alg = ALGS[i % ALGS.length];
    const halg = HMAC_ALGS[i % HMAC_ALGS.length];
    const enc = ENCS[i % ENCS.length];
    const inp = input(i);
    const data = inp[0];
    const key = input(i + 3)[0];
    const keyBytes = bytesOf(input(i + 3));
    const options = alg.startsWith('shake') ? { ...xofOptions(alg, i), outputEncoding: enc } : enc;
    const name = ['hash', 'hmac', 'createHmacKey', 'verifyHmac', 'hashMany', 'hashAsync', 'hmacAsync',
      'hashFileSync', 'hashFile'][op];
    perExport[name] = (perExport[name] || 0) + 1;
    const label = `${name} ${alg}/${halg} case ${i} ${enc}`;
    switch (op) {
      case 0:
        check(label, fh.hash(alg, data, options), wantHash(alg, bytesOf(inp), enc, i));
        return null;
      case 1:
        check(label, fh.hmac(halg, key, data, enc), wantHmac(halg, keyBytes, bytesOf(inp), enc));
        return null;
      case 2: {
        const k = fh.createHmacKey(halg, key);
        const mac = wantHmac(halg, keyBytes, bytesOf(inp), 'hex');
        check(label, k.digest(data, enc), wantHmac(halg, keyBytes, bytesOf(inp), enc));
        check(`${label} verify`, k.verify(data, mac), true);
        if (i % 3 === 0) k.destroy(); // the others are left to the GC
        return null;
      }
      case 3: {
        const mac = wantHmac(halg, keyBytes, bytesOf(inp));
        check(label, fh.verifyHmac(halg, key, data, mac), true);
        mac[i % mac.length] ^= 1;
        check(`${label} (flipped)`, fh.verifyHmac(halg, key, data, mac), false);
        return null;
      }
      case 4: {
        const list = [0, 1, 2, 3, 4, 5, 6, 7].map((j) => input(i + j));
        const got = fh.hashMany(alg, list.map((x) => x[0]), options);
        check(label, got.length, list.length);
        list.forEach((x, j) => check(`${label} [${j}]`, got[j], wantHash(alg, bytesOf(x), enc, i)));
        return null;
      }
      case 5:
        return fh.hashAsync(alg, data, options).then((got) => check(label, got, wantHash(alg, bytesOf(inp), enc, i)));
      case 6:
        return fh.hmacAsync(halg, key, data, enc).then((got) => check(label, got, wantHmac(halg, keyBytes, bytesOf(inp), enc)));
      case 7: {
        const f = pickFile(i);
        check(label, fh.hashFileSync(alg, files[f], options), wantHash(alg, fileBytes[f], enc, i));
        return null;
      }
      default: {
        const f = pickFile(i);
        return fh.hashFile(alg, files[f], options).then((got) => check(label, got, wantHash(alg, fileBytes[f], enc, i)));
      }
    }
  }

  async function mixed(iterations, seed) {
    let pending = [];
    for (let i = 0; i < iterations; i++) {
      const p = mixedCall(i % 9, seed + i);
      if (p) pending.push(p);
      if (pending.length >= 32) { await Promise.all(pending); pending = []; }
    }
    await Promise.all(pending);
  }

  const big = (n, fill) => { const b = Buffer.allocUnsafe(n); b.fill(fill); return b; };
  const keep = [];

  (async () => {
    if (mode === 'mixed') {
      await mixed(workerData.iterations, workerData.seed);
      parentPort.postMessage({ calls, badCount, bad, perExport });
      return;
    }
    if (mode === 'cycle') {
      const { kind, seed } = workerData;
      if (kind === 'done') {
        // A short mixed run that ends by itself: every export, checked.
        await mixed(90, seed);
        parentPort.postMessage({ type: 'done', calls, badCount, bad });
        return;
      }
      if (kind === 'busy-sync') {
        parentPort.postMessage({ type: 'ready' });
        for (let i = 0; ; i++) mixedCall([0, 1, 2, 3, 4, 7][i % 6], seed + i);
      }
      if (kind === 'busy-async') {
        // hashAsync of 8 MiB (the job's own copy), hmacAsync and hashFile,
        // kept in flight until terminate() comes.
        const data = big(8 * MIB, `cycle ${seed}`);
        let started = 0;
        const again = () => {
          started++;
          if (started === 6) parentPort.postMessage({ type: 'ready' });
          const p = [fh.hashAsync('sha256', data), fh.hashAsync('sha3-256', data, 'buffer'),
            fh.hmacAsync('blake2b512', 'k', data), fh.hashFile('sha512', files[started % files.length])][started % 4];
          p.then(again, (err) => { throw err; });
        };
        for (let j = 0; j < 6; j++) again();
        return;
      }
      if (kind === 'keys') {
        // Keys alive when the environment goes: their finalizers run at teardown.
        for (let j = 0; j < 2000; j++) keep.push(fh.createHmacKey(j % 2 ? 'sha256' : 'sha3-256', `key ${j}`));
        for (let j = 0; j < 2000; j += 7) keep[j].destroy();
        for (let j = 0; j < 2000; j++) fh.createHmacKey('sha512', `dropped ${j}`);
        parentPort.postMessage({ type: 'ready' });
        for (let j = 0; ; j++) if ((j % 2000) % 7) keep[j % 2000].digest(`m ${j}`);
      }
      if (kind === 'busy-file') {
        parentPort.postMessage({ type: 'ready' });
        for (let j = 0; ; j++) fh.hashFileSync(ALGS[j % ALGS.length], files[j % files.length], 'base64');
      }
    }
    if (mode === 'terminate-async') {
      const data = big(64 * MIB, `sixty-four ${workerData.seed}`);
      const p = [fh.hashAsync('sha256', data), fh.hashAsync('sha3-256', data),
        fh.hmacAsync('sha512', 'k', data), fh.hashAsync('shake256', data, { outputLength: 1000 })];
      parentPort.postMessage({ type: 'started' });
      const got = await Promise.all(p);
      parentPort.postMessage({ type: 'finished', got: got.length });
    }
    if (mode === 'terminate-file') {
      const file = files[0];
      if (workerData.sync) {
        parentPort.postMessage({ type: 'started' });
        const got = fh.hashFileSync('sha3-256', file);
        parentPort.postMessage({ type: 'finished', got });
      } else {
        const p = [fh.hashFile('sha256', file), fh.hashFile('sha3-512', file), fh.hashFile('md5', file, 'buffer')];
        parentPort.postMessage({ type: 'started' });
        await Promise.all(p);
        parentPort.postMessage({ type: 'finished' });
      }
    }
  })().catch((err) => parentPort.postMessage({ type: 'error', error: String(err && err.stack) }));
}

// ---- the child side ----------------------------------------------------------

const WORKER_SOURCE = `(${workerMain.toString()})();`;

async function runChild(name) {
  const fs = require('fs');
  const os = require('os');
  const crypto = require('crypto');
  const { Worker } = require('worker_threads');
  const { setImmediate: tick, setTimeout: sleep } = require('timers/promises');
  const fh = require(ROOT);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-workers-'));
  const errors = [];

  // Files every worker reads: small, and over the 1 MiB read chunk.
  const pattern = (n, seed) => {
    const b = Buffer.allocUnsafe(n + 4);
    let x = seed;
    for (let i = 0; i < n; i += 4) { x = (Math.imul(x, 1103515245) + 12345) >>> 0; b.writeUInt32LE(x, i); }
    return b.subarray(0, n);
  };
  let smallFiles = [];
  const makeFiles = () => [[0, 1], [100, 2], [(1 << 20) + 5, 3], [3 * (1 << 20) - 4, 4]].map(([n, seed]) => {
    const f = path.join(dir, `f${seed}.bin`);
    fs.writeFileSync(f, pattern(n, seed));
    return f;
  });

  const spawn = (workerData) => new Worker(WORKER_SOURCE, { eval: true, workerData: { root: ROOT, files: smallFiles, ...workerData } });
  // Resolves with the exit code; errors (other than terminate()) are kept.
  const exited = (w, label) => new Promise((resolve) => {
    w.on('error', (err) => errors.push(`${label}: ${err && err.stack}`));
    w.on('exit', resolve);
  });
  const message = (w, type) => new Promise((resolve) => {
    w.on('message', (m) => {
      if (m.type === 'error') errors.push(m.error);
      if (type === undefined || m.type === type || m.type === 'error') resolve(m);
    });
  });
  const rssAfterGc = async () => {
    for (let i = 0; i < 4; i++) { global.gc(); await tick(); }
    return process.memoryUsage().rss;
  };

  try {
    smallFiles = makeFiles();
    if (name === 'eight') {
      const barrier = new SharedArrayBuffer(4);
      const t0 = Date.now();
      const runs = Array.from({ length: 8 }, (_, id) => {
        const w = spawn({ mode: 'mixed', iterations: 9 * 800, seed: id * 100003, barrier, parties: 8 });
        return Promise.all([message(w), exited(w, `worker ${id}`)]).then(([m, exitCode]) => ({ id, exitCode, ...m }));
      });
      const workers = await Promise.all(runs);
      const ms = Date.now() - t0;
      const calls = workers.reduce((s, w) => s + (w.calls || 0), 0);
      return { workers, errors, report: { workers: 8, checkedCalls: calls, ms } };
    }

    if (name === 'cycles') {
      const kinds = ['done', 'busy-sync', 'busy-async', 'keys', 'busy-file'];
      const bad = [];
      let rss20 = 0;
      let rss200 = 0;
      const t0 = Date.now();
      const baseline = await rssAfterGc();
      for (let cycle = 1; cycle <= 200; cycle++) {
        const kind = kinds[cycle % kinds.length];
        const w = spawn({ mode: 'cycle', kind, seed: cycle * 7919 });
        const exit = exited(w, `cycle ${cycle} (${kind})`);
        const m = await Promise.race([message(w), exit.then(() => null)]);
        if (kind === 'done') {
          if (m && m.bad && m.bad.length) bad.push(...m.bad);
          if (!m || m.type !== 'done') errors.push(`cycle ${cycle}: no result (${JSON.stringify(m)})`);
        } else {
          if (!m || m.type !== 'ready') errors.push(`cycle ${cycle} (${kind}): not ready (${JSON.stringify(m)})`);
          // Let the busy worker get well into its work, at a different point each cycle.
          await sleep(cycle % 13);
          await w.terminate();
        }
        await exit;
        if (cycle === 20) rss20 = await rssAfterGc();
        if (cycle === 200) rss200 = await rssAfterGc();
      }
      // The main thread still hashes correctly.
      bad.push(...[['sha256', 'after cycles'], ['sha3-256', 'x'.repeat(5000)]]
        .filter(([alg, s]) => fh.hash(alg, s) !== crypto.createHash(alg).update(s).digest('hex'))
        .map(([alg]) => `main thread ${alg} differs`));
      const mb = (n) => Math.round((n / MIB) * 10) / 10;
      return {
        errors,
        bad,
        report: {
          cycles: 200, baselineMB: mb(baseline), rss20MB: mb(rss20), rss200MB: mb(rss200),
          growthMB: mb(rss200 - rss20), ms: Date.now() - t0,
        },
      };
    }

    if (name === 'terminate-async' || name === 'terminate-file') {
      const async = name === 'terminate-async';
      let bigFile;
      let bigBytes;
      if (!async) {
        // 160 MiB of data: hashFile of it takes a few hundred ms.
        bigFile = path.join(dir, 'big.bin');
        const fd = fs.openSync(bigFile, 'w');
        const chunk = pattern(4 * MIB, 99);
        for (let i = 0; i < 40; i++) { chunk.writeUInt32LE(i, 0); fs.writeSync(fd, chunk); }
        fs.closeSync(fd);
        bigBytes = fs.readFileSync(bigFile);
      }
      // When terminate() comes: at once on the worker's message, or later.
      const delays = ['now', 0, 1, 3, 10, 30, 60, 100, 'now', 5, 20, 'now'];
      let terminated = 0;
      let cutOff = 0; // terminated before the worker had its results
      const t0 = Date.now();
      for (let k = 0; k < delays.length; k++) {
        const w = spawn(async ? { mode: 'terminate-async', seed: k }
          : { mode: 'terminate-file', files: [bigFile], sync: k % 3 === 2 });
        const exit = exited(w, `${name} ${k}`);
        let finished = false;
        message(w, 'finished').then(() => { finished = true; });
        const m = await Promise.race([message(w, 'started'), exit.then(() => null)]);
        if (!m || m.type !== 'started') errors.push(`${name} ${k}: did not start (${JSON.stringify(m)})`);
        if (delays[k] !== 'now') await sleep(delays[k]);
        if (!finished) cutOff++;
        await w.terminate();
        terminated++;
        await exit;
      }
      const ms = Date.now() - t0;
      // The main thread, after all that: sync, async and file digests.
      const checks = [];
      const data = Buffer.alloc(64 * MIB, 'main thread');
      const want = crypto.createHash('sha256').update(data).digest('hex');
      checks.push({ label: 'hash 64 MiB', got: fh.hash('sha256', data), want });
      checks.push({ label: 'hashAsync 64 MiB', got: await fh.hashAsync('sha256', data), want });
      checks.push({
        label: 'hashAsync sha3-256 64 MiB',
        got: await fh.hashAsync('sha3-256', data),
        want: crypto.createHash('sha3-256').update(data).digest('hex'),
      });
      checks.push({
        label: 'hmacAsync 64 MiB',
        got: await fh.hmacAsync('sha512', 'k', data),
        want: crypto.createHmac('sha512', 'k').update(data).digest('hex'),
      });
      if (!async) {
        for (const alg of ['sha256', 'sha3-512', 'md5']) {
          const fileWant = crypto.createHash(alg).update(bigBytes).digest('hex');
          checks.push({ label: `hashFile ${alg} big file`, got: await fh.hashFile(alg, bigFile), want: fileWant });
          checks.push({ label: `hashFileSync ${alg} big file`, got: fh.hashFileSync(alg, bigFile), want: fileWant });
        }
      }
      return { errors, checks, report: { terminated, cutOff, ms } };
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  throw new Error(`unknown case ${name}`);
}

// Run as a child (a case name in argv), or loaded by mocha.
require('./child').childEntry(module, ([name]) => runChild(name), defineTests);
