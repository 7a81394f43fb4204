'use strict';
// The shim: cheap argument checks, then names -> small integer IDs (looked
// up once, cached), then one call into the binding (binding.js: the C addon,
// or the JavaScript implementation where it cannot load), which digests and
// encodes.

// Node's global Buffer is a getter: a module binding is a plain load.
const { Buffer } = require('buffer');
const { isAnyArrayBuffer } = require('util').types;
const binding = require('./binding');
const {
  ENC_HEX, ENC_BUFFER, ENCODING_NAMES, isNativeText, DATA_TYPES,
  lookupAlgorithm, lookupHmacAlgorithm, checkAlgorithm, parseOptions, outputLength,
  toBytes, toKeyBytes, wipeKey, toPath, fromBuffer, fromSecret, macScratch, takeMac, allocOutput, keyMac,
  macEncodingId, macValue,
  guarded, wholeView, arrayLength,
} = require('./args');
const { makeError, invalidArgType, keyDestroyed } = require('./errors');
const { createHasher, hmacHasher, keyedHasher, plainHasher } = require('./hasher');
const { sourceKind, streamOptions, digestSource } = require('./stream');

// The name of the previous hash() call and its entry: the common case is one
// algorithm over and over, and comparing interned strings is cheap.
let lastName = '';
let lastAlg;

function hash(algorithm, data, options) {
  let alg;
  if (algorithm === lastName && lastAlg !== undefined) {
    alg = lastAlg;
  } else {
    checkAlgorithm(algorithm, hash);
  }
  if (typeof data !== 'string' && !ArrayBuffer.isView(data)) {
    data = toBytes(data, 'data', hash);
  }
  // Text in hex or the cached encoding goes through one call site, so that
  // V8, weighing hash()'s calls by how often each ran, inlines the runtime's
  // one-shot under it before the 'buffer' path's.
  let enc = ENC_HEX, text = 'hex';
  if (options !== undefined) {
    if (options !== lastEncodingName) {
      if (options === 'buffer') return hashBytes(alg ?? hashAlgorithm(algorithm), data);
      return hashWith(alg, algorithm, data, options);
    }
    enc = lastEncoding;
    text = lastEncodingText;
  }
  if (alg === undefined) alg = hashAlgorithm(algorithm);
  if (alg.shot !== undefined) return shot(alg.shot, data, text);
  return binding.hash(alg.id, enc, data, alg.size);
}

// hash() with any other options. A function of its own, so that hash()
// stays short enough for V8 to inline it, and the runtime's call under it,
// into the caller.
function hashWith(cached, algorithm, data, options) {
  const { encoding, length: requested } = parseOptions(options, true, hash);
  if (typeof options === 'string' && isNativeText(encoding)) {
    lastEncodingName = options;
    lastEncoding = encoding;
    lastEncodingText = ENCODING_NAMES[encoding];
  }
  const alg = cached ?? hashAlgorithm(algorithm);
  const length = outputLength(alg, requested, hash);
  if (isNativeText(encoding)) return binding.hash(alg.id, encoding, data, length);
  return fromBuffer(bytes(binding.hash, alg.id, data, length, length), encoding);
}

// A digest as a Buffer. Its own size comes from Buffer's pool: only an
// XOF's long output can fail to be allocated (allocOutput).
function hashBytes(alg, data) {
  const out = Buffer.allocUnsafe(alg.size);
  binding.hash(alg.id, ENC_BUFFER, data, alg.size, out);
  return out;
}

// The last output encoding given by name that the binding makes (base64,
// say), so a run of calls with it skips the option parsing.
let lastEncodingName = 'hex';
let lastEncoding = ENC_HEX;
let lastEncodingText = 'hex';
// The runtime's one-shot and HMAC chain (the JavaScript implementation's,
// see interface.js), called from hash() and hmac() themselves for a digest
// whose entry names a `shot` / `macShot`: one function fewer between the
// caller and crypto.hash, a Bun class or createHmac.
const { shot, macShot } = binding;

// The 'buffer' result of fn(algId, ENC_BUFFER, a, b, out), `length` bytes:
// the binding fills a Buffer made here (a pooled Buffer costs less than one
// made in C).
function bytes(fn, algId, a, b, length) {
  const out = allocOutput(length);
  fn(algId, ENC_BUFFER, a, b, out);
  return out;
}

function hashAlgorithm(name) {
  const alg = lookupAlgorithm(name, hash);
  lastName = name;
  lastAlg = alg;
  return alg;
}

// HMAC keeps its own last-name cache: XOFs are refused here, not in hash().
let lastHmacName = '';
let lastHmacAlg;

