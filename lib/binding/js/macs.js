'use strict';
// HMAC: hmac(), hmacVerify() and the HmacKey functions, each by the way its
// digest's MACs are made here. A way is one strategy object per kind of
// keyed state (a keyed Bun.CryptoHasher, keyed Hash states, createHmac),
// chosen for each digest once, when resolve() first sees it (macWay()).
// Contract: keys live in the runtime's native memory (a secret KeyObject, a
// keyed Bun.CryptoHasher); what this side copies itself is wiped; a MAC
// given as text is decoded strictly, and compared in constant time.
const crypto = require('crypto');
const { Buffer } = require('buffer');
const { runtime, BunHasher, VIEWS, update, input, viewBytes } = require('./runtime');
const { algAt, encodingAt } = require('./table');
const { give } = require('./digests');
const { keyStates } = require('./keyed-states');
const { makeError } = require('../../errors');

// Each way: state(alg, key) -> a new keyed state for a key as the shim
// gives it (a string or a view): update(data), digest([encoding]);
// keep(alg, key) -> the key as an HmacKey keeps it; keyed(k) -> a new keyed
// state of the HmacKey k; hasher(k) -> one that can be copied, for an HMAC
// hasher; calls: which call does the work (runtimeCalls()).
const WAYS = {
  bun: {
    state: (alg, key) => new BunHasher(alg.name, VIEWS.key ? key : input(key)),
    keep: (alg, key) => WAYS.bun.state(alg, key),
    keyed: (k) => k.key.copy(),
    hasher: (k) => k.key.copy(),
    calls: { hmac: 'Bun.CryptoHasher keyed', hmacKey: 'Bun.CryptoHasher keyed, copied' },
  },
  states: {
    state: (alg, key) => keyStates(alg, key),
    keep: (alg, key) => secretKey(key),
    keyed: (k) => statesOf(k).copy(),
    hasher: (k) => statesOf(k).copy(),
    calls: { hmac: 'keyed states', hmacKey: 'keyed states, copied' },
  },
  // A digest whose block size could not be learnt gets the runtime's Hmac
  // for its hashers too, which cannot be copied.
  hmac: {
    state: (alg, key) => keyedHmac(alg.name, input(key)),
    keep: (alg, key) => secretKey(key),
    keyed: (k) => crypto.createHmac(k.alg.name, k.key),
    hasher: (k) => (k.alg.block === 0 ? crypto.createHmac(k.alg.name, k.key) : statesOf(k).copy()),
    calls: { hmac: 'createHmac', hmacKey: 'createHmac(KeyObject)' },
  },
};

// The way for a digest: `keyed` whether a keyed Bun.CryptoHasher gives
// createHmac's MACs, `block` its block size (0: unknown).
function macWay(keyed, block) {
  if (keyed) return WAYS.bun;
  return runtime.keyStates && block !== 0 ? WAYS.states : WAYS.hmac;
}

// The HmacKey k's keyed states, made once.
const statesOf = (k) => (k.states ??= keyStates(k.alg, k.key));

// createHmac(name, key). node:crypto encodes a string key with
// Buffer.from(), which puts a short one in Buffer's shared pool, where any
// pooled Buffer's .buffer reaches it: a string key is encoded here instead,
// into memory of this side's own, wiped once createHmac has copied it.
function keyedHmac(name, key) {
  if (typeof key !== 'string' || key.length === 0) return crypto.createHmac(name, key);
  const bytes = keyBytes(key);
  try {
    return crypto.createHmac(name, bytes);
  } finally {
    bytes.fill(0);
  }
}

// A string key's UTF-8 bytes (as Buffer.from() encodes it, lone surrogates
// included) in memory that is not Buffer's pool: a scratch kept for short
// keys (the runtime copies the key before anything else can run), or a
// Buffer of its own for a long one. The caller wipes them.
const keyScratch = Buffer.allocUnsafeSlow(256);
function keyBytes(key) {
  if (3 * key.length <= keyScratch.length) return keyScratch.subarray(0, keyScratch.write(key));
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(key));
  bytes.write(key);
  return bytes;
}

