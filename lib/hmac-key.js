'use strict';
// createHmacKey() and the HmacKey class: HMAC states keyed once, each
// digest then costing the message blocks plus one outer block. Contract: a
// key is usable on the thread that made it; after destroy() its digest(),
// verify(), createHasher() and digestStream() throw ERR_INVALID_STATE, as
// does a hasher made from it that has no state of its own yet.

const binding = require('./binding');
const {
  lookupHmacAlgorithm, checkAlgorithm, toBytes, toKeyBytes, wipeKey,
  macEncodingId, macValue, comparedAs, macEncoding,
} = require('./args');
const { keyMac } = require('./results');
const { makeError, keyDestroyed } = require('./errors');
const { hmacHasher, keyedHasher } = require('./hasher');
const { keyLease } = require('./hasher/lease');
const { sourceKind, streamOptions, digestSource } = require('./stream');

const kConstruct = Symbol('fast-hash HmacKey');
// This module's one way into a key's private methods, for streamHasher()
// below.
let internal;

class HmacKey {
  #handle;
  #algorithm;
  #size;
  #destroyed = false;
  // What the hashers made from this key hold until they have a state of
  // their own (see hasher/hasher.js): the handle, and whether destroy() has
  // wiped it. destroy() does not wait for them: a hasher may be dropped
  // unfinished and never give its lease back, and the key must be wiped
  // now. Such a hasher refuses use from then on.
  #lease;

  constructor(token, handle, alg) {
    if (token !== kConstruct) {
      throw makeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR',
        'Illegal constructor: use createHmacKey()', HmacKey);
    }
    this.#handle = handle;
    this.#algorithm = alg.name;
    this.#size = alg.size;
    this.#lease = keyLease(handle);
  }

  static {
    internal = { streamHasher: (key) => key.#streamHasher() };
  }

  // A hasher with a copy of the key's states, for a stream digest, which a
  // later destroy() must not touch.
  #streamHasher() {
    return keyedHasher(this.#handle, { name: this.#algorithm, size: this.#size, xof: false });
  }

  // `#handle in x` throws for primitives: a method taken off its object
  // (`const { digest } = key`) must still get a coded error.
  static #isKey(value) {
    return value !== null && typeof value === 'object' && #handle in value;
  }

  get algorithm() {
    if (!HmacKey.#isKey(this)) throw invalidThis('algorithm');
    return this.#algorithm;
  }

  digest(data, options) {
    if (!HmacKey.#isKey(this)) throw invalidThis('digest');
    if (typeof data !== 'string' && !ArrayBuffer.isView(data)) {
      data = toBytes(data, 'data', this.digest);
    }
    const encoding = macEncoding(options, this.digest);
    if (this.#destroyed) throw keyDestroyed(this.digest);
    return keyMac(this.#handle, this.#size, data, encoding);
  }

  verify(data, mac, macEncoding) {
    if (!HmacKey.#isKey(this)) throw invalidThis('verify');
    if (typeof data !== 'string' && !ArrayBuffer.isView(data)) {
      data = toBytes(data, 'data', this.verify);
    }
    const encoding = macEncodingId(macEncoding, this.verify);
    const value = macValue(mac, encoding, this.verify);
    if (this.#destroyed) throw keyDestroyed(this.verify);
    return binding.hmacKeyVerify(this.#handle, comparedAs(encoding), data, value);
  }

  // A streaming HMAC (a Hasher) started from the keyed states.
  createHasher() {
    if (!HmacKey.#isKey(this)) throw invalidThis('createHasher');
    if (this.#destroyed) throw keyDestroyed(this.createHasher);
    return hmacHasher(this.#lease, { name: this.#algorithm, size: this.#size, xof: false });
  }

  // The HMAC of everything `source` yields (stream/), from a hasher with
  // its own copy of the states, made now: a later destroy() does not touch
  // it.
  digestStream(source, options) {
    try {
      if (!HmacKey.#isKey(this)) throw invalidThis('digestStream');
      const kind = sourceKind(source, this.digestStream);
      const spec = streamOptions(options, false, this.digestStream);
      if (this.#destroyed) throw keyDestroyed(this.digestStream);
      return digestSource(this.#streamHasher(), true, source, kind, spec);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  // Wipes the keyed states now rather than at garbage collection. Later
  // digest(), verify() and createHasher() calls throw ERR_INVALID_STATE, as
  // does a hasher made from the key that has no state of its own yet;
  // destroy() again does nothing.
  destroy() {
    if (!HmacKey.#isKey(this)) throw invalidThis('destroy');
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#lease.live = false;
    binding.hmacKeyDestroy(this.#handle);
  }

  get [Symbol.toStringTag]() {
    return 'HmacKey';
  }
}

function invalidThis(what) {
  return makeError(TypeError, 'ERR_INVALID_THIS', `Value of "this" must be of type HmacKey (${what})`);
}

function createHmacKey(algorithm, key) {
  return makeHmacKey(algorithm, key, createHmacKey);
}

// An HmacKey for createHmacKey() or hmacStream(), errors naming `caller`.
function makeHmacKey(algorithm, key, caller) {
  checkAlgorithm(algorithm, caller);
  const original = key;
  if (typeof key !== 'string' && !ArrayBuffer.isView(key)) key = toKeyBytes(key, caller);
  try {
    const alg = lookupHmacAlgorithm(algorithm, caller);
    return new HmacKey(kConstruct, binding.hmacKeyNew(alg.id, key), alg);
  } finally {
    if (key !== original) wipeKey(original, key);
  }
}

// A Hasher with its own copy of the key's states (hmacStream() in
// index.js): the key may be destroyed at once.
const streamHasher = (key) => internal.streamHasher(key);

module.exports = { createHmacKey, makeHmacKey, streamHasher };