// `name` is a string (the callers check).
function hmacAlgorithm(name, caller) {
  if (name === lastHmacName && lastHmacAlg !== undefined) return lastHmacAlg;
  const alg = lookupHmacAlgorithm(name, caller);
  lastHmacName = name;
  lastHmacAlg = alg;
  return alg;
}

// The commonest call (the last algorithm again, a string or view key and
// data, hex) goes straight to the runtime's HMAC chain where the binding
// has one (macShot): none of hmacAny()'s conversions or wiping apply to it,
// and V8 then inlines the runtime's chain into the caller.
function hmac(algorithm, key, data, options) {
  const alg = lastHmacAlg;
  if (algorithm === lastHmacName && options === undefined && alg !== undefined && alg.macShot !== undefined &&
    (typeof key === 'string' || ArrayBuffer.isView(key)) && (typeof data === 'string' || ArrayBuffer.isView(data))) {
    return macShot(alg.macShot, key, data, 'hex');
  }
  return hmacAny(algorithm, key, data, options);
}

function hmacAny(algorithm, key, data, options) {
  if (typeof algorithm !== 'string') checkAlgorithm(algorithm, hmac);
  const original = key;
  if (typeof key !== 'string' && !ArrayBuffer.isView(key)) key = toKeyBytes(key, hmac);
  try {
    if (typeof data !== 'string' && !ArrayBuffer.isView(data)) {
      data = toBytes(data, 'data', hmac);
    }
    const encoding = options === undefined ? ENC_HEX : parseOptions(options, false, hmac).encoding;
    const alg = hmacAlgorithm(algorithm, hmac);
    if (isNativeText(encoding)) {
      if (alg.macShot !== undefined) return macShot(alg.macShot, key, data, ENCODING_NAMES[encoding]);
      return binding.hmac(alg.id, encoding, key, data);
    }
    const scratch = macScratch(alg.size);
    binding.hmac(alg.id, ENC_BUFFER, key, data, scratch);
    return takeMac(scratch, encoding);
  } finally {
    if (key !== original) wipeKey(original, key);
  }
}

function verifyHmac(algorithm, key, data, mac, macEncoding) {
  if (typeof algorithm !== 'string') checkAlgorithm(algorithm, verifyHmac);
  const original = key;
  if (typeof key !== 'string' && !ArrayBuffer.isView(key)) key = toKeyBytes(key, verifyHmac);
  try {
    if (typeof data !== 'string' && !ArrayBuffer.isView(data)) {
      data = toBytes(data, 'data', verifyHmac);
    }
    const encoding = macEncodingId(macEncoding, verifyHmac);
    mac = macValue(mac, encoding, verifyHmac);
    const alg = hmacAlgorithm(algorithm, verifyHmac);
    return binding.hmacVerify(alg.id, comparedAs(encoding), key, data, mac);
  } finally {
    if (key !== original) wipeKey(original, key);
  }
}

const kConstruct = Symbol('fast-hash HmacKey');
let streamHasher; // (hmacKey) => a Hasher with its own copy of the states; set in the class

// HMAC states keyed once: each digest costs the message blocks plus one outer
// block. Usable on the thread that created it.
class HmacKey {
  #handle;
  #algorithm;
  #size;
  #destroyed = false;
  // What the hashers made from this key hold until they have a state of
  // their own (see hasher.js): the handle, and whether destroy() has wiped
  // it. destroy() does not wait for them: a hasher may be dropped unfinished
  // and never give its lease back, and the key must be wiped now. Such a
  // hasher refuses use from then on.
  #lease;

