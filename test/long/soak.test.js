'use strict';
// Soak: millions of mixed calls of every export, over every input type, in a
// child process run with --expose-gc (a crash fails the test with its
// signal). RSS is measured after a warm-up and at the end, each after
// gc(); results are checked against node:crypto along the way; HmacKeys
// dropped without destroy() are counted as they are collected.
//
// FAST_HASH_SOAK_CALLS sets the number of calls (default: DEFAULT_CALLS,
// below, five million; e.g. `FAST_HASH_SOAK_CALLS=20000000 npx mocha
// --no-config test/long/soak.test.js` for a longer run, whose time limit grows with it).
//
// A second test makes and drops HmacKeys in a loop with little other
// garbage, and counts how many wait uncollected at once.

const path = require('path');
const ROOT = path.join(__dirname, '..', '..');
const MIB = 2 ** 20;

// Five million by default: on the development machine (2 shared cores) the
// mixed run takes 38 s when it is quiet (130k calls/s) and 52-55 s when other
// jobs load it (90k calls/s); the whole file stays under 2 minutes.
const DEFAULT_CALLS = 5000000;
const WARMUP_CALLS = 500000;
const BATCH = 10000;

// ---- the mocha side --------------------------------------------------------

function defineTests() {
  const assert = require('assert');
  const { itNative } = require('../common');
  const { childResult } = require('../child');

  const runKeys = () => childResult(__filename, ['keys'], { timeout: 110000 }).report;

  describe('soak', function () {
    // Each dropped key holds about 1 KB of native state (the keyed states,
    // OpenSSL contexts for EVP digests) that only its finalizer frees; V8
    // sees only the small JS wrappers unless the keys report that memory.
    // Keys that are never collected, or collected too late, would leave up
    // to all 400k (400+ MB) waiting. With the memory reported, 40k to 55k
    // are seen waiting for a major GC, depending on the machine's load (so
    // the bound is 100k, not the typical figure), and RSS peaks ~90 MB above
    // the start.
    itNative('HmacKeys made and dropped without destroy() in a loop: at most 100k wait uncollected at once, RSS bounded, all collected after gc', function () {
      this.timeout(120000);
      const r = runKeys();
      console.log(`      [keys] ${JSON.stringify(r)}`);
      const where = `(RSS ${r.rssStartMB} MB -> peak ${r.rssPeakMB} MB, ${r.rssEndMB} MB after gc)`;
      assert.strictEqual(r.made, KEYS_TOTAL);
      assert.ok(r.collected >= 0.9 * r.made, `${r.collected} of ${r.made} dropped HmacKeys collected after gc`);
      assert.ok(r.peakUncollected <= 100000,
        `up to ${r.peakUncollected} of ${r.made} dropped HmacKeys were uncollected at once ${where}`);
      assert.ok(r.rssPeakMB - r.rssStartMB < 200, `RSS grew too far while keys were dropped ${where}`);
    });

    it('millions of mixed calls: results right, RSS flat after warm-up (< 10 MB), dropped HmacKeys collected', function () {
      const calls = Number(process.env.FAST_HASH_SOAK_CALLS || DEFAULT_CALLS);
      // About 25 us a call at worst, seen on a loaded machine; at least 2 min.
      const budget = Math.max(120000, calls * 0.025 + 60000);
      this.timeout(budget + 10000);
      const started = Date.now();
      const r = childResult(__filename, [calls], { timeout: budget });
      console.log(`      [soak] ${Date.now() - started} ms: ${JSON.stringify(r.report)}`);

      assert.deepStrictEqual(r.bad, [], `${r.report.badCount} of ${r.report.checked} checked results differ`);
      assert.strictEqual(r.report.calls, calls);
      assert.ok(r.report.checked > calls / 10, `only ${r.report.checked} results checked`);
      for (const [name, n] of Object.entries(r.report.perExport)) {
        assert.ok(n >= calls / 200, `only ${n} ${name} calls`);
      }
      // Flat after warm-up: a leak of one byte a call over 4.5M calls would
      // already be 4.5 MB; 10 MB leaves room for allocator noise.
      assert.ok(r.report.rssGrowthMB < 10,
        `RSS grew ${r.report.rssGrowthMB} MB after warm-up (JS heap: ${r.report.heapTotalGrowthMB} MB; ` +
        `up to ${r.report.keys.maxOutstanding} dropped HmacKeys were waiting for the GC at once)`);
      // HmacKeys dropped without destroy(): by the end, after gc and a few
      // turns of the loop, at least 90% of them have been collected...
      const { created, held, collected, maxOutstanding, maxOutstandingByHalf } = r.report.keys;
      assert.ok(created > calls / 100, `only ${created} keys made`);
      assert.ok(collected >= 0.9 * (created - held),
        `${collected} of ${created - held} dropped HmacKeys collected`);
      // ...and along the way their number stays bounded: no more waiting
      // in the second half of the run than in the first (twice, plus room
      // for GC timing), and never 100k (about 50k are seen waiting for a
      // major GC; the default run drops 300k, so keys that were never
      // collected would pass 100k).
      assert.ok(maxOutstandingByHalf[1] <= 2 * maxOutstandingByHalf[0] + 10000,
        `uncollected HmacKeys: up to ${maxOutstandingByHalf[0]} in the first half, ${maxOutstandingByHalf[1]} in the second`);
      assert.ok(maxOutstanding <= 100000, `up to ${maxOutstanding} of ${created} keys were uncollected at once`);
    });
  });
}

