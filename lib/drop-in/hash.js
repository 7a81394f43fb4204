'use strict';
// createHash() and createHmac(): node:crypto's Hash and Hmac over a Hasher,
// for code that switches by its import. They are Transforms made lazily
// (lazy-transform.js); update/digest/copy read arguments as node:crypto's
// do (encodings.js) and throw its errors, with a code added where Node has
// none. Contract: every result equals node:crypto's for the same calls.
//
// Chunks written to the stream are hashed as they come, on this thread,
// except from a long chunk from a pipe on: those are hashed off the event
// loop where the addon is in use (offload.js), without changing what a
// call made meanwhile gives.

const { Buffer } = require('buffer');
const { types, inspect } = require('util');
const { LazyTransform } = require('./lazy-transform');
const { inputEncoding, outputEncoding } = require('./encodings');
const { createHasher, hmacHasher } = require('../hasher');
const { Offload } = require('./offload');
const { rawLease } = require('../hasher/lease');
const { chunkBytes } = require('../chunks');
const { viewLength } = require('../views');
const { makeError, invalidArgType, finalized, invalidThis } = require('../errors');
const { lookupHmacAlgorithm, toKeyBytes } = require('../args');

// Piped chunks this long or longer are hashed off the event loop.
const LONG = 64 * 1024;
const DATA_TYPES = 'of type string or an instance of Buffer, TypedArray, or DataView';
const KEY_TYPES = 'of type string or an instance of ArrayBuffer, Buffer, TypedArray, DataView, KeyObject, or CryptoKey';
const kConstruct = Symbol('fast-hash Hash');

// What a Hash used as a stream keeps, made at its first chunk or end: the
// Offload of long piped chunks while it has any, the error a job ended
// with, the stream's end waiting for the Offload, and the digest pushed.
const streamState = () => ({ pending: undefined, failed: undefined, flushing: undefined, flushed: undefined });

class Hash extends LazyTransform {
  #hasher;
  #secret;
  #finalized = false;
  #stream;      // streamState(), once used as a stream

  constructor(token, hasher, secret, options) {
    if (token !== kConstruct) {
      throw makeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor: use createHash()');
    }
    super(options);
    this.#hasher = hasher;
    this.#secret = secret;
  }

  static is(value) {
    return value !== null && typeof value === 'object' && #hasher in value;
  }

  update(data, encoding) {
    if (!Hash.is(this)) throw invalidThis('Hash', 'update');
    if (this.#finalized) throw finalized(this.update);
    const hasher = this.#stream === undefined ? this.#hasher : this.#ready();
    if (typeof data === 'string') {
      const name = inputEncoding(encoding);
      if (name === 'hex' && data.length % 2 !== 0) throw oddHex(data, encoding, this.update);
      hasher.update(data, name);
    } else if (ArrayBuffer.isView(data)) {
      hasher.update(data);
    } else {
      throw invalidArgType('data', DATA_TYPES, data, this.update);
    }
    return this;
  }

  // The hasher for a call that cannot wait: while piped chunks are being
  // hashed, the state from before them, updated with them here.
  #ready() {
    const stream = this.#stream;
    const pending = stream?.pending;
    if (pending !== undefined) {
      stream.pending = undefined;
      this.#hasher = pending.takeOver();
      // An end waiting for the Offload goes on once this call is done.
      const flush = stream.flushing;
      stream.flushing = undefined;
      if (flush !== undefined) process.nextTick(() => this._flush(flush));
    }
    return this.#hasher;
  }

