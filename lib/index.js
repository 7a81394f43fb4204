'use strict';
// The package's entry (with index.mjs) and the shim's public functions:
// cheap argument checks (args.js), then names -> small integer IDs (looked
// up once, cached), then one call into the binding (binding/: the C addon,
// or the JavaScript implementation where it cannot load), which digests and
// encodes; results shaped by results.js. The HmacKey class is in
// hmac-key.js, the Hasher in hasher/, the stream digests in stream/.
// Contract: every error keeps node:crypto's code and wording, with the
// stack starting at the public function called.

// Node's global Buffer is a getter: a module binding is a plain load.
const { Buffer } = require('buffer');
const { isAnyArrayBuffer } = require('util').types;
const binding = require('./binding');
const {
  ENC_HEX, ENC_BUFFER, isNativeText, DATA_TYPES,
  lookupAlgorithm, lookupHmacAlgorithm, checkAlgorithm, parseOptions, outputLength,
  toBytes, toKeyBytes, wipeKey, toPath, macEncodingId, macValue, comparedAs,
  guarded, wholeView, arrayLength, macEncoding,
} = require('./args');
const {
  fromBuffer, fromSecret, macScratch, takeMac, allocOutput, filledBy, jobEncoding, settle,
} = require('./results');
const { invalidArgType } = require('./errors');
const { viewTag, viewLength } = require('./views');
const { createHasher, plainHasher } = require('./hasher');
const { createHmacKey, makeHmacKey, streamHasher } = require('./hmac-key');
const { sourceKind, streamOptions, signalOption, digestSource } = require('./stream');
const { hashInto } = require('./into');
const { abortable } = require('./file-abort');
const { createHash, createHmac, Hash, Hmac } = require('./drop-in/hash');

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
  // the engine inlines the runtime's one-shot there first (benchmark/README.md,
  // "Figures behind design choices in the code").
  let enc = ENC_HEX;
  if (options !== undefined) {
    if (options !== lastEncodingName) {
      if (options === 'buffer') return hashBytes(alg ?? hashAlgorithm(algorithm), data);
      return hashWith(alg, algorithm, data, options);
    }
    enc = lastEncoding;
  }
  if (alg === undefined) alg = hashAlgorithm(algorithm);
  if (alg.shot !== undefined) return shot(alg.shot, enc, data, alg.size);
  return binding.hash(alg.id, enc, data, alg.size);
}

// hash() with any other options. A function of its own, so that hash()
// stays short enough for the engine to inline it, and the runtime's call
// under it, into the caller.
function hashWith(cached, algorithm, data, options) {
  const { encoding, length: requested } = parseOptions(options, true, hash);
  if (typeof options === 'string' && isNativeText(encoding)) {
    lastEncodingName = options;
    lastEncoding = encoding;
  }
  const alg = cached ?? hashAlgorithm(algorithm);
  const length = outputLength(alg, requested, hash);
  if (isNativeText(encoding)) return binding.hash(alg.id, encoding, data, length);
  return fromBuffer(filledBy(binding.hash, alg.id, data, length, length), encoding);
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
// The binding's shortest calls for text (binding/interface.js, `shot` and
// `macShot`), taken by hash() and hmac() themselves for a digest whose
// entry names a token: no function of the binding's between the caller
// and the runtime's one-shot or HMAC chain.
const { shot, macShot } = binding;

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
// data, hex) goes straight to the binding's shortest call (macShot): none
// of hmacAny()'s conversions or wiping apply to it, and the engine then
// inlines the runtime's chain into the caller.
function hmac(algorithm, key, data, options) {
  const alg = lastHmacAlg;
  if (algorithm === lastHmacName && options === undefined && alg !== undefined && alg.macShot !== undefined &&
    (typeof key === 'string' || ArrayBuffer.isView(key)) && (typeof data === 'string' || ArrayBuffer.isView(data))) {
    return macShot(alg.macShot, ENC_HEX, key, data);
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
    const encoding = macEncoding(options, hmac);
    const alg = hmacAlgorithm(algorithm, hmac);
    if (isNativeText(encoding)) {
      if (alg.macShot !== undefined) return macShot(alg.macShot, encoding, key, data);
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

// Elements go to the binding as arguments (reading them from an array
// through Node-API costs more than a short digest: benchmark/README.md);
// this many per call keeps the argument list well inside the stack.
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

// Inputs up to this many bytes are hashed at once on the calling thread:
// handing a job to the pool and taking its result back costs the event loop
// more than hashing them does (benchmark/README.md, "Figures behind design
// choices"). The promise settles as any resolved promise does.
const AT_ONCE = 4096;
function atOnce(data) {
  if (typeof data === 'string') return data.length <= AT_ONCE / 3;
  return viewTag(data) !== undefined && viewLength(data) <= AT_ONCE;
}

function hashAsync(algorithm, data, options) {
  try {
    if (atOnce(data)) return Promise.resolve(hash(algorithm, data, options));
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
    if (atOnce(data)) return Promise.resolve(hmac(algorithm, key, data, options));
    checkAlgorithm(algorithm, hmacAsync);
    if (typeof key !== 'string' && !ArrayBuffer.isView(key)) key = toKeyBytes(key, hmacAsync);
    if (typeof data !== 'string' && !ArrayBuffer.isView(data)) data = toBytes(data, 'data', hmacAsync);
    const encoding = macEncoding(options, hmacAsync);
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
    // An options object may hold a signal (file-abort.js).
    const signal = options !== null && typeof options === 'object' ? signalOption(options, hashFile) : undefined;
    const job = (cancel) => binding.hashFile(alg.id, jobEncoding(encoding), path, length, cancel);
    return settle(abortable(job, signal), encoding);
  } catch (err) {
    return Promise.reject(err);
  }
}

function hashFileSync(algorithm, path, options) {
  checkAlgorithm(algorithm, hashFileSync);
  path = toPath(path, hashFileSync);
  const { alg, encoding, length } = digestSpec(algorithm, options, hashFileSync);
  if (isNativeText(encoding)) return binding.hashFileSync(alg.id, encoding, path, length);
  return fromBuffer(filledBy(binding.hashFileSync, alg.id, path, length, length), encoding);
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
  hashInto,
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
  createHash,
  createHmac,
  Hash,
  Hmac,
};