// ---- the child side ----------------------------------------------------------

// HmacKeys made and dropped in a loop with little other garbage (one digest
// each; the loop yields after every 1000): how many wait uncollected at once,
// and what RSS does meanwhile.
const KEYS_TOTAL = 400000;

async function keysChild() {
  const { setImmediate: tick } = require('timers/promises');
  const { createHmacKey } = require(ROOT);
  const algs = ['sha256', 'sha3-256', 'sha512'];
  let made = 0;
  let collected = 0;
  let peak = 0;
  let rssPeak = 0;
  const registry = new FinalizationRegistry(() => { collected++; });
  const rssAfterGc = async () => {
    for (let j = 0; j < 6; j++) { global.gc(); await tick(); }
    return process.memoryUsage().rss;
  };
  const rssStart = await rssAfterGc();
  const t0 = Date.now();
  for (let b = 0; b < KEYS_TOTAL / 1000; b++) {
    for (let i = 0; i < 1000; i++) {
      const k = createHmacKey(algs[i % 3], `key ${i}`);
      registry.register(k, undefined);
      made++;
      k.digest('message');
    }
    await tick();
    peak = Math.max(peak, made - collected);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }
  const ms = Date.now() - t0;
  const rssEnd = await rssAfterGc();
  registry.unregister(algs); // keeps the registry alive through the count
  const mb = (n) => Math.round((n / MIB) * 10) / 10;
  return {
    report: {
      made, collected, peakUncollected: peak, ms,
      rssStartMB: mb(rssStart), rssPeakMB: mb(rssPeak), rssEndMB: mb(rssEnd),
    },
  };
}