  // After digest(), Hash#digest throws, and Hmac#digest gives an empty
  // result (a Buffer for a falsy encoding or 'buffer', else ''), as
  // node:crypto's do. After the stream's end pushed the digest, the next
  // digest() gives it again (Hash) or an empty one (Hmac).
  digest(encoding) {
    if (!Hash.is(this)) throw invalidThis('Hash', 'digest');
    if (this.#finalized) {
      if (!this.#secret) throw finalized(this.digest);
      return !encoding || encoding === 'buffer' ? Buffer.alloc(0) : '';
    }
    const name = outputEncoding(encoding);
    const flushed = this.#stream === undefined ? undefined : this.#stream.flushed;
    if (flushed === undefined) {
      const result = (this.#stream === undefined ? this.#hasher : this.#ready()).digest(name);
      this.#finalized = true;
      return result;
    }
    this.#finalized = true;
    if (this.#secret) return name === 'buffer' ? Buffer.alloc(0) : '';
    return name === 'buffer' ? Buffer.from(flushed) : flushed.toString(name);
  }

  copy(options) {
    if (!Hash.is(this)) throw invalidThis('Hash', 'copy');
    if (this.#finalized) throw finalized(this.copy);
    return new Hash(kConstruct, this.#ready().copy(options), false, options);
  }

  _transform(chunk, encoding, callback) {
    const stream = (this.#stream ??= streamState());
    try {
      const bytes = chunkBytes(chunk, 'chunk', encoding);
      if (stream.pending !== undefined) {
        // After a long chunk, every chunk goes the same way, in order.
        stream.pending.add(typeof bytes === 'string' ? Buffer.from(bytes) : bytes, callback);
      } else if (stream.failed !== undefined) {
        callback(stream.failed);
      } else if (typeof bytes === 'string' || viewLength(bytes) < LONG || this.listenerCount('unpipe') === 0) {
        this.#hasher.update(bytes);
        callback();
      } else {
        // A long chunk from a pipe (which listens for 'unpipe' while it lasts).
        stream.pending = new Offload(this.#hasher, this.#secret, (err) => this.#idle(err));
        stream.pending.add(bytes, callback);
      }
    } catch (err) {
      callback(err);
    }
  }

  // The Offload has hashed every chunk written (or a job failed, and it is
  // closed).
  #idle(err) {
    const stream = this.#stream;
    if (err) {
      stream.pending = undefined;
      stream.failed = err;
    }
    const flush = stream.flushing;
    stream.flushing = undefined;
    if (flush !== undefined) this._flush(flush);
  }

  _flush(callback) {
    const stream = (this.#stream ??= streamState());
    const pending = stream.pending;
    if (pending !== undefined) {
      if (!pending.idle) {
        stream.flushing = callback;
        return;
      }
      stream.pending = undefined;
      this.#hasher = pending.close();
    }
    if (stream.failed !== undefined) {
      callback(stream.failed);
      return;
    }
    if (this.#finalized) {
      callback();
      return;
    }
    let digest;
    try {
      digest = this.#hasher.digest();
    } catch (err) {
      callback(err);
      return;
    }
    stream.flushed = digest;
    callback(null, digest);
  }
}

// node:crypto's Hmac has no copy(). (A subclass: construction through one
// level of classes costs less than through two.)
class Hmac extends Hash {}
Object.defineProperty(Hmac.prototype, 'copy', { value: undefined });

// Hex text of odd length, named as the caller spelt the encoding.
function oddHex(data, encoding, caller) {
  return makeError(TypeError, 'ERR_INVALID_ARG_VALUE',
    `The argument 'encoding' is invalid for data of length ${data.length}. Received ${inspect(encoding)}`, caller);
}

// node:crypto's error for a digest or output length it refuses, made by
// asking it: the class and message differ between Hash and Hmac and between
// runtimes. `ours` is kept where node:crypto takes the arguments.
const ASKED = new Set(['ERR_CRYPTO_INVALID_DIGEST', 'ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH', 'ERR_OUT_OF_RANGE']);
function nodeError(ours, ask, caller) {
  if (!ASKED.has(ours?.code)) return ours;
  try {
    ask(require('crypto'));
  } catch (err) {
    const Class = [TypeError, RangeError].find((C) => err instanceof C) ?? Error;
    return makeError(Class, err.code ?? ours.code, err.message, caller);
  }
  return ours;
}

function createHash(algorithm, options) {
  let hasher;
  try {
    hasher = createHasher(algorithm, options);
  } catch (err) {
    throw nodeError(err, (crypto) => crypto.createHash(algorithm, options), createHash);
  }
  return new Hash(kConstruct, hasher, false, options);
}

// The key is kept as given (a string) or as bytes of the Hmac's own until
// the MAC needs it: one part and digest() then cost one one-shot HMAC.
function createHmac(algorithm, key, options) {
  if (typeof algorithm !== 'string') throw invalidArgType('hmac', 'of type string', algorithm, createHmac);
  const bytes = ownKey(key, options);
  let alg;
  try {
    alg = lookupHmacAlgorithm(algorithm, createHmac);
  } catch (err) {
    if (typeof bytes !== 'string') bytes.fill(0);
    throw nodeError(err, (crypto) => crypto.createHmac(algorithm, 'k'), createHmac);
  }
  return new Hmac(kConstruct, hmacHasher(rawLease(alg.id, bytes), alg), true, options);
}

// The key as createHmac reads it (a string in options.encoding, UTF-8 by
// default; bytes; a KeyObject or CryptoKey): a string, or a copy in memory
// of its own (never Buffer's shared pool). Copies made on the way are wiped.
function ownKey(key, options) {
  if (typeof key === 'string') {
    const encoding = options !== null && typeof options === 'object' ? options.encoding : undefined;
    if (encoding == null) return key;
    if (typeof encoding !== 'string') throw invalidArgType('options.encoding', 'of type string', encoding, createHmac);
    return copied(Buffer.from(key, encoding), true);
  }
  if (ArrayBuffer.isView(key)) return copied(chunkBytes(key), false);
  if (types.isAnyArrayBuffer(key) || types.isKeyObject?.(key) || types.isCryptoKey?.(key)) {
    const bytes = toKeyBytes(key, createHmac);
    return copied(bytes, bytes.buffer !== key);
  }
  throw invalidArgType('key', KEY_TYPES, key, createHmac);
}

function copied(bytes, wipe) {
  const own = new Uint8Array(viewLength(bytes));
  own.set(bytes);
  if (wipe) bytes.fill(0);
  return own;
}

// node:crypto's Hash and Hmac constructors, called with or without `new`:
// they make what createHash and createHmac make, and `instanceof` them
// holds for those.
function constructorOf(name, Class, make) {
  const made = { [name]: function (...args) { return make(...args); } }[name];
  made.prototype = Class.prototype;
  return made;
}
const HashConstructor = constructorOf('Hash', Hash, createHash);
const HmacConstructor = constructorOf('Hmac', Hmac, createHmac);

module.exports = { createHash, createHmac, Hash: HashConstructor, Hmac: HmacConstructor };
