'use strict';
// hash(), hashMany() and hashAsync(): digests of data in memory. Cheap
// argument checks (args.js), then names -> small integer IDs (looked up
// once, cached), then one call into the binding, which digests and
// encodes; results shaped by results.js. Contract: every error keeps
// node:crypto's code and wording, with the stack starting at the public
// function called.

// Node's global Buffer is a getter: a module binding is a plain load.
const { Buffer } = require('buffer');
const { isAnyArrayBuffer } = require('util').types;
const binding = require('./binding');
const {
  ENC_HEX, ENC_BUFFER, isNativeText, DATA_TYPES, lookupAlgorithm, checkAlgorithm, parseOptions, outputLength,
  toBytes, guarded, wholeView, arrayLength, digestSpec,
} = require('./args');
const { fromBuffer, allocOutput, filledBy, jobEncoding, settle } = require('./results');
const { invalidArgType } = require('./errors');
const { viewTag, viewLength } = require('./views');

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
// The binding's shortest call for text (binding/interface.js, `shot`),
// taken by hash() itself for a digest whose entry names a token: no
// function of the binding's between the caller and the runtime's one-shot.
const { shot } = binding;

function hashAlgorithm(name) {
  const alg = lookupAlgorithm(name, hash);
  lastName = name;
  lastAlg = alg;
  return alg;
}

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

module.exports = { hash, hashMany, hashAsync, atOnce };
