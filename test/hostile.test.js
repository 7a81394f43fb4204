'use strict';
// Hostile arguments: thousands of random hostile values (fast-check) in every
// argument position of every export, plus tables of named cases (detached and
// resizable buffers, proxies, throwing getters, re-entrant getters, fake
// views and URLs, HmacKey with foreign `this`), plus a SharedArrayBuffer that
// another thread writes and grows while it is hashed.
//
// The rule for every call: it returns the right result (node:crypto decides,
// where the input is valid), or it throws (the async functions: reject) an
// Error whose `code` is a string. An exception thrown by the caller's own
// getter or proxy trap must come out unchanged (the same object), and when
// such a getter is one the function has to read (an options property, an
// element of hashMany's array), it must come out rather than a coded error.
// Invalid input must not give a result.
//
// The calls run in child processes (this file, run with CHILD as its first
// argument), so a crash fails a test with its signal instead of killing
// mocha; a crashed run is repeated with tracing on to name the call that
// crashed. Every distinct failure is listed once, with its shortest example.
// FC_SEED=<n> replays a run (the seed is printed with the counts).
//
// Cases that found bugs once (fixed; kept as regression cases): detached
// ArrayBuffers, revoked proxies, HmacKey methods with a primitive `this`,
// fake and proxied paths, re-entrant options getters, hashMany arrays with
// their own iterator/slice/species, and names OpenSSL fetches but
// node:crypto refuses (KECCAK-KMAC-128).

const MARK = 'HOSTILE-REPORT ';
const CHILD = '--fast-hash-hostile-child';

if (require.main === module && process.argv[2] === CHILD) {
  runChild(process.argv[3]).then((report) => {
    process.stdout.write(`\n${MARK}${JSON.stringify(report)}\n`, () => process.exit(0));
  }, (err) => {
    process.stderr.write(`hostile child harness error: ${err && err.stack ? err.stack : String(err)}\n`);
    process.exit(3);
  });
} else {
  defineTests();
}

// ---- mocha side -----------------------------------------------------------------

