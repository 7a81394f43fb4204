'use strict';
// createHash() and createHmac(): node:crypto's Hash and Hmac over a Hasher,
// for code that switches by its import. They are Transforms made lazily
// (lazy-transform.js); update/digest/copy read arguments as node:crypto's
// do (encodings.js) and throw its errors, with a code added where Node has
// none. Contract: every result equals node:crypto's for the same calls.
//
// Chunks written to the stream are hashed as they come, on this thread,
// except when the stream is being piped into and a chunk is long: then the
// chunks go through a Feed (stream/feed.js), hashed off the event loop
// where the addon is in use. A source that pipes is asynchronous anyway;
// code that calls write() and then digest() at once keeps its synchronous
// result. While a piped chunk is being hashed, update(), digest() and copy()
// throw ERR_INVALID_STATE (a Hash of node:crypto has no such moment).

const { Buffer } = require('buffer');
const { types, inspect } = require('util');
const { LazyTransform } = require('./lazy-transform');
const { inputEncoding, outputEncoding } = require('./encodings');
const { createHasher, hmacHasher } = require('../hasher');
const { rawLease } = require('../hasher/lease');
const { Feed } = require('../stream/feed');
const { chunkBytes } = require('../chunks');
const { viewLength } = require('../views');
const { makeError, invalidArgType, finalized, invalidThis } = require('../errors');
const { lookupHmacAlgorithm, toKeyBytes } = require('../args');

// Piped chunks this long or longer start the Feed.
const LONG = 64 * 1024;
const DATA_TYPES = 'of type string or an instance of Buffer, TypedArray, or DataView';
const KEY_TYPES = 'of type string or an instance of ArrayBuffer, Buffer, TypedArray, DataView, KeyObject, or CryptoKey';
const kConstruct = Symbol('fast-hash Hash');

class Hash extends LazyTransform {
  #hasher;
  #secret;
  #finalized = false;
  #flushed;     // the digest pushed at the stream's end, a Buffer
  #feed;        // while piped chunks go through one

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
    if (typeof data === 'string') {
      const name = inputEncoding(encoding);
      if (name === 'hex' && data.length % 2 !== 0) throw oddHex(data, encoding, this.update);
      this.#ready(this.update).update(data, name);
    } else if (ArrayBuffer.isView(data)) {
      this.#ready(this.update).update(data);
    } else {
      throw invalidArgType('data', DATA_TYPES, data, this.update);
    }
    return this;
  }

  // The hasher, once no piped chunk is being hashed: what the Feed holds
  // goes to it first.
  #ready(caller) {
    const feed = this.#feed;
    if (feed !== undefined) {
      if (!feed.drainSync()) {
        throw makeError(Error, 'ERR_INVALID_STATE',
          'Invalid state: a chunk piped into this stream is still being hashed', caller);
      }
      this.#feed = undefined;
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
    const flushed = this.#flushed;
    if (flushed === undefined) {
      const result = this.#ready(this.digest).digest(name);
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
    return new Hash(kConstruct, this.#ready(this.copy).copy(options), false, options);
  }

  _transform(chunk, encoding, callback) {
    let waiting;
    try {
      if (this.#feed === undefined && !this.#startsFeed(chunk)) {
        this.#hasher.update(chunkBytes(chunk, 'chunk', encoding));
      } else {
        waiting = this.#feed.write(chunkBytes(chunk, 'chunk', encoding));
      }
    } catch (err) {
      callback(err);
      return;
    }
    if (waiting === undefined) callback();
    else waiting.then(() => callback(), callback);
  }

  // Whether a chunk starts the Feed: a long one, while something pipes
  // into this stream (a pipe listens for 'unpipe' until it ends).
  #startsFeed(chunk) {
    if (typeof chunk === 'string' || viewLength(chunk) < LONG || this.listenerCount('unpipe') === 0) return false;
    this.#feed = new Feed(this.#hasher, this.#secret, true);
    return true;
  }

  _flush(callback) {
    const feed = this.#feed;
    this.#feed = undefined;
    if (this.#finalized) {
      callback();
      return;
    }
    const pushed = (digest) => {
      this.#flushed = digest;
      callback(null, digest);
    };
    if (feed === undefined) {
      let digest;
      try {
        digest = this.#hasher.digest();
      } catch (err) {
        callback(err);
        return;
      }
      pushed(digest);
    } else {
      feed.end('buffer').then(pushed, callback);
    }
  }
}

// node:crypto's Hmac has no copy(). (A subclass, not a class of its own:
// construction through one level of classes costs less.)
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

module.exports = { createHash, createHmac };