async function runChild(totalCalls) {
  const fs = require('fs');
  const os = require('os');
  const crypto = require('crypto');
  const { setImmediate: tick } = require('timers/promises');
  const fh = require(ROOT);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-soak-'));
  try {
    return await soak(totalCalls, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  async function soak(total, tmp) {
    // Deterministic bytes (an LCG, 4 bytes a step).
    const pattern = (n, seed) => {
      const b = Buffer.allocUnsafe(n + 4);
      let x = seed >>> 0;
      for (let i = 0; i < n; i += 4) { x = (Math.imul(x, 1103515245) + 12345) >>> 0; b.writeUInt32LE(x, i); }
      return b.subarray(0, n);
    };

    const ALGS = ['sha256', 'sha1', 'md5', 'sha512', 'sha384', 'sha3-256', 'blake2b512', 'sha512-256',
      'ripemd160', 'sm3', 'shake128', 'shake256'].filter((a) => crypto.getHashes().includes(a));
    const HMAC_ALGS = ALGS.filter((a) => !a.startsWith('shake'));
    const ENCS = ['hex', 'base64', 'buffer', 'base64url', 'latin1', 'hex', 'hex', 'utf16le'];

    // The input pool: every accepted type. Each entry: [value, bytes].
    const pool = [];
    const sizes = [0, 1, 3, 16, 31, 55, 56, 64, 100, 128, 200, 1000, 4096];
    sizes.forEach((n, k) => {
      const raw = pattern(n + 16, k + 1);
      const bytes = raw.subarray(5, 5 + n);
      const ab = new ArrayBuffer(n);
      new Uint8Array(ab).set(bytes);
      const sab = new SharedArrayBuffer(n);
      new Uint8Array(sab).set(bytes);
      pool.push([Buffer.from(bytes), bytes]);
      pool.push([new Uint8Array(raw.buffer, raw.byteOffset + 5, n), bytes]);
      pool.push([new DataView(raw.buffer, raw.byteOffset + 5, n), bytes]);
      pool.push([ab, bytes]);
      pool.push([sab, bytes]);
      if (n % 8 === 0) pool.push([new Float64Array(ab.slice(0)), bytes]);
      if (n % 2 === 0) pool.push([new Uint16Array(ab.slice(0)), bytes]);
      const ascii = bytes.toString('latin1').replace(/[^\x20-\x7e]/g, 'q');
      pool.push([ascii, Buffer.from(ascii)]);
      // Non-ASCII: Latin-1, CJK, emoji, a lone surrogate (UTF-8 replaces it).
      const text = `é漢😀\ud800${ascii.slice(0, Math.max(0, n - 12))}`;
      pool.push([text, Buffer.from(text, 'utf8')]);
    });
    // Strings past the C side's 1024-unit stack buffer (heap copies).
    for (const [n, unit] of [[1025, 'x'], [3000, 'ü'], [5000, '漢']]) {
      const s = unit.repeat(n);
      pool.push([s, Buffer.from(s)]);
    }

    const files = [[0, 1], [100, 2], [4096, 3], [(1 << 20) + 5, 4]].map(([n, seed]) => {
      const f = path.join(tmp, `f${seed}.bin`);
      const b = pattern(n, seed);
      fs.writeFileSync(f, b);
      return [f, b];
    });

    // node:crypto's answers for the files, computed once (a bounded set).
    const cache = new Map();
    const want = (key, compute) => {
      let v = cache.get(key);
      if (v === undefined) { v = compute(); cache.set(key, v); }
      return v;
    };
    const xof = (alg, i) => (alg.startsWith('shake') ? [0, 16, 32, 64, 65, 200][i % 6] : undefined);
    const refHash = (alg, bytes, enc, len) => crypto.createHash(alg, len === undefined ? undefined : { outputLength: len })
      .update(bytes).digest(enc);
    const refHmac = (alg, key, bytes, enc) => crypto.createHmac(alg, key).update(bytes).digest(enc);
    const same = (a, b) => (Buffer.isBuffer(a) ? Buffer.isBuffer(b) && a.equals(b) : a === b);

    let checked = 0;
    let badCount = 0;
    const bad = [];
    const check = (label, got, expected) => {
      checked++;
      if (!same(got, expected)) {
        badCount++;
        if (bad.length < 10) bad.push(`${label}: got ${got}, want ${expected}`);
      }
    };

    // HmacKeys: counted as made and as collected.
    let created = 0;
    let collected = 0;
    let maxOutstanding = 0;
    const maxOutstandingByHalf = [0, 0];
    const registry = new FinalizationRegistry(() => { collected++; });
    const ring = new Array(64).fill(null); // some live a while, then are dropped
    const ringKeys = new Array(64).fill(null);

    const perExport = {};
    const count = (name) => { perExport[name] = (perExport[name] || 0) + 1; };
    let calls = 0;
    let fresh = 0;

    // One call, chosen by i; async ones push their promise to `pending`.
    // Per 100 calls: 40 hash, 14 hmac, 8 verifyHmac, 6 createHmacKey, 8
    // HmacKey#digest/verify, 8 hashMany, 5 hashAsync, 3 hmacAsync, 5
    // hashFileSync, 3 hashFile. One call in four is checked against
    // node:crypto (every file digest and every verify is).
    function call(i, pending) {
      const sel = i % 100;
      const alg = ALGS[(i >>> 3) % ALGS.length];
      const halg = HMAC_ALGS[(i >>> 2) % HMAC_ALGS.length];
      const enc = ENCS[(i >>> 1) % ENCS.length];
      const pi = (i * 7 + (i >>> 5)) % pool.length;
      let [data, bytes] = pool[pi];
      // One call in four gets a fresh input: a new string, or a new view.
      if (i % 4 === 1) {
        fresh++;
        if (i % 8 === 1) {
          data = `fresh ${i} ${i % 3 ? 'ascii' : 'ünïcödé 😀'} ${'-'.repeat(i % 97)}`;
          bytes = null;
        } else {
          const bb = pool[(i >>> 2) % pool.length][1];
          const start = i % (bb.length + 1);
          data = i % 3 ? bb.subarray(start) : new Uint8Array(bb.buffer, bb.byteOffset + start, bb.length - start);
          bytes = bb.subarray(start);
        }
      }
      const verifyNow = (i >>> 2) % 4 === 0 || i % 4 === 1 && i % 16 === 9;
      const bytesOf = () => (bytes === null ? Buffer.from(data, 'utf8') : bytes);
      const macKey = `mac key ${i % 5}${'k'.repeat((i % 3) * 70)}`; // short, and longer than a block
      const len = xof(alg, i);
      const options = len === undefined ? enc : { outputLength: len, outputEncoding: enc };

      if (sel < 40) {
        count('hash');
        const r = fh.hash(alg, data, options);
        if (verifyNow) check(`hash ${alg} ${enc} ${len}`, r, refHash(alg, bytesOf(), enc, len));
      } else if (sel < 54) {
        count('hmac');
        const r = fh.hmac(halg, macKey, data, enc);
        if (verifyNow) check(`hmac ${halg} ${enc}`, r, refHmac(halg, macKey, bytesOf(), enc));
      } else if (sel < 62) {
        count('verifyHmac');
        const mac = refHmac(halg, macKey, bytesOf(), 'hex');
        const wrong = i % 3 === 0;
        const given = wrong ? `${mac.slice(0, -1)}${mac.endsWith('0') ? '1' : '0'}` : mac;
        check(`verifyHmac ${halg} ${wrong}`, fh.verifyHmac(halg, macKey, data, given), !wrong);
      } else if (sel < 68) {
        // createHmacKey: most dropped at once without destroy(), some kept
        // in the ring a while (then dropped), some destroyed.
        count('createHmacKey');
        const k = fh.createHmacKey(halg, macKey);
        created++;
        registry.register(k, undefined);
        if (i % 5 === 0) {
          const slot = (i >>> 3) % ring.length;
          ring[slot] = k;
          ringKeys[slot] = [halg, macKey];
        } else if (i % 7 === 0) {
          k.destroy();
        } else if (i % 2) {
          const r = k.digest(data, enc);
          if (verifyNow) check(`HmacKey#digest (new) ${halg}`, r, refHmac(halg, macKey, bytesOf(), enc));
        }
      } else if (sel < 76) {
        count('HmacKey#digest/verify');
        const slot = i % ring.length;
        const k = ring[slot];
        if (k === null) {
          fh.hash('sha256', data); // an empty slot: another hash
        } else {
          const [kalg, kkey] = ringKeys[slot];
          if (i % 2) {
            const r = k.digest(data, enc);
            if (verifyNow) check(`HmacKey#digest ${kalg}`, r, refHmac(kalg, kkey, bytesOf(), enc));
          } else if (verifyNow) {
            check(`HmacKey#verify ${kalg}`, k.verify(data, refHmac(kalg, kkey, bytesOf(), 'buffer')), true);
          } else {
            k.verify(data, 'not hex');
          }
        }
      } else if (sel < 84) {
        count('hashMany');
        const list = [];
        for (let j = 0; j < 1 + (i % 9); j++) list.push(pool[(pi + j * 13) % pool.length]);
        const r = fh.hashMany(alg, list.map((x) => x[0]), options);
        check(`hashMany ${alg} length`, r.length, list.length);
        if (verifyNow) list.forEach((x, j) => check(`hashMany ${alg} ${enc} [${j}]`, r[j], refHash(alg, x[1], enc, len)));
      } else if (sel < 89) {
        count('hashAsync');
        const b = verifyNow ? Buffer.from(bytesOf()) : null;
        pending.push(fh.hashAsync(alg, data, options)
          .then((r) => { if (b) check(`hashAsync ${alg} ${enc}`, r, refHash(alg, b, enc, len)); }));
      } else if (sel < 92) {
        count('hmacAsync');
        const b = verifyNow ? Buffer.from(bytesOf()) : null;
        pending.push(fh.hmacAsync(halg, macKey, data, enc)
          .then((r) => { if (b) check(`hmacAsync ${halg} ${enc}`, r, refHmac(halg, macKey, b, enc)); }));
      } else {
        // Files: the small ones, and one time in 160 one over the 1 MiB
        // read chunk.
        const [f, b] = files[i % 2000 === 95 ? 3 : i % 3];
        const expect = () => want(`${alg}|${enc}|${len}|${f}`, () => refHash(alg, b, enc, len));
        if (sel < 97) {
          count('hashFileSync');
          check(`hashFileSync ${alg} ${enc} ${f}`, fh.hashFileSync(alg, f, options), expect());
        } else {
          count('hashFile');
          pending.push(fh.hashFile(alg, f, options).then((r) => check(`hashFile ${alg} ${enc} ${f}`, r, expect())));
        }
      }
      calls++;
    }

    const rssAfterGc = async () => {
      for (let j = 0; j < 4; j++) { global.gc(); await tick(); }
      return process.memoryUsage();
    };

    const warmup = Math.min(WARMUP_CALLS, Math.floor(total / 10));
    let memWarm;
    let warmAt = 0;
    const t0 = process.hrtime.bigint();
    for (let done = 0; done < total;) {
      const n = Math.min(BATCH, total - done, warmup > done ? warmup - done : Infinity);
      const pending = [];
      for (let j = 0; j < n; j++) call(done + j, pending);
      await Promise.all(pending);
      done += n;
      // A full collection per batch: dropped HmacKeys' native states are
      // freed by finalizers, which run only after a full GC; without it the
      // RSS measured would be V8's GC scheduling (how many dropped keys it
      // lets wait), not what the addon leaks. The keys-only test below
      // measures that waiting without forced collections.
      global.gc();
      // The finalization callbacks run between batches.
      await tick();
      maxOutstanding = Math.max(maxOutstanding, created - collected);
      const half = done * 2 > total ? 1 : 0;
      maxOutstandingByHalf[half] = Math.max(maxOutstandingByHalf[half], created - collected);
      if (done === warmup) {
        memWarm = await rssAfterGc();
        warmAt = process.hrtime.bigint();
      }
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const afterWarmSeconds = Number(process.hrtime.bigint() - warmAt) / 1e9;
    const memEnd = await rssAfterGc();

    // Drop the ring too, then give the GC and the finalizers a few turns.
    // (The registry is used below, so it cannot be collected before its
    // callbacks have run.)
    const held = 0;
    ring.fill(null);
    for (let j = 0; j < 10; j++) { global.gc(); await tick(); }
    registry.unregister(ring);

    const mb = (n) => Math.round((n / MIB) * 100) / 100;
    return {
      bad,
      report: {
        calls,
        seconds: Math.round(seconds * 10) / 10,
        callsPerSecond: Math.round(calls / seconds),
        callsPerSecondAfterWarmup: Math.round((calls - warmup) / afterWarmSeconds),
        warmupCalls: warmup,
        rssWarmMB: mb(memWarm.rss),
        rssEndMB: mb(memEnd.rss),
        rssGrowthMB: mb(memEnd.rss - memWarm.rss),
        heapUsedGrowthMB: mb(memEnd.heapUsed - memWarm.heapUsed),
        externalGrowthMB: mb(memEnd.external - memWarm.external),
        heapTotalGrowthMB: mb(memEnd.heapTotal - memWarm.heapTotal),
        checked,
        badCount,
        freshInputs: fresh,
        keys: { created, held, collected, maxOutstanding, maxOutstandingByHalf },
        perExport,
      },
    };
  }
}

// Run as a child (the number of calls in argv, or `keys`), or loaded by mocha.
require('../child').childEntry(module, ([what]) => (what === 'keys' ? keysChild() : runChild(Number(what))), defineTests);