function defineTests() {
  const assert = require('assert');
  const fs = require('fs');
  const os = require('os');
  const path = require('path');
  const { spawnSync } = require('child_process');

  const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : (Date.now() ^ (Math.random() * 0x7fffffff)) >>> 0;
  const MODES = [
    ['random', 'random hostile values in every argument position of the sync functions'],
    ['random-async', 'random hostile values in every argument position of hashAsync, hmacAsync and hashFile'],
    ['table', 'named cases: detached/resizable buffers, proxies, getters, re-entrancy, paths, HmacKey this'],
    ['race', 'a SharedArrayBuffer written and grown by another thread while it is hashed'],
  ];

  const spawnChild = (mode, dir, trace) => spawnSync(process.execPath, ['--expose-gc', __filename, CHILD, mode], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    timeout: 240000,
    killSignal: 'SIGKILL',
    env: { ...process.env, FC_SEED: String(seed), HOSTILE_TRACE: trace ? '1' : '' },
  });
  const tail = (text, n = 30) => String(text || '').split('\n').slice(-n).join('\n');

  describe('hostile arguments', function () {
    this.timeout(300000);
    let dir;
    before(function () {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-hostile-'));
    });
    after(function () {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    for (const [mode, title] of MODES) {
      it(`${title} (child process)`, function () {
        const t0 = Date.now();
        const r = spawnChild(mode, dir, false);
        const secs = ((Date.now() - t0) / 1000).toFixed(1);
        if (r.error) {
          assert.fail(`child "${mode}" did not finish (seed ${seed}): ${r.error.message}\n${tail(r.stderr)}`);
        }
        if (r.signal !== null || r.status !== 0) {
          // Again, tracing every call, to name the one that kills the process.
          const again = spawnChild(mode, dir, true);
          const last = (String(again.stderr).match(/^CALL .*$/gm) || ['(no call traced)']).pop();
          assert.fail(`child "${mode}" died: ${r.signal ? `signal ${r.signal}` : `exit status ${r.status}`} ` +
            `(seed ${seed}, FC_SEED=${seed} to replay)\nlast call of the traced rerun ` +
            `(which ended with ${again.signal || `status ${again.status}`}): ${last.slice(0, 2000)}\n` +
            `stderr:\n${tail(r.stderr)}`);
        }
        const line = String(r.stdout).split('\n').reverse().find((l) => l.startsWith(MARK));
        assert.ok(line, `child "${mode}" printed no report\nstdout:\n${tail(r.stdout)}\nstderr:\n${tail(r.stderr)}`);
        const report = JSON.parse(line.slice(MARK.length));
        console.log(`      ${mode}: ${report.calls} calls in ${secs} s (seed ${seed})${report.note ? `, ${report.note}` : ''}`);
        if (report.failures.length > 0) {
          const list = report.failures.map((f, i) =>
            `${i + 1}) ${f.sig}\n     [${f.count}x, in: ${f.fns}]\n     first: ${f.what}\n     e.g. ${f.example}`).join('\n');
          assert.fail(`${report.failures.length} kinds of failure in ${report.calls} calls ` +
            `(seed ${seed}, FC_SEED=${seed} to replay):\n${list}`);
        }
      });
    }
  });
}

// ---- child side -------------------------------------------------------------------

async function runChild(mode) {
  const crypto = require('crypto');
  const fs = require('fs');
  const path = require('path');
  const url = require('url');
  const util = require('util');
  const { MessageChannel, Worker } = require('worker_threads');
  const { constants: { MAX_LENGTH } } = require('buffer');
  const fc = require('fast-check');
  const fh = require('..');
  const { bytes: prng } = require('./common');

  const {
    isProxy, isAnyArrayBuffer, isArrayBuffer, isSharedArrayBuffer, isArrayBufferView, isDataView,
    isUint8Array, isKeyObject, isCryptoKey,
  } = util.types;
  const SEED = Number(process.env.FC_SEED) >>> 0;
  const TRACE = process.env.HOSTILE_TRACE === '1';

  // ---- bookkeeping ----------------------------------------------------------------
  let calls = 0;
  const tally = { results: 0, coded: 0, passedThrough: 0 };
  const failures = new Map();
  // Text after ' || ' is detail, left out of the grouping.
  const normalize = (s) => String(s).split(' || ')[0].replace(/(operator to search for '[^']*' in ).*$/, '$1…').replace(/"[^"]*"|'[^']*'/g, '"…"').replace(/\b[0-9a-f]{16,}\b/g, '<hex>')
    .replace(/\d+/g, 'N').slice(0, 240);
  // Failures are grouped by what went wrong (errors: across functions;
  // wrong results: per function), each with its shortest example.
  function fail(fn, what, example) {
    const perFunction = /^(wrong result|returned|threw the caller|replaced|threw [A-Z_]+ ?\(|threw [A-Z_]+, expected|threw on valid)/.test(what);
    const sig = perFunction ? `${fn}: ${normalize(what)}` : normalize(what);
    const text = typeof example === 'function' ? example() : example;
    const known = failures.get(sig);
    if (!known) {
      failures.set(sig, { sig, count: 1, fns: new Set([fn]), what: String(what).slice(0, 600), example: text.slice(0, 1500) });
    } else {
      known.count++;
      known.fns.add(fn);
      if (text.length < known.example.length) {
        known.example = text.slice(0, 1500);
        known.what = String(what).slice(0, 600);
      }
    }
  }
  const report = (note) => ({
    mode, seed: SEED, calls, note: `${note}; ${tally.results} results checked, ${tally.coded} coded errors, ${tally.passedThrough} caller exceptions passed through`, failures: [...failures.values()].map((f) => ({ ...f, fns: [...f.fns].join(', ') })),
  });

  // Formats values and specs for messages, without running user code.
  function fmt(v, depth = 0) {
    try {
      if (typeof v === 'string') return v.length > 60 ? `${JSON.stringify(v.slice(0, 40))}…(${v.length} chars)` : JSON.stringify(v);
      if (typeof v === 'bigint') return `${v}n`;
      if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
      if (typeof v === 'symbol') return v.toString();
      if (v === undefined || v === null || typeof v === 'boolean') return String(v);
      if (typeof v === 'function') return `[function ${v.name || 'anonymous'}]`;
      if (isProxy(v)) return '[Proxy]';
      if (Buffer.isBuffer(v)) return `<Buffer ${v.length > 24 ? `${v.subarray(0, 24).toString('hex')}…(${v.length})` : v.toString('hex')}>`;
      if (isUint8Array(v) && Object.getPrototypeOf(v) === Uint8Array.prototype) return `Uint8Array<${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex').slice(0, 48)}${v.length > 24 ? `…(${v.length})` : ''}>`;
      if (Array.isArray(v)) return depth > 3 ? '[…]' : `[${v.slice(0, 8).map((x) => fmt(x, depth + 1)).join(', ')}${v.length > 8 ? `, …(${v.length})` : ''}]`;
      if (Object.getPrototypeOf(v) === Object.prototype && depth <= 3) {
        return `{ ${Object.keys(v).map((k) => `${k}: ${fmt(v[k], depth + 1)}`).join(', ')} }`;
      }
      return `[object ${Object.prototype.toString.call(v).slice(8, -1)}]`;
    } catch {
      return '[unprintable]';
    }
  }
  function show(v) {
    try {
      if (Buffer.isBuffer(v)) return `<Buffer ${v.toString('hex')}>`;
      if (Array.isArray(v)) return `[${v.map(show).join(', ')}]`;
      if (typeof v === 'string') return JSON.stringify(v);
      if (typeof v === 'object' && v !== null) return `object ${fmt(v)}`;
      return `${typeof v}:${String(v)}`;
    } catch {
      return '[unprintable]';
    }
  }
  const errText = (e) => {
    try {
      if (e instanceof Error) return `${e.name}${e.code !== undefined ? ` [${fmt(e.code)}]` : ''}: ${e.message}`;
      return `non-Error thrown: ${fmt(e)}`;
    } catch {
      return 'unprintable exception';
    }
  };
  const isCoded = (e) => e instanceof Error && typeof e.code === 'string';

  // ---- user code: sentinels, getters, proxies ----------------------------------------
  // Everything the caller's own code throws is a fresh sentinel, recorded per call.
  let sentinelKind = 0;
  class Ctx {
    constructor() {
      this.sentinels = new Set();
    }

    sentinel() {
      const k = sentinelKind++ % 3;
      const s = k === 0 ? new Error('user sentinel') : k === 1 ? { userSentinel: sentinelKind } : Symbol('user sentinel');
      this.sentinels.add(s);
      return s;
    }
  }
  const GETTERS = new WeakMap(); // accessor -> { throws } | { returns }
  const THROWERS = new WeakMap(); // method -> sentinel it throws
  const PROXIES = new WeakMap(); // proxy -> { mode, target, sentinel }
  const throwing = (ctx) => {
    const s = ctx.sentinel();
    const f = function () { throw s; };
    GETTERS.set(f, { throws: s });
    THROWERS.set(f, s);
    return f;
  };
  const returning = (value) => {
    const f = function () { return value; };
    GETTERS.set(f, { returns: value });
    return f;
  };
  const TRAPS = ['getPrototypeOf', 'setPrototypeOf', 'isExtensible', 'preventExtensions', 'getOwnPropertyDescriptor',
    'defineProperty', 'has', 'get', 'set', 'deleteProperty', 'ownKeys', 'apply', 'construct'];
  function throwAllProxy(target, ctx, handlerIsProxy) {
    const s = ctx.sentinel();
    const thrower = () => { throw s; };
    const handler = handlerIsProxy ? new Proxy({}, { get: thrower }) :
      Object.fromEntries(TRAPS.map((t) => [t, thrower]));
    const p = new Proxy(target, handler);
    PROXIES.set(p, { mode: 'throwAll', target, sentinel: s });
    return p;
  }
  function revokedProxy(target) {
    const { proxy, revoke } = Proxy.revocable(target, {});
    revoke();
    PROXIES.set(proxy, { mode: 'revoked', target });
    return proxy;
  }
  function transparentProxy(target) {
    const p = new Proxy(target, {});
    PROXIES.set(p, { mode: 'transparent', target });
    return p;
  }

  // [[Get]] as the shim performs it, worked out without running user code:
  // { value } | { user: sentinel, must: true } | { bad } | { unknown }.
  function safeGet(obj, key) {
    let o = obj;
    for (let depth = 0; o !== null && o !== undefined && depth < 64; depth++) {
      if (isProxy(o)) {
        const p = PROXIES.get(o);
        if (!p) return { unknown: true };
        if (p.mode === 'throwAll') return { user: p.sentinel, must: true };
        if (p.mode === 'revoked') return { bad: undefined };
        o = p.target;
        continue;
      }
      const d = Object.getOwnPropertyDescriptor(o, key);
      if (d) {
        if ('value' in d) return { value: d.value };
        if (d.get === undefined) return { value: undefined };
        const g = GETTERS.get(d.get);
        if (!g) return { unknown: true };
        return 'throws' in g ? { user: g.throws, must: true } : { value: g.returns };
      }
      o = Object.getPrototypeOf(o);
    }
    return { value: undefined };
  }

  // ---- what node:crypto makes of the arguments ------------------------------------
  const TA = Object.getPrototypeOf(Uint8Array.prototype);
  const getterOf = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const call = (f, self) => Reflect.apply(f, self, []);
  const [taBuffer, taOffset, taLength] = ['buffer', 'byteOffset', 'byteLength'].map((n) => getterOf(TA, n));
  const [dvBuffer, dvOffset, dvLength] = ['buffer', 'byteOffset', 'byteLength'].map((n) => getterOf(DataView.prototype, n));
  const abLength = getterOf(ArrayBuffer.prototype, 'byteLength');
  const urlHref = getterOf(URL.prototype, 'href');

  // The bytes a view or buffer shows to JS right now (detached, out of
  // bounds: none), read through the intrinsic getters.
  function visibleBytes(v) {
    try {
      if (isArrayBufferView(v)) {
        const dv = isDataView(v);
        const buf = call(dv ? dvBuffer : taBuffer, v);
        const off = call(dv ? dvOffset : taOffset, v);
        const len = call(dv ? dvLength : taLength, v);
        return Buffer.from(new Uint8Array(buf, off, len));
      }
      if (isSharedArrayBuffer(v)) return Buffer.from(new Uint8Array(v));
      if (isArrayBuffer(v)) return call(abLength, v) === 0 ? Buffer.alloc(0) : Buffer.from(new Uint8Array(v));
    } catch {
      return Buffer.alloc(0);
    }
    throw new Error('visibleBytes: not bytes');
  }

  const algCache = new Map();
  // { ok: { name, size, xof } } | { bad: code }
  function algRef(name, forHmac) {
    if (typeof name !== 'string') return { bad: 'ERR_INVALID_ARG_TYPE' };
    let info = algCache.get(name);
    if (info === undefined) {
      info = null;
      if (!name.includes('\0') && Buffer.byteLength(name) < 127) {
        try {
          const size = crypto.createHash(name).digest().length;
          let xof = false;
          try {
            crypto.createHash(name, { outputLength: size + 1 }).digest();
            xof = true;
          } catch { /* fixed size */ }
          info = { name, size, xof };
        } catch { /* node:crypto refuses it */ }
      }
      if (algCache.size > 50000) algCache.clear();
      algCache.set(name, info);
    }
    if (info === null) return { bad: 'ERR_CRYPTO_INVALID_DIGEST' };
    if (forHmac && info.xof) return { bad: 'ERR_CRYPTO_INVALID_DIGEST' };
    return { ok: info };
  }

  // encoding name (lower case) -> what node:crypto's digest() takes
  const ENC = new Map([
    ['hex', 'hex'], ['base64', 'base64'], ['base64url', 'base64url'], ['latin1', 'latin1'], ['binary', 'latin1'],
    ['buffer', 'buffer'], ['utf8', 'utf8'], ['utf-8', 'utf8'], ['', 'utf8'], ['ucs2', 'utf16le'], ['ucs-2', 'utf16le'],
    ['utf16le', 'utf16le'], ['utf-16le', 'utf16le'], ['ascii', 'ascii'],
  ]);
  function encRef(v, forMac) {
    if (typeof v !== 'string') return { bad: 'ERR_INVALID_ARG_TYPE' };
    const e = ENC.get(v) ?? ENC.get(v.toLowerCase());
    if (e === undefined || (forMac && e === 'buffer')) return { bad: 'ERR_INVALID_ARG_VALUE' };
    return { ok: e };
  }
  function optionsRef(v, withLength) {
    if (v === undefined) return { ok: { enc: 'hex', length: -1 } };
    if (typeof v === 'string') {
      const e = encRef(v, false);
      return 'ok' in e ? { ok: { enc: e.ok, length: -1 } } : e;
    }
    if (typeof v !== 'object' || v === null) return { bad: 'ERR_INVALID_ARG_TYPE' };
    const e = safeGet(v, 'outputEncoding');
    if (!('value' in e)) return e;
    let enc = 'hex';
    if (e.value !== undefined) {
      const r = encRef(e.value, false);
      if (!('ok' in r)) return r;
      enc = r.ok;
    }
    let length = -1;
    if (withLength) {
      const l = safeGet(v, 'outputLength');
      if (!('value' in l)) return l;
      if (l.value !== undefined) {
        if (typeof l.value !== 'number') return { bad: 'ERR_INVALID_ARG_TYPE' };
        if (!Number.isSafeInteger(l.value) || l.value < 0) return { bad: 'ERR_OUT_OF_RANGE' };
        length = l.value;
      }
    }
    return { ok: { enc, length } };
  }
  function lengthRef(A, O) {
    if (!('ok' in A) || !('ok' in O)) return { ok: 0 };
    const alg = A.ok;
    const n = O.ok.length;
    if (n === -1 || n === alg.size) return { ok: alg.size };
    if (!alg.xof) return { bad: 'ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH' };
    if (n > Math.min(MAX_LENGTH, 2 ** 32 - 1)) return { bad: 'ERR_OUT_OF_RANGE' };
    return { ok: n + 0 };
  }
  function dataRef(v) {
    if (typeof v === 'string') return { ok: v };
    if (isArrayBufferView(v) || isAnyArrayBuffer(v)) return { ok: visibleBytes(v) };
    return { bad: 'ERR_INVALID_ARG_TYPE' };
  }
  function keyRef(v) {
    const d = dataRef(v);
    if ('ok' in d) return d;
    if (isProxy(v)) {
      const p = PROXIES.get(v);
      if (!p) return { unknown: true };
      if (p.mode === 'throwAll') return { user: p.sentinel };
      if (p.mode === 'revoked') return { bad: undefined };
      // Node 26's isKeyObject no longer sees through a proxy (Node 20's reads
      // a property through it, and the trap decides): the runtime says.
      let seen;
      try {
        seen = isKeyObject(v);
      } catch {
        seen = true;
      }
      return isKeyObject(p.target) && seen ? keyRef(p.target) : { bad: 'ERR_INVALID_ARG_TYPE' };
    }
    let ko;
    if (isKeyObject(v)) ko = v;
    else if (isCryptoKey(v)) ko = crypto.KeyObject.from(v);
    else return { bad: 'ERR_INVALID_ARG_TYPE' };
    return ko.type === 'secret' ? { ok: ko.export() } : { bad: 'ERR_CRYPTO_INVALID_KEY_OBJECT_TYPE' };
  }
  function macRef(v) {
    if (typeof v === 'string') return { ok: { text: v } };
    if (isArrayBufferView(v) || isAnyArrayBuffer(v)) return { ok: { bytes: visibleBytes(v) } };
    return { bad: 'ERR_INVALID_ARG_TYPE' };
  }
  function macEncRef(v) {
    if (v === undefined) return { ok: 'hex' };
    return encRef(v, true);
  }
  // verifyHmac's answer for `given` in `enc` against the right MAC.
  function macMatches(given, enc, mac) {
    if (given.bytes) return given.bytes.equals(mac);
    const s = given.text;
    switch (enc) {
      case 'hex':
        return /^[0-9a-fA-F]*$/.test(s) && s.toLowerCase() === mac.toString('hex');
      case 'base64': {
        const b = mac.toString('base64');
        return s === b || s === b.replace(/=+$/, '');
      }
      case 'base64url': {
        const b = mac.toString('base64url');
        return s === b || s === b + '='.repeat((4 - (b.length % 4)) % 4);
      }
      case 'latin1':
        return s === mac.toString('latin1');
      default:
        return Buffer.from(s, enc).equals(mac);
    }
  }
  function inputsRef(v) {
    let arr = v;
    if (isProxy(v)) {
      const p = PROXIES.get(v);
      if (!p) return { unknown: true };
      if (p.mode === 'revoked') return { bad: undefined };
      if (!Array.isArray(p.target)) return { bad: 'ERR_INVALID_ARG_TYPE' };
      if (p.mode === 'throwAll') return { user: p.sentinel, must: true };
      arr = p.target;
    } else if (!Array.isArray(v)) {
      return { bad: 'ERR_INVALID_ARG_TYPE' };
    }
    const out = [];
    for (let i = 0; i < arr.length; i++) {
      const g = safeGet(arr, String(i));
      if (!('value' in g)) return g;
      const d = dataRef(g.value);
      if (!('ok' in d)) return { bad: 'ERR_INVALID_ARG_TYPE' };
      out.push(d.ok);
    }
    return { ok: out };
  }
  function pathRef(v) {
    let p;
    if (typeof v === 'string') {
      if (v.includes('\0')) return { bad: 'ERR_INVALID_ARG_VALUE' };
      p = v;
    } else if (isProxy(v)) {
      // Brand checks see through no Proxy, and run none of its traps.
      return { bad: 'ERR_INVALID_ARG_TYPE' };
    } else if (isUint8Array(v)) {
      // A real Uint8Array (whatever its prototype): its bytes are read with
      // the typed-array intrinsics, so overridden methods and getters never run.
      p = visibleBytes(v);
      if (p.includes(0)) return { bad: 'ERR_INVALID_ARG_VALUE' };
      if (p.length === 0) p = '';
    } else if (typeof v === 'object' && v !== null && v instanceof Uint8Array) {
      return { bad: undefined }; // a fake: a coded error all the same
    } else if (typeof v === 'object' && v !== null && v instanceof URL) {
      try {
        call(urlHref, v);
      } catch {
        return { bad: undefined }; // not a real URL: a coded error all the same
      }
      try {
        p = url.fileURLToPath(v);
      } catch (e) {
        return { bad: e.code };
      }
      if (p.includes('\0')) return { bad: 'ERR_INVALID_ARG_VALUE' };
    } else {
      return { bad: 'ERR_INVALID_ARG_TYPE' };
    }
    try {
      return { ok: fs.readFileSync(p) };
    } catch (e) {
      return { bad: e.code };
    }
  }

  const digestOut = (alg, input, enc, length) => {
    const h = crypto.createHash(alg.name, alg.xof ? { outputLength: length } : undefined).update(input);
    return enc === 'buffer' ? h.digest() : h.digest(enc);
  };
  const hmacOut = (alg, key, input, enc) => {
    const h = crypto.createHmac(alg.name, key).update(input);
    return enc === 'buffer' ? h.digest() : h.digest(enc);
  };

  // Parts in the documented order -> what the call must do.
  function expectFrom(parts, compute) {
    if (parts.some((p) => p.unknown)) return { any: true };
    const bads = parts.filter((p) => 'bad' in p);
    const users = parts.filter((p) => 'user' in p);
    if (bads.length === 0 && users.length === 0) return { ok: true, value: compute() };
    if (bads.length === 0 && users.some((u) => u.must)) return { ok: false, sentinel: true };
    return { ok: false, code: bads.length === 1 && users.length === 0 ? bads[0].bad : undefined };
  }

  // Judges one outcome ({ value } or { threw }) against what was expected.
  function judge(fn, exp, ctx, outcome, example) {
    calls++;
    if ('value' in outcome) tally.results++;
    else if (ctx.sentinels.has(outcome.threw)) tally.passedThrough++;
    else if (isCoded(outcome.threw)) tally.coded++;
    if ('value' in outcome) {
      if (exp.any) return;
      if (!exp.ok) {
        fail(fn, `returned a result for an invalid argument (expected a throw${exp.code ? ` with ${exp.code}` : ''}) || ${show(outcome.value).slice(0, 100)}`, example);
        return;
      }
      const want = typeof exp.check === 'function' ? null : show(exp.value);
      const verdict = typeof exp.check === 'function' ? exp.check(outcome.value) : (show(outcome.value) === want || `got ${show(outcome.value).slice(0, 200)}, want ${want.slice(0, 200)}`);
      if (verdict !== true) fail(fn, `wrong result || ${verdict}`, example);
      return;
    }
    const e = outcome.threw;
    if (ctx.sentinels.has(e)) {
      if (exp.ok) fail(fn, 'threw the caller\'s getter/trap exception for valid arguments (read something it must not)', example);
      return;
    }
    if (isCoded(e)) {
      if (exp.ok && !exp.orCoded) {
        fail(fn, `threw on valid arguments: ${errText(e)}`, example);
      } else if (exp.sentinel) {
        fail(fn, `replaced the exception of the caller's getter/trap with ${errText(e)}`, example);
      } else if (exp.code !== undefined && exp.code !== e.code) {
        fail(fn, `threw ${e.code}, expected ${exp.code}: ${e.message.slice(0, 150)}`, example);
      }
      return;
    }
    if (e instanceof Error || typeof e !== 'object' || e === null) {
      fail(fn, `threw without a code: ${errText(e)}`, example);
    } else {
      fail(fn, `threw a foreign value: ${errText(e)}`, example);
    }
  }

  // ---- fixtures -------------------------------------------------------------------
  const cwd = process.cwd();
  fs.writeFileSync(path.join(cwd, 'small.bin'), prng(100, 7));
  fs.writeFileSync(path.join(cwd, 'chunk.bin'), prng((1 << 20) + 3, 8));
  fs.writeFileSync(path.join(cwd, 'empty.bin'), '');
  fs.mkdirSync(path.join(cwd, 'sub'), { recursive: true });
  const ecKeys = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const cryptoKeys = {
    hmac: await crypto.subtle.importKey('raw', Buffer.from('crypto key'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']),
    aes: await crypto.subtle.importKey('raw', Buffer.alloc(16, 3), { name: 'AES-GCM' }, true, ['encrypt']),
    ecPublic: await crypto.subtle.importKey('jwk', ecKeys.publicKey.export({ format: 'jwk' }), { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']),
  };

  function detach(ab, how) {
    if (how === 'transfer' && typeof ab.transfer === 'function') {
      ab.transfer();
    } else if (how === 'port') {
      const { port1, port2 } = new MessageChannel();
      port1.postMessage(null, [ab]);
      port1.close();
      port2.close();
    } else {
      structuredClone(ab, { transfer: [ab] });
    }
  }

  // ---- hostile values, described by plain specs and built fresh per call ---------
  const NAMED = {
    plainObject: () => ({}),
    nullProto: () => Object.create(null),
    emptyArray: () => [],
    numberArray: () => [1, 2, 3],
    nestedArray: () => [['a']],
    date: () => new Date(0),
    invalidDate: () => new Date(NaN),
    regexp: () => /sha256/gi,
    map: () => new Map([['outputEncoding', 'base64']]),
    set: () => new Set(['sha256']),
    weakMap: () => new WeakMap(),
    error: () => Object.assign(new Error('not an argument'), { code: 'ERR_FAKE' }),
    promise: () => Promise.resolve('sha256'),
    classInstance: () => new (class Thing { constructor() { this.outputLength = undefined; } })(),
    boxedString: () => new String('sha256'), // eslint-disable-line no-new-wrappers
    boxedHex: () => new String('hex'), // eslint-disable-line no-new-wrappers
    boxedNumber: () => new Number(32), // eslint-disable-line no-new-wrappers
    boxedBoolean: () => new Boolean(false), // eslint-disable-line no-new-wrappers
    argumentsObject: () => (function () { return arguments; })('a', 'b'), // eslint-disable-line prefer-rest-params
    func: () => function sha256() {},
    arrow: () => () => 'hex',
    klass: () => class Uint8ArrayLookalike {},
    asyncFunc: () => async function () {},
    generatorFunc: () => function* () { yield 'a'; },
    generator: () => (function* () { yield 'a'; })(),
    builtinFunc: () => Math.max,
    funcWithOptions: () => Object.assign(function () {}, { outputEncoding: 'base64', outputLength: 16 }),
    blob: () => new Blob(['abc']),
    toStringTagView: () => ({ [Symbol.toStringTag]: 'Uint8Array', length: 3, byteLength: 3 }),
    arrayLike: () => ({ length: 3, 0: 1, 1: 2, 2: 3 }),
    bufferJSON: () => ({ type: 'Buffer', data: [1, 2, 3] }),
    viewLike: () => ({ buffer: new ArrayBuffer(4), byteOffset: 0, byteLength: 4 }),
    urlLike: () => ({ href: 'file:///etc/hostname', protocol: 'file:', pathname: '/etc/hostname', host: '' }),
    keyLike: () => ({ type: 'secret', export: () => Buffer.from('k'), symmetricKeySize: 1 }),
    fakeBuffer: () => Object.setPrototypeOf({}, Buffer.prototype),
    fakeUint8Array: () => Object.setPrototypeOf({}, Uint8Array.prototype),
    fakeDataView: () => Object.setPrototypeOf({}, DataView.prototype),
    fakeArrayBuffer: () => Object.setPrototypeOf({}, ArrayBuffer.prototype),
    fakeURL: () => Object.setPrototypeOf({}, URL.prototype),
    fakeKeyObject: () => Object.setPrototypeOf({}, crypto.KeyObject.prototype),
    fakeArray: () => Object.setPrototypeOf({ length: 1, 0: 'a' }, Array.prototype),
    nullProtoBuffer: () => Object.setPrototypeOf(Buffer.from('abc'), null),
    globalObject: () => globalThis,
    mathObject: () => Math,
    httpURL: () => new URL('https://example.com/sha256'),
    hmacKeyInstance: () => fh.createHmacKey('sha256', 'k'),
    publicKeyObject: () => ecKeys.publicKey,
    privateKeyObject: () => ecKeys.privateKey,
    secretKeyObject: () => crypto.createSecretKey(Buffer.from('secret key object')),
    emptySecretKeyObject: () => crypto.createSecretKey(Buffer.alloc(0)),
    hmacCryptoKey: () => cryptoKeys.hmac,
    aesCryptoKey: () => cryptoKeys.aes,
    ecCryptoKey: () => cryptoKeys.ecPublic,
    // coercions that throw: nothing may coerce these
    toStringThrows: (ctx) => ({ toString: throwing(ctx) }),
    valueOfThrows: (ctx) => ({ valueOf: throwing(ctx) }),
    toPrimitiveThrows: (ctx) => ({ [Symbol.toPrimitive]: throwing(ctx) }),
    allCoercionsThrow: (ctx) => ({ toString: throwing(ctx), valueOf: throwing(ctx), [Symbol.toPrimitive]: throwing(ctx), toJSON: throwing(ctx) }),
    inspectThrows: (ctx) => ({ [util.inspect.custom]: throwing(ctx) }),
    constructorGetterThrows: (ctx) => Object.defineProperty({}, 'constructor', { get: throwing(ctx) }),
    constructorNameThrows: (ctx) => ({ constructor: Object.defineProperty(function () {}, 'name', { get: throwing(ctx) }) }),
    toStringTagThrows: (ctx) => Object.defineProperty({}, Symbol.toStringTag, { get: throwing(ctx) }),
    thenGetterThrows: (ctx) => Object.defineProperty({}, 'then', { get: throwing(ctx) }),
    functionNameThrows: (ctx) => Object.defineProperty(function named() {}, 'name', { get: throwing(ctx) }),
    arrayToStringThrows: (ctx) => Object.assign(['sha256'], { toString: throwing(ctx) }),
    // views whose own properties and methods throw: only their bytes count
    viewWithThrowingProps: (ctx) => {
      const u = Uint8Array.from(prng(33, 5));
      for (const p of ['length', 'byteLength', 'byteOffset', 'buffer']) Object.defineProperty(u, p, { get: throwing(ctx) });
      for (const m of ['subarray', 'slice', 'includes', 'toString', 'valueOf', 'at', Symbol.iterator]) u[m] = throwing(ctx);
      return u;
    },
    bufferWithThrowingProps: (ctx) => {
      const b = Buffer.from('buffer with throwing properties');
      for (const p of ['length', 'byteLength', 'byteOffset', 'buffer', 'parent', 'offset']) Object.defineProperty(b, p, { get: throwing(ctx) });
      for (const m of ['toString', 'includes', 'indexOf', 'slice', 'subarray', 'copy', 'equals']) b[m] = throwing(ctx);
      return b;
    },
    evilSubclassView: () => {
      class Evil extends Uint8Array {
        get length() { throw new Error('Evil length'); }

        get byteLength() { throw new Error('Evil byteLength'); }

        get byteOffset() { throw new Error('Evil byteOffset'); }
      }
      const e = new Evil(5);
      e.set([1, 2, 3, 4, 5]);
      return e;
    },
    dataViewWithThrowingProps: (ctx) => {
      // Its own ArrayBuffer: prng's Buffer is a slice of the shared pool, whose
      // other bytes change between the two times a case is built.
      const dv = new DataView(new Uint8Array(prng(40, 9)).buffer, 4, 20);
      for (const p of ['byteLength', 'byteOffset', 'buffer']) Object.defineProperty(dv, p, { get: throwing(ctx) });
      return dv;
    },
  };
  const PROXY_TARGETS = {
    object: () => ({}),
    array: () => ['a', Buffer.from('b')],
    func: () => function target() {},
    uint8array: () => Uint8Array.from([1, 2, 3]),
    dataview: () => new DataView(new ArrayBuffer(4)),
    arraybuffer: () => new ArrayBuffer(4),
    options: () => ({ outputEncoding: 'base64', outputLength: 20 }),
    keyObject: () => crypto.createSecretKey(Buffer.from('proxied key')),
    url: () => url.pathToFileURL(path.join(cwd, 'small.bin')),
  };

  const VIEW_TYPES = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'];
  function container(bytes, as, offset) {
    const b = Buffer.from(bytes);
    const place = (Ctor, off) => {
      const ab = new Ctor(off + b.length + 7);
      new Uint8Array(ab).fill(0xee);
      new Uint8Array(ab).set(b, off);
      return ab;
    };
    switch (as) {
      case 'Buffer': return b;
      case 'Uint8Array': return new Uint8Array(place(ArrayBuffer, offset), offset, b.length);
      case 'DataView': return new DataView(place(ArrayBuffer, offset), offset, b.length);
      case 'ArrayBuffer': return place(ArrayBuffer, 0).slice(0, b.length);
      case 'SharedArrayBuffer': {
        const sab = new SharedArrayBuffer(b.length);
        new Uint8Array(sab).set(b);
        return sab;
      }
      case 'SharedUint8Array': return new Uint8Array(place(SharedArrayBuffer, offset), offset, b.length);
      default: {
        const Ctor = globalThis[as];
        const size = Ctor.BYTES_PER_ELEMENT;
        const n = b.length - (b.length % size);
        return new Ctor(place(ArrayBuffer, offset * size), offset * size, n / size);
      }
    }
  }

  function make(spec, ctx) {
    switch (spec.k) {
      case 'undefined': return undefined;
      case 'null': return null;
      case 'val': return spec.v; // booleans, numbers, bigints, strings
      case 'symbol': return spec.v === 'iterator' ? Symbol.iterator : spec.v === 'for' ? Symbol.for('sha256') : Symbol(spec.v);
      case 'repeat': return spec.unit.repeat(spec.n);
      case 'named': return NAMED[spec.v](ctx);
      case 'bytes': return container(spec.bytes, spec.as, spec.offset);
      case 'big': return container(prng(spec.n, spec.seed), spec.as, 3);
      case 'secretKey': return crypto.createSecretKey(Buffer.from(spec.bytes));
      case 'proxy': {
        const target = PROXY_TARGETS[spec.target]();
        if (spec.mode === 'revoked') return revokedProxy(target);
        if (spec.mode === 'transparent') return transparentProxy(target);
        return throwAllProxy(target, ctx, spec.mode === 'handlerProxy');
      }
      case 'detached': {
        const ab = new ArrayBuffer(spec.n);
        new Uint8Array(ab).fill(7);
        const views = {
          ab: () => ab,
          u8: () => new Uint8Array(ab, Math.min(1, spec.n)),
          dv: () => new DataView(ab, Math.min(2, spec.n)),
          f64: () => new Float64Array(ab, 0, Math.floor(spec.n / 8)),
          buffer: () => Buffer.from(ab, Math.min(1, spec.n)),
        };
        const v = views[spec.view]();
        detach(ab, spec.how);
        return v;
      }
      case 'rab': {
        const max = Math.max(spec.n, spec.max);
        const rab = new ArrayBuffer(spec.n, { maxByteLength: max });
        new Uint8Array(rab).set(prng(spec.n, spec.n + 1));
        const to = spec.to % (max + 1);
        const mk = () => {
          const len = rab.byteLength;
          const off = spec.off % (len + 1);
          const fixed = spec.len % (len - off + 1);
          switch (spec.view) {
            case 'u8track': return new Uint8Array(rab, off);
            case 'u8fixed': return new Uint8Array(rab, off, fixed);
            case 'dvtrack': return new DataView(rab, off);
            case 'dvfixed': return new DataView(rab, off, fixed);
            case 'f64track': return new Float64Array(rab, off - (off % 8));
            case 'u16fixed': return new Uint16Array(rab, off - (off % 2), Math.floor((len - (off - (off % 2))) / 2));
            default: return rab;
          }
        };
        const mkOr = () => {
          try {
            return mk();
          } catch {
            return rab; // a view V8 will not make at this length
          }
        };
        let v;
        if (spec.when === 'before') {
          rab.resize(to);
          v = mkOr();
        } else {
          v = mkOr();
          rab.resize(to);
        }
        return v;
      }
      case 'gsab': {
        const max = Math.max(spec.n, spec.max);
        const g = new SharedArrayBuffer(spec.n, { maxByteLength: max });
        new Uint8Array(g).set(prng(spec.n, spec.n + 2));
        const views = { gsab: () => g, u8track: () => new Uint8Array(g, spec.n > 0 ? 1 : 0), u8fixed: () => new Uint8Array(g, 0, spec.n), dvtrack: () => new DataView(g) };
        const v = views[spec.view]();
        const to = Math.max(spec.n, spec.to % (max + 1));
        g.grow(to);
        new Uint8Array(g).fill(0x5a, spec.n);
        return v;
      }
      case 'getterObj': {
        const o = spec.base === 'array' && spec.key !== 'length' ? [] : {};
        const get = spec.throws ? throwing(ctx) : returning(make(spec.inner, ctx));
        Object.defineProperty(o, spec.key, { get, enumerable: true, configurable: true });
        return o;
      }
      case 'options': {
        const o = {};
        for (const [key, s] of [['outputEncoding', spec.enc], ['outputLength', spec.len]]) {
          if (s === null) continue;
          if (s.k === 'getterThrows') Object.defineProperty(o, key, { get: throwing(ctx), enumerable: true, configurable: true });
          else if (s.k === 'getterReturns') Object.defineProperty(o, key, { get: returning(make(s.inner, ctx)), enumerable: true, configurable: true });
          else o[key] = make(s, ctx);
        }
        return spec.inherit ? Object.create(o) : o;
      }
      case 'array': {
        const a = [];
        spec.items.forEach((it, i) => {
          if (it.k === 'hole') return;
          if (it.k === 'getterThrows') Object.defineProperty(a, i, { get: throwing(ctx), enumerable: true, configurable: true });
          else if (it.k === 'getterReturns') Object.defineProperty(a, i, { get: returning(make(it.inner, ctx)), enumerable: true, configurable: true });
          else a[i] = make(it, ctx);
        });
        a.length = spec.items.length;
        return a;
      }
      case 'path': {
        const p = spec.abs ? path.join(cwd, spec.name) : spec.name;
        switch (spec.as) {
          case 'Buffer': return Buffer.from(p);
          case 'Uint8Array': return new Uint8Array(Buffer.from(p));
          case 'URL': return url.pathToFileURL(path.join(cwd, spec.name));
          default: return p;
        }
      }
      default:
        throw new Error(`make: unknown spec ${spec.k}`);
    }
  }
  // A spec as text, for failure messages.
  function fmtSpec(s) {
    if (s === null || typeof s !== 'object') return fmt(s);
    if (Array.isArray(s)) return `[${s.map(fmtSpec).join(', ')}]`;
    if (s instanceof Uint8Array) return fmt(Buffer.from(s));
    if (s.k === undefined) return `{ ${Object.entries(s).map(([k, v]) => `${k}: ${fmtSpec(v)}`).join(', ')} }`;
    switch (s.k) {
      case 'undefined': return 'undefined';
      case 'null': return 'null';
      case 'val': return fmt(s.v);
      case 'bytes': return `${s.as}(${fmt(Buffer.from(s.bytes))}${s.offset ? ` @${s.offset}` : ''})`;
      case 'named': return `<${s.v}>`;
      case 'repeat': return `${JSON.stringify(s.unit)}.repeat(${s.n})`;
      case 'array': return `[${s.items.map(fmtSpec).join(', ')}]`;
      case 'options': return `{ outputEncoding: ${s.enc === null ? '(absent)' : fmtSpec(s.enc)}, outputLength: ${s.len === null ? '(absent)' : fmtSpec(s.len)}${s.inherit ? ', inherited' : ''} }`;
      default: {
        const rest = Object.entries(s).filter(([k]) => k !== 'k').map(([k, v]) => `${k}=${fmtSpec(v)}`).join(' ');
        return `<${s.k}${rest ? ` ${rest}` : ''}>`;
      }
    }
  }

  // ---- arbitraries -------------------------------------------------------------------
  const V = (v) => ({ k: 'val', v });
  const randomCase = (s) => fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length })
    .map((up) => [...s].map((c, i) => (up[i] ? c.toUpperCase() : c.toLowerCase())).join(''));
  const NAMES = [...crypto.getHashes(), 'SHA2-256', 'SHA-512/256', 'SHA3-256', 'SHAKE-128', 'SHAKE-256', 'sha-1', 'SHA-256', 'SHA2-512/224', '1.2.840.113549.2.5', 'MD5-SHA1', 'KECCAK-KMAC-128', 'md4', 'whirlpool'];
  const validAlg = fc.constantFrom(...NAMES).chain((n) => fc.oneof(fc.constant(n), randomCase(n))).map(V);
  const hmacAlg = fc.constantFrom(...crypto.getHashes().filter((n) => !/^shake/i.test(n))).chain((n) => fc.oneof(fc.constant(n), randomCase(n))).map(V);
  const ENC_NAMES = [...ENC.keys()];
  const validEnc = fc.constantFrom(...ENC_NAMES).chain((n) => fc.oneof(fc.constant(n), randomCase(n))).map(V);
  const macEncName = fc.constantFrom(...ENC_NAMES.filter((n) => n !== 'buffer')).chain((n) => fc.oneof(fc.constant(n), randomCase(n)));

  const hostileString = fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(V) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 12 }).map(V) },
    {
      weight: 4,
      arbitrary: fc.constantFrom('', ' ', 'sha256\0', '\0', 'sha256 ', ' sha256', 'SHA256\0junk', 'hex\0', 'HEX ', 'buffer', 'BUFFER',
        'utf-16', 'base32', 'binary\0', '__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'then', 'prototype',
        'length', '\ud800', '\udfff\ud800', 'ﬀ', 'İ', 'K', 'sha256\ud800', 'shake128', 'md4', 'null', 'undefined', 'NaN', '0',
        '-1', '1e400', 'file:///etc/passwd', '.', '..', '/', 'sub', 'missing.bin', 'small.bin\0.txt').map(V),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        k: fc.constant('repeat'),
        unit: fc.constantFrom('a', 'sha256', '\ud800', '😀', '\0', 'é', 'f'),
        n: fc.oneof(fc.integer({ min: 20, max: 130 }), fc.constantFrom(100000, 1 << 20)),
      }),
    },
  );
  const hostileNumber = fc.oneof(
    fc.double().map(V),
    fc.integer().map(V),
    fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 1, -1, 0.5, 2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 53, -(2 ** 53),
      2 ** 53 - 1, Number.MAX_VALUE, Number.MIN_VALUE, Number.EPSILON, 255, 256, 65535, MAX_LENGTH + 1, 1e21).map(V),
  );
  const hostilePrimitive = fc.oneof(
    fc.constant({ k: 'undefined' }),
    fc.constant({ k: 'null' }),
    fc.boolean().map(V),
    hostileNumber,
    fc.oneof(fc.bigInt(), fc.constantFrom(0n, -1n, 2n ** 64n, -(2n ** 63n))).map(V),
    fc.constantFrom('iterator', 'for', 'plain', '').map((v) => ({ k: 'symbol', v })),
  );
  const byteArr = fc.oneof(
    { weight: 4, arbitrary: fc.uint8Array({ maxLength: 40, size: 'max' }) },
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 40, maxLength: 300, size: 'max' }) },
  );
  const CONTAINERS = ['Buffer', 'Uint8Array', 'DataView', 'ArrayBuffer', 'SharedArrayBuffer', 'SharedUint8Array', ...VIEW_TYPES];
  const validBytes = fc.record({ k: fc.constant('bytes'), bytes: byteArr, as: fc.constantFrom(...CONTAINERS), offset: fc.nat({ max: 9 }) });
  const validText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: 0xd800, max: 0xdfff }).map((u) => String.fromCharCode(u))), { maxLength: 6 }).map((a) => a.join('')),
  ).map(V);
  const validData = fc.oneof({ weight: 3, arbitrary: validBytes }, { weight: 2, arbitrary: validText },
    { weight: 1, arbitrary: fc.record({ k: fc.constant('big'), n: fc.integer({ min: 1000, max: 200000 }), seed: fc.nat(), as: fc.constantFrom('Buffer', 'Float64Array', 'DataView', 'ArrayBuffer') }) });
  const hostileBinary = fc.oneof(
    fc.record({ k: fc.constant('detached'), n: fc.constantFrom(0, 8, 64, 1 << 16), view: fc.constantFrom('ab', 'u8', 'dv', 'f64', 'buffer'), how: fc.constantFrom('structuredClone', 'port', 'transfer') }),
    fc.record({ k: fc.constant('rab'), n: fc.nat({ max: 300 }), max: fc.constantFrom(64, 300, 1 << 16, 1 << 22), to: fc.nat({ max: 1 << 16 }), off: fc.nat({ max: 40 }), len: fc.nat({ max: 300 }), view: fc.constantFrom('rab', 'u8track', 'u8fixed', 'dvtrack', 'dvfixed', 'f64track', 'u16fixed'), when: fc.constantFrom('before', 'after') }),
    fc.record({ k: fc.constant('gsab'), n: fc.nat({ max: 200 }), max: fc.constantFrom(64, 256, 4096), to: fc.nat({ max: 4096 }), view: fc.constantFrom('gsab', 'u8track', 'u8fixed', 'dvtrack') }),
    fc.constantFrom('viewWithThrowingProps', 'bufferWithThrowingProps', 'evilSubclassView', 'dataViewWithThrowingProps', 'nullProtoBuffer').map((v) => ({ k: 'named', v })),
  );
  const hostileObject = fc.constantFrom(...Object.keys(NAMED)).map((v) => ({ k: 'named', v }));
  const hostileProxy = fc.record({ k: fc.constant('proxy'), mode: fc.constantFrom('throwAll', 'handlerProxy', 'revoked', 'transparent'), target: fc.constantFrom(...Object.keys(PROXY_TARGETS)) });
  const hostileGetterObj = fc.record({
    k: fc.constant('getterObj'),
    base: fc.constantFrom('object', 'array'),
    key: fc.constantFrom('outputEncoding', 'outputLength', 'constructor', 'length', '0', 'then', 'type', 'buffer', 'href', 'byteLength'),
    throws: fc.boolean(),
    inner: fc.oneof(validEnc, hostilePrimitive, validText),
  });
  const hostile = fc.oneof(
    { weight: 4, arbitrary: hostilePrimitive },
    { weight: 4, arbitrary: hostileString },
    { weight: 5, arbitrary: hostileObject },
    { weight: 3, arbitrary: hostileProxy },
    { weight: 2, arbitrary: hostileGetterObj },
    { weight: 3, arbitrary: hostileBinary },
  );

  const lengthSpec = fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    { weight: 3, arbitrary: fc.nat({ max: 80 }).map(V) },
    { weight: 2, arbitrary: fc.constantFrom(16, 20, 28, 32, 36, 48, 64, 65, 300).map(V) },
    { weight: 2, arbitrary: fc.constantFrom(-1, -0, 0.5, NaN, Infinity, -Infinity, 2 ** 53, 2 ** 53 - 1, MAX_LENGTH + 1, 1e21, 2 ** 64).map(V) },
    { weight: 1, arbitrary: fc.constantFrom({ k: 'undefined' }, { k: 'null' }, V('32'), V(32n), V(true), { k: 'named', v: 'plainObject' }, { k: 'symbol', v: 'x' }, { k: 'getterThrows' }) },
    { weight: 1, arbitrary: fc.nat({ max: 80 }).map((n) => ({ k: 'getterReturns', inner: V(n) })) },
  );
  const encSpec = fc.oneof(
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 5, arbitrary: validEnc },
    { weight: 1, arbitrary: fc.constant({ k: 'undefined' }) },
    { weight: 1, arbitrary: fc.constant({ k: 'getterThrows' }) },
    { weight: 1, arbitrary: validEnc.map((inner) => ({ k: 'getterReturns', inner })) },
    { weight: 2, arbitrary: fc.oneof(hostilePrimitive, hostileString, hostileObject) },
  );
  const optionsSpec = fc.record({ k: fc.constant('options'), enc: encSpec, len: lengthSpec, inherit: fc.boolean() });
  const OPTS = fc.oneof(
    { weight: 3, arbitrary: fc.constant({ k: 'undefined' }) },
    { weight: 3, arbitrary: validEnc },
    { weight: 5, arbitrary: optionsSpec },
    { weight: 2, arbitrary: hostile },
  );
  const ALG = fc.oneof({ weight: 9, arbitrary: validAlg }, { weight: 1, arbitrary: hmacAlg }, { weight: 2, arbitrary: hostile });
  const DATA = fc.oneof({ weight: 8, arbitrary: validData }, { weight: 2, arbitrary: hostileBinary }, { weight: 2, arbitrary: hostile });
  const KEY = fc.oneof(
    { weight: 7, arbitrary: validData },
    { weight: 2, arbitrary: fc.record({ k: fc.constant('secretKey'), bytes: fc.uint8Array({ maxLength: 200, size: 'max' }) }) },
    { weight: 1, arbitrary: fc.constantFrom('publicKeyObject', 'privateKeyObject', 'emptySecretKeyObject', 'hmacCryptoKey', 'aesCryptoKey', 'ecCryptoKey').map((v) => ({ k: 'named', v })) },
    { weight: 1, arbitrary: hostileBinary },
    { weight: 2, arbitrary: hostile },
  );
  const rightMac = fc.record({
    k: fc.constant('rightMac'),
    enc: fc.oneof(fc.constant(undefined), macEncName),
    flip: fc.boolean(),
    bit: fc.nat(),
    upper: fc.boolean(),
    unpadded: fc.boolean(),
    asBytes: fc.constantFrom(null, null, null, 'Buffer', 'DataView', 'ArrayBuffer', 'Float64Array', 'SharedArrayBuffer'),
  });
  const MAC = fc.oneof({ weight: 5, arbitrary: rightMac }, { weight: 2, arbitrary: validData }, { weight: 2, arbitrary: hostile });
  const MACENC = fc.oneof(
    { weight: 3, arbitrary: fc.constant({ k: 'undefined' }) },
    { weight: 4, arbitrary: macEncName.map(V) },
    { weight: 1, arbitrary: fc.constant(V('buffer')) },
    { weight: 2, arbitrary: hostile },
  );
  const item = fc.oneof(
    { weight: 10, arbitrary: validData },
    { weight: 1, arbitrary: fc.constant({ k: 'hole' }) },
    { weight: 1, arbitrary: fc.constant({ k: 'getterThrows' }) },
    { weight: 1, arbitrary: validData.map((inner) => ({ k: 'getterReturns', inner })) },
    { weight: 1, arbitrary: hostileBinary },
    { weight: 1, arbitrary: fc.oneof(hostilePrimitive, hostileObject, hostileProxy) },
  );
  const INPUTS = fc.oneof(
    { weight: 6, arbitrary: fc.array(validData, { maxLength: 10, size: 'max' }).map((items) => ({ k: 'array', items })) },
    { weight: 3, arbitrary: fc.array(item, { maxLength: 10, size: 'max' }).map((items) => ({ k: 'array', items })) },
    { weight: 2, arbitrary: hostile },
  );
  const PATH = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        k: fc.constant('path'),
        name: fc.constantFrom('small.bin', 'small.bin', 'chunk.bin', 'empty.bin', 'sub', 'missing.bin', 'sub/../small.bin', 'small.bin/x'),
        abs: fc.boolean(),
        as: fc.constantFrom('string', 'string', 'Buffer', 'Uint8Array', 'URL'),
      }),
    },
    { weight: 3, arbitrary: hostile },
  );
  const EXTRA = fc.oneof({ weight: 6, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(hostile, { minLength: 1, maxLength: 2 }) });

  // ---- the functions, their arguments and what they must do -------------------------
  const hashLike = (A, D, O) => {
    const L = lengthRef(A, O);
    return expectFrom([A, D, O, L], () => digestOut(A.ok, D.ok, O.ok.enc, L.ok));
  };
  function verifyExpect(a, m) {
    const A = algRef(a[0], true);
    const K = keyRef(a[1]);
    const D = dataRef(a[2]);
    const E = macEncRef(a[4]);
    const M = macRef(a[3]);
    return expectFrom([A, K, D, E, M], () => macMatches(M.ok, E.ok, m !== undefined ? m : crypto.createHmac(A.ok.name, K.ok).update(D.ok).digest()));
  }
  // The MAC argument a rightMac spec stands for: the right MAC (maybe with a
  // bit flipped) in its encoding, or as bytes.
  function macFor(spec, right) {
    const mac = Buffer.from(right);
    if (spec.flip && mac.length) mac[(spec.bit >>> 3) % mac.length] ^= 1 << (spec.bit & 7);
    if (spec.asBytes) return container(mac, spec.asBytes, 1);
    const enc = spec.enc === undefined ? 'hex' : ENC.get(spec.enc.toLowerCase());
    let s = mac.toString(enc);
    if (enc === 'hex' && spec.upper) s = s.toUpperCase();
    if (enc === 'base64' && spec.unpadded) s = s.replace(/=+$/, '');
    if (enc === 'base64url' && spec.unpadded) s += '='.repeat((4 - (s.length % 4)) % 4);
    return s;
  }
  function rightMacOf(a) {
    const A = algRef(a[0], true);
    const K = keyRef(a[1]);
    const D = dataRef(a[2]);
    if ('ok' in A && 'ok' in K && 'ok' in D) return crypto.createHmac(A.ok.name, K.ok).update(D.ok).digest();
    return Buffer.alloc(32, 1);
  }

  const SYNC = {
    hash: {
      args: [ALG, DATA, OPTS],
      run: (a, x) => fh.hash(...a, ...x),
      expect: (a) => hashLike(algRef(a[0], false), dataRef(a[1]), optionsRef(a[2], true)),
    },
    hmac: {
      args: [ALG, KEY, DATA, OPTS],
      run: (a, x) => fh.hmac(...a, ...x),
      expect: (a) => {
        const A = algRef(a[0], true);
        const K = keyRef(a[1]);
        const D = dataRef(a[2]);
        const O = optionsRef(a[3], false);
        return expectFrom([A, K, D, O], () => hmacOut(A.ok, K.ok, D.ok, O.ok.enc));
      },
    },
    verifyHmac: {
      args: [ALG, KEY, DATA, MAC, MACENC],
      run: (a, x) => fh.verifyHmac(...a, ...x),
      expect: (a) => verifyExpect(a),
    },
    hashMany: {
      args: [ALG, INPUTS, OPTS],
      run: (a, x) => fh.hashMany(...a, ...x),
      expect: (a) => {
        const A = algRef(a[0], false);
        const I = inputsRef(a[1]);
        const O = optionsRef(a[2], true);
        const L = lengthRef(A, O);
        return expectFrom([A, I, O, L], () => I.ok.map((d) => digestOut(A.ok, d, O.ok.enc, L.ok)));
      },
    },
    hashFileSync: {
      args: [ALG, PATH, OPTS],
      run: (a, x) => fh.hashFileSync(...a, ...x),
      expect: (a) => hashLike(algRef(a[0], false), pathRef(a[1]), optionsRef(a[2], true)),
    },
    getHashes: {
      args: [],
      run: (a, x) => fh.getHashes(...x),
      expect: () => ({ ok: true, value: [...new Set(crypto.getHashes())].sort() }),
    },
  };
  const ASYNC = {
    hashAsync: SYNC.hash,
    hmacAsync: SYNC.hmac,
    hashFile: SYNC.hashFileSync,
  };

  // Builds one call's arguments (rightMac specs last: they need the others).
  function buildArgs(specs, ctx) {
    const args = specs.map((s) => (s.k === 'rightMac' ? undefined : make(s, ctx)));
    specs.forEach((s, i) => {
      if (s.k !== 'rightMac') return;
      args[i] = macFor(s, rightMacOf(args));
      if (s.asBytes === null) args[4] = s.enc; // the MAC's encoding goes with it
    });
    return args;
  }
  const describeCall = (fn, specs, extra) => `${fn}(${[...specs, ...extra].map(fmtSpec).join(', ')})`;

  function runOne(fn, entry, specs, extraSpecs) {
    const ctx = new Ctx();
    const args = buildArgs(specs, ctx);
    const extra = extraSpecs.map((s) => make(s, ctx));
    const exp = entry.expect(args);
    const example = () => describeCall(fn, specs, extraSpecs);
    if (TRACE) fs.writeSync(2, `CALL ${example()}\n`);
    let outcome;
    try {
      outcome = { value: entry.run(args, extra) };
    } catch (e) {
      outcome = { threw: e };
    }
    judge(fn, exp, ctx, outcome, example);
    return outcome;
  }

  // HmacKey: created, then a few operations on it.
  const KEY_OPS = fc.array(fc.oneof(
    { weight: 4, arbitrary: fc.record({ op: fc.constant('digest'), data: DATA, opts: OPTS }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('verify'), data: DATA, mac: MAC, macEnc: MACENC }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('destroy'), extra: EXTRA }) },
    { weight: 1, arbitrary: fc.constant({ op: 'algorithm' }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('foreignThis'), method: fc.constantFrom('digest', 'verify', 'destroy', 'algorithm'), self: hostile }) },
    { weight: 1, arbitrary: fc.constant({ op: 'gc' }) },
  ), { maxLength: 5, size: 'max' });
  const protoOf = (k) => Object.getPrototypeOf(k);
  function runHmacKey(specs, ops) {
    const outcome = runOne('createHmacKey', {
      run: (a) => fh.createHmacKey(...a),
      expect: (a) => {
        const A = algRef(a[0], true);
        const K = keyRef(a[1]);
        return expectFrom([A, K], () => null).ok ?
          { ok: true, check: (k) => (k !== null && typeof k === 'object' && typeof k.digest === 'function' && k.algorithm === a[0].toLowerCase()) || `not an HmacKey for ${fmt(a[0])}: ${fmt(k)}` } :
          expectFrom([A, K], () => null);
      },
    }, specs, []);
    if (!('value' in outcome) || typeof outcome.value !== 'object' || outcome.value === null) return;
    const k = outcome.value;
    const keyCtx = new Ctx();
    const keyArgs = buildArgs(specs, keyCtx);
    const A = algRef(keyArgs[0], true);
    const K = keyRef(keyArgs[1]);
    let destroyed = false;
    for (const o of ops) {
      const ctx = new Ctx();
      const example = () => `createHmacKey(${specs.map(fmtSpec).join(', ')}) then ${fmtSpec(o)}${destroyed ? ' (destroyed)' : ''}`;
      const state = destroyed ? { bad: 'ERR_INVALID_STATE' } : { ok: true };
      let exp;
      let thunk;
      switch (o.op) {
        case 'digest': {
          const [data, opts] = [make(o.data, ctx), make(o.opts, ctx)];
          const D = dataRef(data);
          const O = optionsRef(opts, false);
          exp = expectFrom([D, O, state], () => hmacOut(A.ok, K.ok, D.ok, O.ok.enc));
          thunk = () => k.digest(data, opts);
          break;
        }
        case 'verify': {
          const data = make(o.data, ctx);
          let mac;
          let macEnc = make(o.macEnc, ctx);
          const D = dataRef(data);
          const right = 'ok' in D ? crypto.createHmac(A.ok.name, K.ok).update(D.ok).digest() : Buffer.alloc(A.ok.size);
          if (o.mac.k === 'rightMac') {
            mac = macFor(o.mac, right);
            if (o.mac.asBytes === null) macEnc = o.mac.enc;
          } else {
            mac = make(o.mac, ctx);
          }
          const E = macEncRef(macEnc);
          const M = macRef(mac);
          exp = expectFrom([D, E, M, state], () => macMatches(M.ok, E.ok, right));
          thunk = () => k.verify(data, mac, macEnc);
          break;
        }
        case 'destroy': {
          const extra = o.extra.map((s) => make(s, ctx));
          exp = { ok: true, value: undefined };
          thunk = () => k.destroy(...extra);
          break;
        }
        case 'algorithm':
          exp = { ok: true, value: keyArgs[0].toLowerCase() };
          thunk = () => k.algorithm;
          break;
        case 'foreignThis': {
          const self = make(o.self, ctx);
          // another HmacKey is a fine `this`; anything else is ERR_INVALID_THIS
          exp = o.self.k === 'named' && o.self.v === 'hmacKeyInstance' ? { any: true } : { ok: false, code: 'ERR_INVALID_THIS' };
          thunk = o.method === 'algorithm' ? () => call(getterOf(protoOf(k), 'algorithm'), self) :
            () => Reflect.apply(protoOf(k)[o.method], self, ['data', 'mac']);
          break;
        }
        default:
          global.gc();
          continue;
      }
      if (TRACE) fs.writeSync(2, `CALL ${example()}\n`);
      let out;
      try {
        out = { value: thunk() };
      } catch (e) {
        out = { threw: e };
      }
      judge(`HmacKey#${o.op === 'foreignThis' ? `${o.method} with a foreign this` : o.op}`, exp, ctx, out, example);
      if (o.op === 'destroy' && 'value' in out) destroyed = true;
    }
  }

  // ---- modes ------------------------------------------------------------------------
  async function modeRandom() {
    const callArb = fc.oneof(
      ...Object.entries(SYNC).map(([fn, entry]) => ({
        weight: fn === 'getHashes' ? 1 : 6,
        arbitrary: fc.record({ fn: fc.constant(fn), args: fc.tuple(...entry.args), extra: EXTRA }),
      })),
      { weight: 5, arbitrary: fc.record({ fn: fc.constant('createHmacKey'), args: fc.tuple(ALG, KEY), ops: KEY_OPS }) },
    );
    const runs = Number(process.env.HOSTILE_RUNS || 15000);
    const samples = fc.sample(callArb, { numRuns: runs, seed: SEED });
    for (const c of samples) {
      if (c.fn === 'createHmacKey') runHmacKey(c.args, c.ops);
      else runOne(c.fn, SYNC[c.fn], c.args, c.extra);
    }
    return report(`${runs} generated cases`);
  }

  // Runs an async function: it must return a promise (never throw), which
  // must settle.
  async function settle(thunk) {
    let p;
    try {
      p = thunk();
    } catch (e) {
      return { sync: e };
    }
    if (!(p instanceof Promise)) return { notPromise: p };
    let timer;
    const timeout = new Promise((resolve) => { timer = setTimeout(() => resolve({ hung: true }), 30000); });
    try {
      return await Promise.race([p.then((value) => ({ value }), (threw) => ({ threw })), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
  function judgeAsync(fn, exp, ctx, out, example) {
    if ('sync' in out) {
      calls++;
      fail(fn, `threw synchronously instead of rejecting: ${errText(out.sync)}`, example);
    } else if ('notPromise' in out) {
      calls++;
      fail(fn, `returned something that is not a promise || ${show(out.notPromise).slice(0, 60)}`, example);
    } else if (out.hung) {
      calls++;
      fail(fn, 'the promise did not settle in 30 s', example);
    } else {
      judge(fn, exp, ctx, out, example);
    }
  }

  async function modeRandomAsync() {
    const callArb = fc.oneof(...Object.entries(ASYNC).map(([fn, entry]) =>
      fc.record({ fn: fc.constant(fn), args: fc.tuple(...entry.args), extra: EXTRA })));
    const runs = Number(process.env.HOSTILE_ASYNC_RUNS || 6000);
    const samples = fc.sample(callArb, { numRuns: runs, seed: SEED });
    const BATCH = 16;
    for (let i = 0; i < samples.length; i += BATCH) {
      await Promise.all(samples.slice(i, i + BATCH).map(async (c) => {
        const ctx = new Ctx();
        const args = buildArgs(c.args, ctx);
        const extra = c.extra.map((s) => make(s, ctx));
        const exp = ASYNC[c.fn].expect(args);
        const example = () => describeCall(c.fn, c.args, c.extra);
        if (TRACE) fs.writeSync(2, `CALL ${example()}\n`);
        judgeAsync(c.fn, exp, ctx, await settle(() => fh[c.fn](...args, ...extra)), example);
      }));
    }
    return report(`${runs} generated cases`);
  }

  // ---- named cases ------------------------------------------------------------------
  // expect: { value } | { code } | { coded } | { sentinel } | { oneOf: [values], orCoded } | { check, orCoded }
  async function modeTable() {
    const cases = [];
    const add = (name, thunk, expect, isAsync = false) => cases.push({ name, thunk, expect, isAsync });
    const H = (alg, data, enc = 'hex', opts) => digestOut(algRef(alg).ok, typeof data === 'string' ? data : Buffer.from(data), enc, opts);
    const HM = (alg, key, data, enc = 'hex') => hmacOut(algRef(alg, true).ok, typeof key === 'string' ? key : Buffer.from(key), typeof data === 'string' ? data : Buffer.from(data), enc);
    const EMPTY = Buffer.alloc(0);

    // Where a hostile binary value can go, and what the call gives for given bytes.
    const K = fh.createHmacKey('sha256', 'table key');
    const POSITIONS = [
      ['hash data', (v) => fh.hash('sha256', v), (b) => H('sha256', b)],
      ['hash data (shake256, 40 bytes, base64)', (v) => fh.hash('shake256', v, { outputLength: 40, outputEncoding: 'base64' }), (b) => H('shake256', b, 'base64', 40)],
      ['hash data (sha3-256, buffer)', (v) => fh.hash('sha3-256', v, 'buffer'), (b) => H('sha3-256', b, 'buffer')],
      ['hmac key', (v) => fh.hmac('sha512', v, 'message'), (b) => HM('sha512', b, 'message')],
      ['hmac data', (v) => fh.hmac('blake2b512', 'key', v, 'base64url'), (b) => HM('blake2b512', 'key', b, 'base64url')],
      ['verifyHmac key', (v) => fh.verifyHmac('sha256', v, 'm', HM('sha256', EMPTY, 'm')), (b) => HM('sha256', b, 'm') === HM('sha256', EMPTY, 'm')],
      ['verifyHmac data', (v) => fh.verifyHmac('sha1', 'k', v, HM('sha1', 'k', EMPTY)), (b) => HM('sha1', 'k', b) === HM('sha1', 'k', EMPTY)],
      ['verifyHmac mac', (v) => fh.verifyHmac('md5', 'k', 'm', v), (b) => b.equals(HM('md5', 'k', 'm', 'buffer'))],
      ['hashMany element', (v) => fh.hashMany('md5', ['a', v, Buffer.from('b')]), (b) => [H('md5', 'a'), H('md5', b), H('md5', 'b')]],
      ['hashMany element (buffer output)', (v) => fh.hashMany('sha1', [v, v], 'buffer'), (b) => [H('sha1', b, 'buffer'), H('sha1', b, 'buffer')]],
      ['createHmacKey key', (v) => fh.createHmacKey('sha384', v).digest('m'), (b) => HM('sha384', b, 'm')],
      ['HmacKey#digest data', (v) => K.digest(v), (b) => HM('sha256', 'table key', b)],
      ['HmacKey#verify mac', (v) => K.verify('m', v), (b) => b.equals(HM('sha256', 'table key', 'm', 'buffer'))],
      ['hashAsync data', (v) => fh.hashAsync('sha512', v), (b) => H('sha512', b), true],
      ['hmacAsync key', (v) => fh.hmacAsync('sha256', v, 'x'), (b) => HM('sha256', b, 'x'), true],
      ['hmacAsync data', (v) => fh.hmacAsync('sha256', 'x', v, 'buffer'), (b) => HM('sha256', 'x', b, 'buffer'), true],
    ];
    // Hostile bytes: factory -> [value, the bytes JS sees, strict]. Strict:
    // the result must be the digest of those bytes; otherwise a coded error
    // is allowed too.
    const rab = (n, max) => {
      const b = new ArrayBuffer(n, { maxByteLength: max });
      new Uint8Array(b).set(prng(n, n));
      return b;
    };
    const BINARIES = [
      ['detached ArrayBuffer (structuredClone transfer)', () => { const ab = new ArrayBuffer(16); detach(ab, 'structuredClone'); return ab; }, false],
      ['detached ArrayBuffer (MessagePort transfer)', () => { const ab = new ArrayBuffer(16); detach(ab, 'port'); return ab; }, false],
      ['Uint8Array over a detached ArrayBuffer', () => { const ab = new ArrayBuffer(16); const u = new Uint8Array(ab, 4); detach(ab); return u; }, false],
      ['Buffer over a detached ArrayBuffer', () => { const ab = new ArrayBuffer(16); const u = Buffer.from(ab, 2, 8); detach(ab); return u; }, false],
      ['DataView over a detached ArrayBuffer', () => { const ab = new ArrayBuffer(16); const u = new DataView(ab, 3); detach(ab); return u; }, false],
      ['Float64Array over a detached ArrayBuffer', () => { const ab = new ArrayBuffer(16); const u = new Float64Array(ab); detach(ab); return u; }, false],
      ['resizable ArrayBuffer, shrunk', () => { const b = rab(40, 64); b.resize(13); return b; }, true],
      ['resizable ArrayBuffer, grown', () => { const b = rab(8, 64); b.resize(50); return b; }, true],
      ['length-tracking Uint8Array, buffer shrunk after', () => { const b = rab(40, 64); const u = new Uint8Array(b, 5); b.resize(20); return u; }, true],
      ['length-tracking Uint8Array, buffer grown after', () => { const b = rab(10, 64); const u = new Uint8Array(b, 5); b.resize(60); return u; }, true],
      ['length-tracking Uint8Array, shrunk below its offset', () => { const b = rab(40, 64); const u = new Uint8Array(b, 30); b.resize(20); return u; }, false],
      ['fixed Uint8Array, buffer shrunk under it', () => { const b = rab(40, 64); const u = new Uint8Array(b, 4, 30); b.resize(20); return u; }, false],
      ['fixed Uint8Array, buffer shrunk then grown back', () => { const b = rab(40, 64); const u = new Uint8Array(b, 4, 30); b.resize(10); b.resize(64); return u; }, true],
      ['length-tracking DataView, buffer shrunk after', () => { const b = rab(40, 64); const u = new DataView(b, 3); b.resize(17); return u; }, true],
      ['fixed DataView, buffer shrunk under it', () => { const b = rab(40, 64); const u = new DataView(b, 3, 30); b.resize(17); return u; }, false],
      ['fixed DataView over 16 MiB, buffer shrunk to 0 (pages decommitted)', () => { const b = new ArrayBuffer(16 << 20, { maxByteLength: 64 << 20 }); const u = new DataView(b, 0, 16 << 20); b.resize(0); return u; }, false],
      ['length-tracking Float64Array, length not a multiple of 8', () => { const b = rab(40, 64); const u = new Float64Array(b); b.resize(21); return u; }, true],
      ['resizable ArrayBuffer resized to 0', () => { const b = rab(40, 64); b.resize(0); return b; }, true],
      ['growable SharedArrayBuffer, grown', () => { const g = new SharedArrayBuffer(8, { maxByteLength: 64 }); new Uint8Array(g).fill(1); g.grow(40); return g; }, true],
      ['length-tracking view of a growable SharedArrayBuffer, grown after', () => { const g = new SharedArrayBuffer(8, { maxByteLength: 64 }); const u = new Uint8Array(g, 2); g.grow(33); new Uint8Array(g).fill(9); return u; }, true],
      ['Uint8Array whose own properties and methods throw', () => NAMED.viewWithThrowingProps(new Ctx()), true],
      ['Buffer whose own properties and methods throw', () => NAMED.bufferWithThrowingProps(new Ctx()), true],
      ['DataView whose own properties throw', () => NAMED.dataViewWithThrowingProps(new Ctx()), true],
      ['Uint8Array subclass whose getters throw', () => NAMED.evilSubclassView(), true],
      ['Buffer with a null prototype', () => NAMED.nullProtoBuffer(), true],
      ['empty Uint8Array over an empty ArrayBuffer', () => new Uint8Array(0), true],
      ['BigUint64Array at an offset', () => new BigUint64Array(new Uint8Array(prng(72, 3)).buffer, 8, 7), true],
    ];
    for (const [pos, run, want, isAsync] of POSITIONS) {
      for (const [label, factory, strict] of BINARIES) {
        let v;
        let bytes;
        add(`${pos}: ${label}`, () => {
          v = factory();
          bytes = visibleBytes(v);
          return run(v);
        }, { check: (got) => show(got) === show(want(bytes)) || `got ${show(got).slice(0, 140)}, want ${show(want(bytes)).slice(0, 140)}`, orCoded: !strict }, isAsync);
      }
    }

    // Proxies and revoked proxies in every argument position of every function.
    const EVERY_POSITION = [
      ['hash', (x) => fh.hash(x, 'd')], ['hash', (x) => fh.hash('sha256', x)], ['hash', (x) => fh.hash('sha256', 'd', x)],
      ['hmac', (x) => fh.hmac(x, 'k', 'd')], ['hmac', (x) => fh.hmac('sha256', x, 'd')], ['hmac', (x) => fh.hmac('sha256', 'k', x)], ['hmac', (x) => fh.hmac('sha256', 'k', 'd', x)],
      ['verifyHmac', (x) => fh.verifyHmac(x, 'k', 'd', 'aa')], ['verifyHmac', (x) => fh.verifyHmac('sha256', x, 'd', 'aa')], ['verifyHmac', (x) => fh.verifyHmac('sha256', 'k', x, 'aa')],
      ['verifyHmac', (x) => fh.verifyHmac('sha256', 'k', 'd', x)], ['verifyHmac', (x) => fh.verifyHmac('sha256', 'k', 'd', 'aa', x)],
      ['createHmacKey', (x) => fh.createHmacKey(x, 'k')], ['createHmacKey', (x) => fh.createHmacKey('sha256', x)],
      ['HmacKey#digest', (x) => K.digest(x)], ['HmacKey#digest', (x) => K.digest('d', x)],
      ['HmacKey#verify', (x) => K.verify(x, 'aa')], ['HmacKey#verify', (x) => K.verify('d', x)], ['HmacKey#verify', (x) => K.verify('d', 'aa', x)],
      ['hashMany', (x) => fh.hashMany(x, ['d'])], ['hashMany', (x) => fh.hashMany('sha256', x)], ['hashMany', (x) => fh.hashMany('sha256', ['d', x])], ['hashMany', (x) => fh.hashMany('sha256', ['d'], x)],
      ['hashFileSync', (x) => fh.hashFileSync(x, 'small.bin')], ['hashFileSync', (x) => fh.hashFileSync('sha256', x)], ['hashFileSync', (x) => fh.hashFileSync('sha256', 'small.bin', x)],
      ['hashAsync', (x) => fh.hashAsync(x, 'd'), true], ['hashAsync', (x) => fh.hashAsync('sha256', x), true], ['hashAsync', (x) => fh.hashAsync('sha256', 'd', x), true],
      ['hmacAsync', (x) => fh.hmacAsync(x, 'k', 'd'), true], ['hmacAsync', (x) => fh.hmacAsync('sha256', x, 'd'), true], ['hmacAsync', (x) => fh.hmacAsync('sha256', 'k', x), true], ['hmacAsync', (x) => fh.hmacAsync('sha256', 'k', 'd', x), true],
      ['hashFile', (x) => fh.hashFile(x, 'small.bin'), true], ['hashFile', (x) => fh.hashFile('sha256', x), true], ['hashFile', (x) => fh.hashFile('sha256', 'small.bin', x), true],
      ['getHashes', (x) => fh.getHashes(x)],
    ];
    const argNo = new Map();
    for (const [fn, run, isAsync] of EVERY_POSITION) {
      const n = (argNo.get(fn) || 0) + 1;
      argNo.set(fn, n);
      const where = `${fn} argument ${n}`;
      for (const target of ['object', 'array', 'func', 'uint8array', 'url', 'keyObject']) {
        add(`${where}: revoked Proxy of a ${target}`, () => run(revokedProxy(PROXY_TARGETS[target]())), { coded: true, orValue: fn === 'getHashes' }, isAsync);
        const ctx = new Ctx();
        add(`${where}: Proxy of a ${target} whose every trap throws`, () => run(throwAllProxy(PROXY_TARGETS[target](), ctx, false)),
          { coded: true, orSentinel: ctx, orValue: fn === 'getHashes' }, isAsync);
      }
      for (const name of ['fakeUint8Array', 'fakeBuffer', 'fakeURL', 'fakeDataView', 'fakeArrayBuffer', 'fakeKeyObject', 'fakeArray', 'toStringThrows', 'allCoercionsThrow', 'inspectThrows', 'constructorGetterThrows', 'constructorNameThrows', 'functionNameThrows', 'thenGetterThrows']) {
        const ctx = new Ctx();
        add(`${where}: <${name}>`, () => run(NAMED[name](ctx)), { coded: true, orAnyValue: true, orSentinel: ctx }, isAsync);
      }
      for (const [label, v] of [['Symbol()', () => Symbol('s')], ['10n', () => 10n], ['-0', () => -0], ['NaN', () => NaN], ['2**53', () => 2 ** 53],
        ['a 2**24-character string', () => 'x'.repeat(1 << 24)], ['a 2**20-lone-surrogate string', () => '\ud800'.repeat(1 << 20)]]) {
        add(`${where}: ${label}`, () => run(v()), { coded: true, orAnyValue: true }, isAsync);
      }
    }

    // Getters the functions have to read: their exceptions come out unchanged.
    for (const [fn, run, readsLength, isAsync] of [
      ['hash', (o) => fh.hash('sha256', 'd', o), true],
      ['hmac', (o) => fh.hmac('sha256', 'k', 'd', o), false],
      ['hashMany', (o) => fh.hashMany('sha256', ['d'], o), true],
      ['hashFileSync', (o) => fh.hashFileSync('sha256', 'small.bin', o), true],
      ['HmacKey#digest', (o) => K.digest('d', o), false],
      ['hashAsync', (o) => fh.hashAsync('sha256', 'd', o), true, true],
      ['hmacAsync', (o) => fh.hmacAsync('sha256', 'k', 'd', o), false, true],
      ['hashFile', (o) => fh.hashFile('sha256', 'small.bin', o), true, true],
    ]) {
      const s1 = new Ctx().sentinel();
      add(`${fn}: options.outputEncoding getter throws`, () => run({ get outputEncoding() { throw s1; } }), { sentinel: s1 }, isAsync);
      const s2 = new Ctx().sentinel();
      const want = fn === 'hash' || fn === 'hashAsync' ? H('sha256', 'd') : fn === 'hashMany' ? [H('sha256', 'd')] :
        fn.startsWith('hashFile') ? H('sha256', fs.readFileSync('small.bin')) : fn === 'HmacKey#digest' ? HM('sha256', 'table key', 'd') : HM('sha256', 'k', 'd');
      add(`${fn}: options.outputLength getter throws`, () => run({ outputEncoding: 'hex', get outputLength() { throw s2; } }),
        readsLength ? { sentinel: s2 } : { value: want }, isAsync);
      const s3 = new Ctx().sentinel();
      add(`${fn}: options is a Proxy whose get trap throws`, () => run(new Proxy({}, { get() { throw s3; } })), { sentinel: s3 }, isAsync);
      add(`${fn}: options inherited through the prototype`, () => run(Object.create({ outputEncoding: 'base64' })),
        { check: (got) => { const g = Array.isArray(got) ? got[0] : got; return (typeof g === 'string' && g.length > 0 && Buffer.from(g, 'base64').toString('base64') === g) || `not base64: ${show(got)}`; } }, isAsync);
    }

    // Re-entrant getters: the options of the outer call must not change.
    add('hash: outputLength getter calls hash(..., "base64"); the outer result stays hex',
      () => fh.hash('sha256', 'abc', { outputEncoding: 'hex', get outputLength() { fh.hash('md5', 'x', 'base64'); return undefined; } }),
      { value: H('sha256', 'abc') });
    add('hash: outputLength getter calls hash(..., "buffer"); the outer result stays hex',
      () => fh.hash('sha256', 'abc', { get outputLength() { fh.hash('sha1', 'x', { outputEncoding: 'buffer' }); return 32; } }),
      { value: H('sha256', 'abc') });
    add('hash: outputEncoding getter calls hash(shake128, 16 bytes); the outer shake256 keeps its 32 bytes',
      () => fh.hash('shake256', 'abc', { get outputEncoding() { fh.hash('shake128', 'x', { outputLength: 16 }); return 'hex'; } }),
      { value: H('shake256', 'abc', 'hex', 32) });
    add('hashMany: outputLength getter calls hash(..., "latin1"); the outer results stay hex',
      () => fh.hashMany('sha256', ['a', 'b'], { get outputLength() { fh.hash('md5', 'x', 'latin1'); return undefined; } }),
      { value: [H('sha256', 'a'), H('sha256', 'b')] });
    add('hashAsync: outputLength getter calls hash(..., "base64"); the outer result stays hex',
      () => fh.hashAsync('sha256', 'abc', { get outputLength() { fh.hash('md5', 'x', 'base64'); return undefined; } }),
      { value: H('sha256', 'abc') }, true);
    add('hmac: outputEncoding getter calls hmac with other options; the outer result is right',
      () => fh.hmac('sha256', 'k', 'abc', { get outputEncoding() { fh.hmac('md5', 'k', 'x', { outputEncoding: 'buffer' }); return 'base64'; } }),
      { value: HM('sha256', 'k', 'abc', 'base64') });

    // Getters that change the data between the checks and the digest: any
    // digest of the old or new bytes, or a coded error; no crash.
    {
      const mk = () => { const ab = new ArrayBuffer(32); new Uint8Array(ab).set(prng(32, 1)); return ab; };
      let ab = mk();
      let u = new Uint8Array(ab, 4);
      const before = Buffer.from(u);
      add('hash: options getter detaches the data\'s buffer', () => { ab = mk(); u = new Uint8Array(ab, 4); return fh.hash('sha256', u, { get outputEncoding() { detach(ab); return 'hex'; } }); },
        { oneOf: [H('sha256', before), H('sha256', EMPTY)], orCoded: true });
      add('hashAsync: options getter detaches the data\'s buffer', () => { ab = mk(); u = new Uint8Array(ab, 4); return fh.hashAsync('sha256', u, { get outputEncoding() { detach(ab); return 'hex'; } }); },
        { oneOf: [H('sha256', before), H('sha256', EMPTY)], orCoded: true }, true);
      add('hmac: options getter detaches the key\'s buffer', () => { ab = mk(); u = new Uint8Array(ab, 4); return fh.hmac('sha256', u, 'd', { get outputEncoding() { detach(ab); return 'hex'; } }); },
        { oneOf: [HM('sha256', before, 'd'), HM('sha256', EMPTY, 'd')], orCoded: true });
      add('hmac: options getter detaches the data (an ArrayBuffer)', () => { ab = mk(); return fh.hmac('sha256', 'k', ab, { get outputEncoding() { detach(ab); return 'hex'; } }); },
        { oneOf: [HM('sha256', 'k', prng(32, 1)), HM('sha256', 'k', EMPTY)], orCoded: true });
      add('hashMany: options getter detaches an element\'s buffer', () => { ab = mk(); return fh.hashMany('sha256', ['a', ab], { get outputEncoding() { detach(ab); return 'hex'; } }); },
        { check: (got) => (Array.isArray(got) && got.length === 2 && got[0] === H('sha256', 'a') && [H('sha256', prng(32, 1)), H('sha256', EMPTY)].includes(got[1])) || `got ${show(got)}`, orCoded: true });
      let r;
      add('hash: options getter shrinks the data\'s resizable buffer to 0', () => {
        r = new ArrayBuffer(1 << 20, { maxByteLength: 8 << 20 });
        return fh.hash('sha256', new DataView(r, 0, 1 << 20), { get outputEncoding() { r.resize(0); return 'hex'; } });
      }, { oneOf: [H('sha256', Buffer.alloc(1 << 20)), H('sha256', EMPTY)], orCoded: true });
      add('hashMany: options getter empties the array', () => {
        const arr = ['a', 'b', 'c'];
        return fh.hashMany('sha256', arr, { get outputEncoding() { arr.length = 0; return 'hex'; } });
      }, { check: (got) => Array.isArray(got) || `got ${show(got)}`, orCoded: true });
      add('hashMany: options getter puts a number in the array', () => {
        const arr = ['a', 'b'];
        return fh.hashMany('sha256', arr, { get outputEncoding() { arr[1] = 5; return 'hex'; } });
      }, { check: (got) => (Array.isArray(got) && got.length === 2 && got[1] === H('sha256', 'b')) || `got ${show(got)}`, orCoded: true });
      add('HmacKey#digest: options getter destroys the key (and collects garbage)', () => {
        const k = fh.createHmacKey('sha512', 'k');
        return k.digest('d', { get outputEncoding() { k.destroy(); global.gc(); return 'hex'; } });
      }, { code: 'ERR_INVALID_STATE', orValue: HM('sha512', 'k', 'd') });
      add('HmacKey#verify: after destroy and gc', () => {
        const k = fh.createHmacKey('sha3-512', 'k');
        k.destroy();
        global.gc();
        return k.verify('d', HM('sha3-512', 'k', 'd'));
      }, { code: 'ERR_INVALID_STATE' });
    }

    // hashMany's array: holes, getters, proxies, iterators, species.
    {
      const ctx = new Ctx();
      const s = ctx.sentinel();
      const items = ['a', Buffer.from('b'), new ArrayBuffer(2)];
      const want = [H('sha256', 'a'), H('sha256', 'b'), H('sha256', Buffer.alloc(2))];
      add('hashMany: a hole', () => fh.hashMany('sha256', ['a', , 'c']), { code: 'ERR_INVALID_ARG_TYPE' }); // eslint-disable-line no-sparse-arrays
      add('hashMany: an element getter that throws', () => fh.hashMany('sha256', Object.defineProperty(['a', 'b'], 1, { get() { throw s; } })), { sentinel: s });
      add('hashMany: an element getter that throws, past the first chunk', () => {
        const a = Array.from({ length: 3000 }, (_, i) => `x${i}`);
        Object.defineProperty(a, 2500, { get() { throw s; } });
        return fh.hashMany('sha256', a);
      }, { sentinel: s });
      add('hashMany: an element getter returning a constant', () => fh.hashMany('sha256', Object.defineProperty([...items], 0, { get: () => 'a' })), { value: want });
      add('hashMany: a transparent Proxy of the array', () => fh.hashMany('sha256', new Proxy([...items], {})), { value: want });
      add('hashMany: a Proxy whose get trap throws', () => fh.hashMany('sha256', new Proxy([...items], { get() { throw s; } })), { sentinel: s });
      add('hashMany: an element that is "a" at the check, a Symbol afterwards', () => {
        let n = 0;
        return fh.hashMany('sha256', Object.defineProperty(['x'], 0, { get: () => (n++ === 0 ? 'a' : Symbol('later')) }));
      }, { check: (got) => (Array.isArray(got) && got.length === 1) || `got ${show(got)}`, orCoded: true });
      add('hashMany: an element that is a string at the check, an ArrayBuffer afterwards', () => {
        let n = 0;
        return fh.hashMany('sha256', Object.defineProperty(['x'], 0, { get: () => (n++ === 0 ? 'a' : new ArrayBuffer(4)) }));
      }, { check: (got) => (Array.isArray(got) && got.length === 1) || `got ${show(got)}`, orCoded: true });
      add('hashMany: an own Symbol.iterator that yields other values', () => {
        const a = [...items];
        a[Symbol.iterator] = function* () { yield 'evil'; yield 'evil'; yield 'evil'; };
        return fh.hashMany('sha256', a);
      }, { value: want });
      add('hashMany: an own Symbol.iterator that yields nothing', () => {
        const a = ['a', 'b'];
        a[Symbol.iterator] = function* () {};
        return fh.hashMany('sha256', a);
      }, { value: [H('sha256', 'a'), H('sha256', 'b')] });
      add('hashMany: an own Symbol.iterator that throws', () => {
        const a = ['a', 'b'];
        a[Symbol.iterator] = () => { throw s; };
        return fh.hashMany('sha256', a);
      }, { value: [H('sha256', 'a'), H('sha256', 'b')], orSentinel: ctx });
      add('hashMany: an Array subclass with its own iterator', () => {
        class Odd extends Array { * [Symbol.iterator]() { yield 'odd'; } }
        return fh.hashMany('sha256', Odd.from(['a']));
      }, { value: [H('sha256', 'a')] });
      add('hashMany: Array.prototype[Symbol.iterator] replaced', () => {
        const saved = Array.prototype[Symbol.iterator];
        // eslint-disable-next-line no-extend-native
        Array.prototype[Symbol.iterator] = function* () { yield 'patched'; };
        try {
          return fh.hashMany('sha256', ['a', 'b']);
        } finally {
          // eslint-disable-next-line no-extend-native
          Array.prototype[Symbol.iterator] = saved;
        }
      }, { value: [H('sha256', 'a'), H('sha256', 'b')] });
      add('hashMany: a Symbol.species that makes a non-iterable copy', () => {
        const a = ['a', new ArrayBuffer(2)];
        a.constructor = { [Symbol.species]: function Plain() { return {}; } };
        return fh.hashMany('sha256', a);
      }, { value: [H('sha256', 'a'), H('sha256', Buffer.alloc(2))] });
      add('hashMany: an own slice() that returns other values', () => {
        const a = ['a', new ArrayBuffer(2)];
        a.slice = () => ['evil', 'evil'];
        return fh.hashMany('sha256', a);
      }, { value: [H('sha256', 'a'), H('sha256', Buffer.alloc(2))] });
      add('hashMany: an array that contains itself', () => { const a = ['a']; a.push(a); return fh.hashMany('sha256', a); }, { code: 'ERR_INVALID_ARG_TYPE' });
      add('hashMany: a sparse array of length 2**32-1', () => { const a = []; a.length = 2 ** 32 - 1; return fh.hashMany('sha256', a); }, { code: 'ERR_INVALID_ARG_TYPE' });
      add('hashMany: 5000 mixed elements', () => fh.hashMany('sha3-256', Array.from({ length: 5000 }, (_, i) => (i % 2 ? `s${i}` : container(prng(i % 70, i), CONTAINERS[i % CONTAINERS.length], i % 4)))),
        { check: (got) => (Array.isArray(got) && got.length === 5000 && got.every((g, i) => g === H('sha3-256', i % 2 ? `s${i}` : visibleBytes(container(prng(i % 70, i), CONTAINERS[i % CONTAINERS.length], i % 4))))) || 'wrong results' });
      // (Node 22+ makes Buffers of 2^53 - 1 bytes: there it is only large.)
      if (3 * 2 ** 31 > MAX_LENGTH) add('hashMany: shake128 with outputLength 2**31 for three inputs (too large a Buffer)', () => fh.hashMany('shake128', ['a', 'b', 'c'], { outputLength: 2 ** 31, outputEncoding: 'buffer' }), { coded: true });
      add('hashMany: a frozen array', () => fh.hashMany('sha256', Object.freeze([...items])), { value: want });
    }

    // HmacKey with a foreign `this`, its constructor, destroy.
    {
      const proto = Object.getPrototypeOf(K);
      const algGetter = getterOf(proto, 'algorithm');
      for (const [label, self] of [['undefined', undefined], ['null', null], ['5', 5], ['"str"', 'str'], ['Symbol()', Symbol('t')], ['10n', 10n],
        ['{}', {}], ['Object.create(key)', Object.create(K)], ['a revoked Proxy', revokedProxy({})], ['a Proxy of the key', new Proxy(K, {})], ['the prototype', proto]]) {
        for (const m of ['digest', 'verify', 'destroy']) {
          add(`HmacKey#${m} with this = ${label}`, () => Reflect.apply(proto[m], self, ['d', 'aa']), { code: 'ERR_INVALID_THIS' });
        }
        add(`HmacKey#algorithm with this = ${label}`, () => call(algGetter, self), { code: 'ERR_INVALID_THIS' });
      }
      add('new HmacKey()', () => new K.constructor(), { code: 'ERR_ILLEGAL_CONSTRUCTOR' });
      add('new HmacKey(undefined, {}, {})', () => new K.constructor(undefined, {}, { name: 'x', size: 32 }), { code: 'ERR_ILLEGAL_CONSTRUCTOR' });
      add('class extends HmacKey', () => new (class extends K.constructor {})(), { code: 'ERR_ILLEGAL_CONSTRUCTOR' });
      add('HmacKey: destroy twice, then digest', () => { const k = fh.createHmacKey('md5', 'k'); k.destroy(); k.destroy(); return k.digest('d'); }, { code: 'ERR_INVALID_STATE' });
      add('HmacKey: destroy, then verify', () => { const k = fh.createHmacKey('sha1', 'k'); k.destroy(); return k.verify('d', HM('sha1', 'k', 'd')); }, { code: 'ERR_INVALID_STATE' });
      add('HmacKey: destroy, then algorithm', () => { const k = fh.createHmacKey('SHA256', 'k'); k.destroy(); return k.algorithm; }, { value: 'sha256' });
      add('HmacKey: destroy, gc, digest with bad data', () => { const k = fh.createHmacKey('sha256', 'k'); k.destroy(); global.gc(); return k.digest(Symbol('x')); }, { coded: true });
      add('HmacKey: 2000 keys dropped, gc', () => {
        for (let i = 0; i < 2000; i++) fh.createHmacKey(i % 2 ? 'sha3-256' : 'sha256', `k${i}`).digest('x');
        global.gc();
        return K.digest('after gc');
      }, { value: HM('sha256', 'table key', 'after gc') });
    }

    // Paths.
    {
      const small = fs.readFileSync('small.bin');
      const nulU8 = () => { const u = new Uint8Array(Buffer.from('small.bin\0x')); u.includes = () => false; return u; };
      const ctx = new Ctx();
      const s = ctx.sentinel();
      for (const [fn, isAsync] of [['hashFileSync', false], ['hashFile', true]]) {
        const run = (p, o) => fh[fn]('sha256', p, o);
        add(`${fn}: a fake Uint8Array`, () => run(NAMED.fakeUint8Array()), { coded: true }, isAsync);
        add(`${fn}: a fake Buffer`, () => run(NAMED.fakeBuffer()), { coded: true }, isAsync);
        add(`${fn}: a fake URL`, () => run(NAMED.fakeURL()), { coded: true }, isAsync);
        add(`${fn}: a Proxy of a file: URL`, () => run(new Proxy(url.pathToFileURL(path.resolve('small.bin')), {})), { coded: true, orValue: H('sha256', small) }, isAsync);
        add(`${fn}: a Proxy of a Buffer path`, () => run(new Proxy(Buffer.from('small.bin'), {})), { coded: true, orValue: H('sha256', small) }, isAsync);
        add(`${fn}: a Uint8Array with a NUL byte whose includes() says no`, () => run(nulU8()), { code: 'ERR_INVALID_ARG_VALUE' }, isAsync);
        add(`${fn}: a Buffer path whose includes() throws (never called)`, () => { const b = Buffer.from('small.bin'); b.includes = () => { throw s; }; return run(b); }, { value: H('sha256', small) }, isAsync);
        add(`${fn}: a string with a NUL byte`, () => run('small.bin\0'), { code: 'ERR_INVALID_ARG_VALUE' }, isAsync);
        add(`${fn}: a Buffer with a NUL byte`, () => run(Buffer.from('small.bin\0')), { code: 'ERR_INVALID_ARG_VALUE' }, isAsync);
        add(`${fn}: a file: URL with %00`, () => run(new URL('file:///tmp/a%00b')), { coded: true }, isAsync);
        add(`${fn}: a file: URL with %2F`, () => run(new URL('file:///tmp/a%2Fb')), { coded: true }, isAsync);
        add(`${fn}: a file: URL with a host`, () => run(new URL('file://host/small.bin')), { coded: true }, isAsync);
        add(`${fn}: an https: URL`, () => run(new URL('https://example.com/small.bin')), { code: 'ERR_INVALID_URL_SCHEME' }, isAsync);
        add(`${fn}: a URL string`, () => run('file:///etc/hostname-not-here'), { code: 'ENOENT' }, isAsync);
        add(`${fn}: a directory`, () => run('sub'), { code: 'EISDIR' }, isAsync);
        add(`${fn}: through a file`, () => run('small.bin/x'), { code: 'ENOTDIR' }, isAsync);
        add(`${fn}: an empty path`, () => run(''), { code: 'ENOENT' }, isAsync);
        add(`${fn}: a 100000-character name`, () => run('n'.repeat(100000)), { code: 'ENAMETOOLONG' }, isAsync);
        add(`${fn}: lone surrogates in the name`, () => run('\ud800small.bin'), { code: 'ENOENT' }, isAsync);
        add(`${fn}: a Buffer path of invalid UTF-8`, () => run(Buffer.from([0xff, 0xfe, 0x2f])), { code: 'ENOENT' }, isAsync);
        add(`${fn}: a detached Uint8Array`, () => { const u = new Uint8Array(Buffer.from('small.bin')); detach(u.buffer); return run(u); }, { coded: true }, isAsync);
        add(`${fn}: a Uint8Array over a SharedArrayBuffer`, () => { const u = new Uint8Array(new SharedArrayBuffer(9)); u.set(Buffer.from('small.bin')); return run(u); }, { value: H('sha256', small) }, isAsync);
        add(`${fn}: a Uint8Array subclass`, () => { class P extends Uint8Array {} return run(P.from(Buffer.from('small.bin'))); }, { value: H('sha256', small) }, isAsync);
        add(`${fn}: a file URL`, () => run(url.pathToFileURL(path.resolve('small.bin')), 'base64'), { value: H('sha256', small, 'base64') }, isAsync);
        add(`${fn}: a 1 MiB + 3 file, shake256 100 bytes`, () => fh[fn]('shake256', 'chunk.bin', { outputLength: 100 }), { value: H('shake256', fs.readFileSync('chunk.bin'), 'hex', 100) }, isAsync);
        add(`${fn}: /dev/null`, () => run('/dev/null'), { value: H('sha256', EMPTY), orCoded: true }, isAsync);
      }
    }

    // Names, encodings and lengths.
    {
      for (const [label, name] of [['"sha256\\0"', 'sha256\0'], ['"\\0sha256"', '\0sha256'], ['" sha256"', ' sha256'], ['126 a', 'a'.repeat(126)], ['127 a', 'a'.repeat(127)],
        ['128 a', 'a'.repeat(128)], ['2**20 a', 'a'.repeat(1 << 20)], ['2**20 lone surrogates', '\ud800'.repeat(1 << 20)], ['"__proto__"', '__proto__'], ['"constructor"', 'constructor'],
        ['"hasOwnProperty"', 'hasOwnProperty'], ['"KECCAK-KMAC-128" (node:crypto refuses it)', 'KECCAK-KMAC-128'], ['"KECCAK-KMAC-256" (node:crypto refuses it)', 'KECCAK-KMAC-256'], ['"md4"', 'md4']]) {
        const A = algRef(name, false);
        const expect = 'ok' in A ? { value: H(name, 'x') } : { code: 'ERR_CRYPTO_INVALID_DIGEST' };
        add(`hash: algorithm ${label}`, () => fh.hash(name, 'x'), expect);
        add(`hmac: algorithm ${label}`, () => fh.hmac(name, 'k', 'x'), 'ok' in algRef(name, true) ? { value: HM(name, 'k', 'x') } : { code: 'ERR_CRYPTO_INVALID_DIGEST' });
        add(`hashMany: algorithm ${label}`, () => fh.hashMany(name, ['x']), 'ok' in A ? { value: [H(name, 'x')] } : { code: 'ERR_CRYPTO_INVALID_DIGEST' });
      }
      add('hash: 1100 distinct valid spellings (past the name cache)', () => {
        const base = 'sha512-256WithRSAEncryption';
        const names = new Set();
        for (let i = 0; names.size < 1100; i++) names.add([...base].map((c, j) => ((i >> j) & 1 ? c.toUpperCase() : c.toLowerCase())).join(''));
        const want = H('sha512-256', 'x');
        return [...names].filter((n) => fh.hash(n, 'x') !== want);
      }, { value: [] });
      for (const [label, enc] of [['""', ''], ['"HEX"', 'HEX'], ['"Base64URL"', 'Base64URL'], ['"UTF-16LE"', 'UTF-16LE'], ['"hex\\0"', 'hex\0'], ['" hex"', ' hex'],
        ['"utf-16"', 'utf-16'], ['"base32"', 'base32'], ['2**20 a', 'a'.repeat(1 << 20)], ['"\\u0130"', '\u0130'], ['"__proto__"', '__proto__'], ['"toString"', 'toString']]) {
        const e = encRef(enc, false);
        add(`hash: encoding ${label}`, () => fh.hash('sha256', 'x', enc), 'ok' in e ? { value: H('sha256', 'x', e.ok) } : { code: e.bad });
        add(`hmac: options.outputEncoding ${label}`, () => fh.hmac('sha256', 'k', 'x', { outputEncoding: enc }), 'ok' in e ? { value: HM('sha256', 'k', 'x', e.ok) } : { code: e.bad });
        const m = encRef(enc, true);
        add(`verifyHmac: macEncoding ${label}`, () => fh.verifyHmac('sha256', 'k', 'x', 'aa', enc), 'ok' in m ? { value: false } : { code: m.bad });
      }
      add('verifyHmac: macEncoding "buffer"', () => fh.verifyHmac('sha256', 'k', 'x', 'aa', 'buffer'), { code: 'ERR_INVALID_ARG_VALUE' });
      add('verifyHmac: a 2**20-character MAC', () => fh.verifyHmac('sha256', 'k', 'x', 'a'.repeat(1 << 20)), { value: false });
      add('verifyHmac: a 2**20-character MAC in utf8', () => fh.verifyHmac('sha256', 'k', 'x', 'a'.repeat(1 << 20), 'utf8'), { value: false });
      add('verifyHmac: the MAC in hex plus one character', () => fh.verifyHmac('sha256', 'k', 'x', `${HM('sha256', 'k', 'x')}0`), { value: false });
      add('verifyHmac: the MAC in base64 with one padding character too many', () => fh.verifyHmac('sha256', 'k', 'x', `${HM('sha256', 'k', 'x', 'base64')}=`, 'base64'), { value: false });
      add('verifyHmac: the MAC in base64url, non-canonical last character', () => {
        const m = HM('sha256', 'k', 'x', 'base64url');
        const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(m[m.length - 1]);
        return fh.verifyHmac('sha256', 'k', 'x', m.slice(0, -1) + 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[last | 1], 'base64url');
      }, { value: false });
      add('verifyHmac: the MAC in latin1 with a character > 0xff', () => fh.verifyHmac('md5', 'k', 'x', `${HM('md5', 'k', 'x', 'latin1').slice(0, -1)}\u0100`, 'latin1'), { value: false });
      for (const [label, len, code] of [['-0 (sha256)', -0, 'ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH'], ['-1', -1, 'ERR_OUT_OF_RANGE'], ['1.5', 1.5, 'ERR_OUT_OF_RANGE'], ['NaN', NaN, 'ERR_OUT_OF_RANGE'],
        ['"32"', '32', 'ERR_INVALID_ARG_TYPE'], ['32n', 32n, 'ERR_INVALID_ARG_TYPE'], ['null', null, 'ERR_INVALID_ARG_TYPE'], ['2**53', 2 ** 53, 'ERR_OUT_OF_RANGE'], ['31 (sha256)', 31, 'ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH']]) {
        add(`hash: outputLength ${label}`, () => fh.hash('sha256', 'x', { outputLength: len }), { code });
      }
      add('hash: shake128 outputLength -0', () => fh.hash('shake128', 'x', { outputLength: -0 }), { value: '' });
      add('hash: shake128 outputLength 0', () => fh.hash('shake128', 'x', { outputLength: 0, outputEncoding: 'buffer' }), { value: EMPTY });
      add('hash: shake256 outputLength MAX_LENGTH + 1', () => fh.hash('shake256', 'x', { outputLength: MAX_LENGTH + 1 }), { code: 'ERR_OUT_OF_RANGE' });
      add('hash: shake256 outputLength 2**28 + 4 in hex (longer than a string can be)', () => fh.hash('shake256', 'x', { outputLength: 2 ** 28 + 4 }), { coded: true });
      add('hmac: outputLength garbage is ignored', () => fh.hmac('sha256', 'k', 'x', { outputLength: Symbol('ignored') }), { value: HM('sha256', 'k', 'x') });
      add('getHashes: with arguments, and after the last result was changed', () => { const a = fh.getHashes(Symbol('x'), null); a.length = 0; a.push('evil'); return fh.getHashes(1, 2, 3); },
        { value: [...new Set(crypto.getHashes())].sort() });
    }

    // Run them.
    for (const c of cases) {
      const ctx = new Ctx();
      for (const k of ['sentinel', 'orSentinel']) {
        if (c.expect[k] instanceof Ctx) for (const s of c.expect[k].sentinels) ctx.sentinels.add(s);
        else if (k === 'sentinel' && c.expect[k] !== undefined) ctx.sentinels.add(c.expect[k]);
      }
      if (TRACE) fs.writeSync(2, `CALL ${c.name}\n`);
      let out;
      if (c.isAsync) {
        out = await settle(c.thunk);
        if ('sync' in out || 'notPromise' in out || out.hung) {
          judgeAsync(c.name, {}, ctx, out, c.name);
          continue;
        }
      } else {
        try {
          out = { value: c.thunk() };
        } catch (e) {
          out = { threw: e };
        }
      }
      judgeTable(c, ctx, out);
    }
    return report(`${cases.length} named cases`);
  }

  function judgeTable(c, ctx, out) {
    calls++;
    if ('value' in out) tally.results++;
    else if (isCoded(out.threw)) tally.coded++;
    else if (out.threw === c.expect.sentinel || (c.expect.orSentinel instanceof Ctx && c.expect.orSentinel.sentinels.has(out.threw))) tally.passedThrough++;
    const x = c.expect;
    const where = c.name.split(/[: ]/)[0];
    if ('value' in out) {
      const got = out.value;
      if (x.orAnyValue || (x.orValue === true)) return;
      if ('value' in x) {
        if (show(got) !== show(x.value)) fail(where, `wrong result: ${c.name} || got ${show(got).slice(0, 160)}, want ${show(x.value).slice(0, 160)}`, c.name);
        return;
      }
      if (x.orValue !== undefined && x.orValue !== false) {
        if (show(got) !== show(x.orValue)) fail(where, `wrong result: ${c.name} || got ${show(got).slice(0, 160)}, want ${show(x.orValue).slice(0, 160)} or a coded error`, c.name);
        return;
      }
      if (x.oneOf) {
        if (!x.oneOf.some((w) => show(w) === show(got))) fail(where, `wrong result: ${c.name} || got ${show(got).slice(0, 160)}, want one of ${x.oneOf.map((w) => show(w).slice(0, 70)).join(' | ')}`, c.name);
        return;
      }
      if (x.check) {
        const verdict = x.check(got);
        if (verdict !== true) fail(where, `wrong result: ${c.name} || ${verdict}`, c.name);
        return;
      }
      fail(where, `returned a result, expected ${x.sentinel !== undefined ? 'the getter\'s exception' : x.code || 'a coded error'}: ${c.name} || ${show(got).slice(0, 100)}`, c.name);
      return;
    }
    const e = out.threw;
    if (x.sentinel !== undefined) {
      if (e !== x.sentinel) fail(where, `replaced the exception of the caller's getter/trap with ${ctx.sentinels.has(e) ? 'another sentinel' : errText(e)}`, c.name);
      return;
    }
    if (x.orSentinel instanceof Ctx && x.orSentinel.sentinels.has(e)) return;
    if (!isCoded(e)) {
      fail(where, `threw without a code: ${errText(e)}`, c.name);
      return;
    }
    if (x.code !== undefined) {
      if (e.code !== x.code) fail(where, `threw ${e.code} (${e.message.slice(0, 100)}), expected ${x.code}`, c.name);
      return;
    }
    if (x.coded || x.orCoded) return;
    fail(where, `threw on valid arguments: ${errText(e).slice(0, 200)}`, c.name);
  }

  // ---- another thread writes (and grows) the buffers being hashed ---------------------
  async function modeRace() {
    const HALF = 1 << 18;
    const sab = new SharedArrayBuffer(2 * HALF); // [0, HALF) written by the worker, [HALF, 2*HALF) stable
    new Uint8Array(sab, HALF).set(prng(HALF, 77));
    const gsab = new SharedArrayBuffer(4096, { maxByteLength: 1 << 18 });
    const flag = new Int32Array(new SharedArrayBuffer(8));
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
    const stable = new Uint8Array(sab, HALF, 4096);
    const stableWant = {};
    for (const a of ['sha256', 'sha512', 'sha3-256', 'blake2b512', 'md5', 'shake128']) stableWant[a] = crypto.createHash(a).update(Buffer.from(stable)).digest('hex');
    const SIZES = { sha256: 32, sha512: 64, 'sha3-256': 32, blake2b512: 64, md5: 16, shake128: 16 };
    const hexOf = (alg) => (v) => (typeof v === 'string' && v.length === 2 * SIZES[alg] && /^[0-9a-f]*$/.test(v)) || `not a ${alg} hex digest: ${show(v).slice(0, 80)}`;
    const hot = () => [
      new Uint8Array(sab, 0, HALF),
      new Uint8Array(sab, 17, 16384),
      new DataView(sab, 3, 4093),
      new Float64Array(sab, 8, 1024),
      sab,
      gsab,
      new Uint8Array(gsab),
      new Uint8Array(gsab, 1),
      new DataView(gsab, 5),
    ];
    const ALGS = Object.keys(SIZES);
    const RUNS = Number(process.env.HOSTILE_RACE_RUNS || 1000);
    const pending = [];
    for (let i = 0; i < RUNS; i++) {
      const alg = ALGS[i % ALGS.length];
      const views = hot();
      const v = views[i % views.length];
      const ctx = new Ctx();
      const name = `race #${i}: ${alg} over ${Object.prototype.toString.call(v).slice(8, -1)}`;
      if (TRACE) fs.writeSync(2, `CALL ${name}\n`);
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
      if (pending.length >= 32) await Promise.all(pending.splice(0));
    }
    await Promise.all(pending);
    const rounds = Atomics.load(flag, 1);
    await worker.terminate();
    if (rounds === 0) fail('race', 'the writer thread never ran', 'worker');
    return report(`the writer thread made ${rounds} passes; gsab grew to ${gsab.byteLength} bytes`);
  }

  switch (mode) {
    case 'random': return modeRandom();
    case 'random-async': return modeRandomAsync();
    case 'table': return modeTable();
    case 'race': return modeRace();
    default: throw new Error(`unknown mode ${mode}`);
  }
}
