'use strict';
// A SharedArrayBuffer (and a growable one) that another thread writes and
// grows while every export hashes it: each call gives a well-formed digest
// or a coded error, the bytes no thread writes hash right, and nothing
// crashes.
const crypto = require('crypto');
const { Worker } = require('worker_threads');
const fh = require('..');
const { bytes: prng } = require('./common');
const { hostileTest } = require('./hostile/harness');
const {
  fail, show, errText, trace, Ctx, judge, settle, judgeAsync,
} = require('./hostile/judge');

const HALF = 1 << 18;
const SIZES = { sha256: 32, sha512: 64, 'sha3-256': 32, blake2b512: 64, md5: 16, shake128: 16 };
const ALGS = Object.keys(SIZES);
const hexOf = (alg) => (v) => (typeof v === 'string' && v.length === 2 * SIZES[alg] && /^[0-9a-f]*$/.test(v)) ||
  `not a ${alg} hex digest: ${show(v).slice(0, 80)}`;

// The writer thread: it rewrites sab's first half and grows and rewrites
// gsab for as long as it runs, counting its passes in flag[1].
async function startWriter(sab, gsab, flag) {
  const worker = new Worker(`
    const { workerData: { sab, gsab, flag } } = require('worker_threads');
    const hot = new Uint8Array(sab, 0, sab.byteLength / 2);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
    let x = 0;
    for (;;) {
      for (let i = (x & 63); i < hot.length; i += 61) hot[i] = x++;
      if (gsab.byteLength + 8192 <= gsab.maxByteLength) gsab.grow(gsab.byteLength + 8192);
      const g = new Uint8Array(gsab);
      for (let i = x & 127; i < g.length; i += 127) g[i] = x;
      Atomics.add(flag, 1, 1);
    }`, { eval: true, workerData: { sab, gsab, flag } });
  worker.on('error', (e) => fail('race worker', `worker error: ${errText(e)}`, 'worker'));
  const t0 = Date.now();
  while (Atomics.load(flag, 0) === 0 && Date.now() - t0 < 30000) await new Promise((r) => setTimeout(r, 5));
  return worker;
}

// Round i: every export over the views `views` (v the one in the lead);
// the async calls' promises go to `pending`.
function raceRound(i, views, stable, stableWant, pending) {
  const alg = ALGS[i % ALGS.length];
  const v = views[i % views.length];
  const ctx = new Ctx();
  const name = `race #${i}: ${alg} over ${Object.prototype.toString.call(v).slice(8, -1)}`;
  trace(name);
  const sync = (label, thunk, check) => {
    let out;
    try {
      out = { value: thunk() };
    } catch (e) {
      out = { threw: e };
    }
    judge(label, { ok: true, orCoded: true, check }, ctx, out, name);
  };
  const hmacAlg = alg === 'shake128' ? 'sha256' : alg;
  sync('hash (racing)', () => fh.hash(alg, v), hexOf(alg));
  sync('hash (stable part, racing neighbours)', () => fh.hash(alg, stable), (got) => got === stableWant[alg] || `got ${got}, want ${stableWant[alg]}`);
  sync('hmac (racing key and data)', () => fh.hmac(hmacAlg, v, views[(i + 3) % views.length]), hexOf(hmacAlg));
  sync('verifyHmac (racing)', () => fh.verifyHmac(hmacAlg, views[(i + 1) % views.length], v, views[(i + 2) % views.length]), (got) => typeof got === 'boolean' || `got ${show(got)}`);
  sync('hashMany (racing)', () => fh.hashMany(alg, [v, views[(i + 4) % views.length], stable], i % 2 ? 'buffer' : 'hex'), (got) => {
    if (!Array.isArray(got) || got.length !== 3) return `got ${show(got).slice(0, 80)}`;
    const last = got[got.length - 1];
    return (Buffer.isBuffer(last) ? last.toString('hex') : last) === stableWant[alg] || 'the stable element came out wrong';
  });
  sync('HmacKey (racing key and data)', () => fh.createHmacKey(hmacAlg, v).digest(views[(i + 5) % views.length]), hexOf(hmacAlg));
  if (i % 5 === 0) {
    pending.push(settle(() => fh.hashAsync(alg, v)).then((out) => judgeAsync('hashAsync (racing)', { ok: true, orCoded: true, check: hexOf(alg) }, ctx, out, name)));
    pending.push(settle(() => fh.hmacAsync(hmacAlg, v, v)).then((out) => judgeAsync('hmacAsync (racing)', { ok: true, orCoded: true, check: hexOf(hmacAlg) }, ctx, out, name)));
  }
}

hostileTest(module, 'a SharedArrayBuffer written and grown by another thread while it is hashed', async () => {
  const sab = new SharedArrayBuffer(2 * HALF); // [0, HALF) written by the worker, [HALF, 2*HALF) stable
  new Uint8Array(sab, HALF).set(prng(HALF, 77));
  const gsab = new SharedArrayBuffer(4096, { maxByteLength: 1 << 18 });
  const flag = new Int32Array(new SharedArrayBuffer(8));
  const worker = await startWriter(sab, gsab, flag);
  const stable = new Uint8Array(sab, HALF, 4096);
  const stableWant = {};
  for (const a of ALGS) stableWant[a] = crypto.createHash(a).update(Buffer.from(stable)).digest('hex');
  const hot = () => [
    new Uint8Array(sab, 0, HALF), new Uint8Array(sab, 17, 16384), new DataView(sab, 3, 4093), new Float64Array(sab, 8, 1024),
    sab, gsab, new Uint8Array(gsab), new Uint8Array(gsab, 1), new DataView(gsab, 5),
  ];
  const RUNS = Number(process.env.HOSTILE_RACE_RUNS || 1000);
  const pending = [];
  for (let i = 0; i < RUNS; i++) {
    raceRound(i, hot(), stable, stableWant, pending);
    if (pending.length >= 32) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);
  const rounds = Atomics.load(flag, 1);
  await worker.terminate();
  if (rounds === 0) fail('race', 'the writer thread never ran', 'worker');
  return `the writer thread made ${rounds} passes; gsab grew to ${gsab.byteLength} bytes`;
});
