'use strict';
// The oracle of the hostile-argument children: what node:crypto makes of
// each argument, worked out without running the caller's code, and so what
// a call must do: { ok: value } | { bad: code } | { user: sentinel }.
const crypto = require('crypto');
const fs = require('fs');
const url = require('url');
const {
  isProxy, isAnyArrayBuffer, isArrayBuffer, isSharedArrayBuffer, isArrayBufferView, isDataView,
  isUint8Array, isKeyObject, isCryptoKey,
} = require('util').types;
const { constants: { MAX_LENGTH } } = require('buffer');
const { PROXIES, safeGet } = require('./judge');

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
  // An HMAC's '' is a Buffer, as createHmac's digest('') is (withLength is
  // false for HMAC); hash()'s '' is UTF-8, as crypto.hash's.
  if (v === '' && !withLength) return { ok: { enc: 'buffer', length: -1 } };
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
    if (p.mode === 'revoked') return { bad: undefined };
    // Whether this runtime's isKeyObject and isCryptoKey look through a
    // proxy: Node 20's read a property through it, and the trap decides;
    // Node 24's and 26's do not, and the key is then simply not one.
    let seen;
    try {
      seen = isKeyObject(v) || isCryptoKey(v);
    } catch {
      if (p.mode === 'throwAll') return { user: p.sentinel };
      seen = true;
    }
    if (p.mode === 'throwAll') return { bad: 'ERR_INVALID_ARG_TYPE' };
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


module.exports = {
  call, getterOf, visibleBytes, algRef, ENC, encRef, optionsRef, lengthRef, dataRef, keyRef, macRef, macEncRef,
  macMatches, inputsRef, pathRef, digestOut, hmacOut, expectFrom,
};