// The key in a secret KeyObject (which copies it); the UTF-8 copy of a
// string key made here is wiped.
function secretKey(key) {
  if (typeof key !== 'string') {
    return crypto.createSecretKey(viewBytes(key));
  }
  const bytes = Buffer.from(key);
  try {
    return crypto.createSecretKey(bytes);
  } finally {
    bytes.fill(0);
  }
}

// The MAC of everything `state` absorbed and then data: text made by the
// runtime (no bytes here to wipe), or bytes into `out`, or with neither, a
// Buffer (the caller wipes it).
function macOf(state, data, encoding, out) {
  update(state, data);
  if (out === undefined && encoding !== 'buffer') return state.digest(encoding);
  const bytes = state.digest();
  return encoding === undefined ? bytes : give(bytes, encoding, out, true);
}

function hmac(algId, enc, key, data, out) {
  const alg = algAt(algId);
  return macOf(alg.mac.state(alg, key), data, encodingAt(enc), out);
}

// A MAC in `encoding`; bytes only turned into text are wiped.
function emitSecret(mac, encoding) {
  if (encoding === 'buffer') return mac;
  const text = mac.toString(encoding);
  mac.fill(0);
  return text;
}

// ---- verification ---------------------------------------------------------
// A MAC given as text is decoded strictly, as the addon does: text that is
// not exactly `size` bytes in the encoding (wrong length, a character
// outside the alphabet, misplaced padding, stray bits) is not equal.
function decodeMac(text, encoding, size) {
  if (encoding === 'hex') {
    return text.length === 2 * size && /^[0-9a-fA-F]*$/.test(text) ? Buffer.from(text, 'hex') : undefined;
  }
  if (encoding === 'latin1') {
    return text.length === size && !/[^\u0000-\u00ff]/.test(text) ? Buffer.from(text, 'latin1') : undefined;
  }
  const bare = Math.ceil((size * 4) / 3);
  const padded = Math.ceil(size / 3) * 4;
  if (text.length !== bare && text.length !== padded) return undefined;
  if (text.length === padded && !/^=*$/.test(text.slice(bare))) return undefined;
  const body = text.slice(0, bare);
  const bytes = Buffer.from(body, encoding);
  // Canonical text only: re-encoding gives the same characters back (which
  // also refuses the other alphabet and non-zero bits past the last byte).
  const again = bytes.toString(encoding).replace(/=+$/, '');
  return bytes.length === size && again === body ? bytes : undefined;
}

// Compares in constant time, then wipes the computed MAC.
function verdict(computed, mac, enc) {
  const given = typeof mac === 'string' ? decodeMac(mac, encodingAt(enc), computed.length) :
    viewBytes(mac);
  const equal = given !== undefined && given.length === computed.length &&
    crypto.timingSafeEqual(computed, given);
  computed.fill(0);
  return equal;
}

function hmacVerify(algId, macEnc, key, data, mac) {
  const alg = algAt(algId);
  return verdict(macOf(alg.mac.state(alg, key), data), mac, macEnc);
}

// ---- keys -----------------------------------------------------------------
const kDestroyed = 'Invalid state: the HmacKey has been destroyed';

// An HmacKey: the key as its way keeps it, and once made, its keyed states
// (keyStates()).
function hmacKeyNew(algId, key) {
  const alg = algAt(algId);
  return { alg, key: alg.mac.keep(alg, key), states: undefined };
}

function keyOf(handle) {
  if (handle === null || typeof handle !== 'object' || !('key' in handle)) {
    throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'Not an HmacKey');
  }
  if (handle.key === undefined) throw makeError(Error, 'ERR_INVALID_STATE', kDestroyed);
  return handle;
}

function hmacKeyDigest(handle, enc, data, out) {
  const k = keyOf(handle);
  return macOf(k.alg.mac.keyed(k), data, encodingAt(enc), out);
}

function hmacKeyVerify(handle, enc, data, mac) {
  const k = keyOf(handle);
  return verdict(macOf(k.alg.mac.keyed(k), data), mac, enc);
}

function hmacKeyDestroy(handle) {
  const k = keyOf(handle);
  k.key = undefined;
  k.states?.free();
  k.states = undefined;
}

module.exports = {
  WAYS, macWay, keyedHmac, secretKey, emitSecret, keyOf, hmac, hmacVerify,
  hmacKeyNew, hmacKeyDigest, hmacKeyVerify, hmacKeyDestroy,
};