  constructor(token, handle, alg) {
    if (token !== kConstruct) {
      throw makeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR',
        'Illegal constructor: use createHmacKey()', HmacKey);
    }
    this.#handle = handle;
    this.#algorithm = alg.name;
    this.#size = alg.size;
    this.#lease = { handle, live: true };
  }

  static {
    // A hasher with a copy of the key's states, for a stream digest, which
    // a later destroy() must not touch.
    streamHasher = (key) => keyedHasher(key.#handle, { name: key.#algorithm, size: key.#size, xof: false });
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
    const encoding = options === undefined ? ENC_HEX :
      parseOptions(options, false, this.digest).encoding;
    if (this.#destroyed) throw destroyed(this.digest);
    return keyMac(this.#handle, this.#size, data, encoding);
  }

  verify(data, mac, macEncoding) {
    if (!HmacKey.#isKey(this)) throw invalidThis('verify');
    if (typeof data !== 'string' && !ArrayBuffer.isView(data)) {
      data = toBytes(data, 'data', this.verify);
    }
    const encoding = macEncodingId(macEncoding, this.verify);
    const value = macValue(mac, encoding, this.verify);
    if (this.#destroyed) throw destroyed(this.verify);
    return binding.hmacKeyVerify(this.#handle, comparedAs(encoding), data, value);
  }

  // A streaming HMAC (a Hasher) started from the keyed states.
  createHasher() {
    if (!HmacKey.#isKey(this)) throw invalidThis('createHasher');
    if (this.#destroyed) throw destroyed(this.createHasher);
    return hmacHasher(this.#lease, { name: this.#algorithm, size: this.#size, xof: false });
  }

  // The HMAC of everything `source` yields (stream.js), from a hasher with
  // its own copy of the states, made now: a later destroy() does not touch
  // it.
  digestStream(source, options) {
    try {
      if (!HmacKey.#isKey(this)) throw invalidThis('digestStream');
      const kind = sourceKind(source, this.digestStream);
      const spec = streamOptions(options, false, this.digestStream);
      if (this.#destroyed) throw destroyed(this.digestStream);
      return digestSource(streamHasher(this), true, source, kind, spec);
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

const destroyed = keyDestroyed;

function createHmacKey(algorithm, key) {
  return makeHmacKey(algorithm, key, createHmacKey);
}

function makeHmacKey(algorithm, key, caller) {
  checkAlgorithm(algorithm, caller);
  const original = key;
  if (typeof key !== 'string' && !ArrayBuffer.isView(key)) key = toKeyBytes(key, caller);
  try {
    const alg = hmacAlgorithm(algorithm, caller);
    return new HmacKey(kConstruct, binding.hmacKeyNew(alg.id, key), alg);
  } finally {
    if (key !== original) wipeKey(original, key);
  }
}

// ---- streams ---------------------------------------------------------------

function hashStream(algorithm, source, options) {
  try {
    checkAlgorithm(algorithm, hashStream);
    const kind = sourceKind(source, hashStream);
    const spec = streamOptions(options, true, hashStream);
    const alg = lookupAlgorithm(algorithm, hashStream);
    const length = outputLength(alg, spec.length, hashStream);
    return digestSource(plainHasher(alg, length), false, source, kind, spec);
  } catch (err) {
    return Promise.reject(err);
  }
}

// The key is keyed now, into a hasher with its own copy of the states; its
// HmacKey is destroyed at once.
function hmacStream(algorithm, key, source, options) {
  try {
    checkAlgorithm(algorithm, hmacStream);
    const hmacKey = makeHmacKey(algorithm, key, hmacStream);
    try {
      const kind = sourceKind(source, hmacStream);
      const spec = streamOptions(options, false, hmacStream);
      return digestSource(streamHasher(hmacKey), true, source, kind, spec);
    } finally {
      hmacKey.destroy();
    }
  } catch (err) {
    return Promise.reject(err);
  }
}

// ---- many inputs, big inputs, files ------------------------------------------

function hashMany(algorithm, inputs, options) {
  checkAlgorithm(algorithm, hashMany);
  if (!guarded(inputs, 'inputs', 'an instance of Array', hashMany, Array.isArray)) {
    throw invalidArgType('inputs', 'an instance of Array', inputs, hashMany);
  }
  // Each element is read once, by index (never through the array's own
  // iterator or methods), checked, and kept: the binding gets exactly what was
  // checked.
  const n = arrayLength(inputs, hashMany);
  const values = guarded(inputs, 'inputs', 'an instance of Array', hashMany, (a) => elements(a, n));
  const { alg, encoding, length } = digestSpec(algorithm, options, hashMany);
  const results = new Array(n);
  if (isNativeText(encoding)) {
    // Each chunk's digests come back as one string, a fixed width apiece.
    const width = binding.encodedLength(encoding, length);
    for (let start = 0; start < n; start += MANY_CHUNK) {
      const count = Math.min(MANY_CHUNK, n - start);
      const text = callMany(alg.id, encoding, length, undefined, values, start, count);
      for (let i = 0; i < count; i++) results[start + i] = text.slice(i * width, (i + 1) * width);
    }
    return results;
  }
  // One Buffer for all the digests, filled by the binding, then cut.
  const out = allocOutput(n * length);
  for (let start = 0; start < n; start += MANY_CHUNK) {
    const count = Math.min(MANY_CHUNK, n - start);
    callMany(alg.id, ENC_BUFFER, length, out.subarray(start * length, (start + count) * length), values, start,
      count);
  }
  for (let i = 0; i < n; i++) results[i] = fromBuffer(out.subarray(i * length, (i + 1) * length), encoding);
  return results;
}

// inputs[0..n), each read once, checked and kept.
function elements(inputs, n) {
  const values = new Array(n);
  for (let i = 0; i < n; i++) {
    const value = inputs[i];
    if (typeof value === 'string' || ArrayBuffer.isView(value)) {
      values[i] = value;
    } else if (isAnyArrayBuffer(value)) {
      values[i] = wholeView(value);
    } else {
      throw invalidArgType(`inputs[${i}]`, DATA_TYPES, value, hashMany);
    }
  }
  return values;
}

// binding.hashMany(algId, encoding, length, into, ...values[start, start +
// count)), the arguments built by index.
function callMany(algId, encoding, length, into, values, start, count) {
  const args = new Array(4 + count);
  args[0] = algId;
  args[1] = encoding;
  args[2] = length;
  args[3] = into;
  for (let i = 0; i < count; i++) args[4 + i] = values[start + i];
  return ReflectApply(binding.hashMany, undefined, args);
}
const ReflectApply = Reflect.apply;

// Elements go to C as arguments (reading them from an array through
// Node-API costs more than a short digest); this many per call keeps the
// argument list well inside V8's stack.
const MANY_CHUNK = 1024;
const NO_OPTIONS = Object.freeze({ encoding: ENC_HEX, length: -1 });

// Options, algorithm and output length, in that order, for the functions
// off the hot path (which can afford the object this returns).
function digestSpec(algorithm, options, caller) {
  const { encoding, length: requested } = options === undefined ? NO_OPTIONS :
    parseOptions(options, true, caller);
  const alg = lookupAlgorithm(algorithm, caller);
  return { alg, encoding, length: outputLength(alg, requested, caller) };
}

// The encoding for async jobs and files: one the binding makes itself, else
// a Buffer (turned into text here).
const jobEncoding = (encoding) => (typeof encoding === 'number' ? encoding : ENC_BUFFER);
const settle = (promise, encoding) =>
  (typeof encoding === 'number' ? promise : promise.then((out) => fromBuffer(out, encoding)));
// A MAC's encoding for the binding: one it decodes, or (bytes decoded here)
// any, as the binding then only compares.
const comparedAs = (encoding) => (typeof encoding === 'number' ? encoding : ENC_HEX);

function hashAsync(algorithm, data, options) {
  try {
    checkAlgorithm(algorithm, hashAsync);
    if (typeof data !== 'string' && !ArrayBuffer.isView(data)) data = toBytes(data, 'data', hashAsync);
    const { alg, encoding, length } = digestSpec(algorithm, options, hashAsync);
    // The input is copied (strings encoded) before this call returns.
    return settle(binding.hashAsync(alg.id, jobEncoding(encoding), data, length), encoding);
  } catch (err) {
    return Promise.reject(err);
  }
}

function hmacAsync(algorithm, key, data, options) {
  const original = key;
  try {
    checkAlgorithm(algorithm, hmacAsync);
    if (typeof key !== 'string' && !ArrayBuffer.isView(key)) key = toKeyBytes(key, hmacAsync);
    if (typeof data !== 'string' && !ArrayBuffer.isView(data)) data = toBytes(data, 'data', hmacAsync);
    const encoding = options === undefined ? ENC_HEX : parseOptions(options, false, hmacAsync).encoding;
    const alg = lookupHmacAlgorithm(algorithm, hmacAsync);
    const job = binding.hmacAsync(alg.id, jobEncoding(encoding), key, data);
    return typeof encoding === 'number' ? job : job.then((out) => fromSecret(out, encoding));
  } catch (err) {
    return Promise.reject(err);
  } finally {
    // The job holds its own copy by now.
    if (key !== original) wipeKey(original, key);
  }
}

function hashFile(algorithm, path, options) {
  try {
    checkAlgorithm(algorithm, hashFile);
    path = toPath(path, hashFile);
    const { alg, encoding, length } = digestSpec(algorithm, options, hashFile);
    return settle(binding.hashFile(alg.id, jobEncoding(encoding), path, length), encoding);
  } catch (err) {
    return Promise.reject(err);
  }
}

function hashFileSync(algorithm, path, options) {
  checkAlgorithm(algorithm, hashFileSync);
  path = toPath(path, hashFileSync);
  const { alg, encoding, length } = digestSpec(algorithm, options, hashFileSync);
  if (isNativeText(encoding)) return binding.hashFileSync(alg.id, encoding, path, length);
  return fromBuffer(bytes(binding.hashFileSync, alg.id, path, length, length), encoding);
}

let hashNames;
function getHashes() {
  if (hashNames === undefined) {
    hashNames = [...new Set(require('crypto').getHashes())].sort();
  }
  return hashNames.slice();
}

module.exports = {
  implementation: binding.implementation,
  hash,
  hmac,
  createHmacKey,
  createHasher,
  verifyHmac,
  hashMany,
  hashAsync,
  hmacAsync,
  hashFile,
  hashFileSync,
  hashStream,
  hmacStream,
  getHashes,
};
