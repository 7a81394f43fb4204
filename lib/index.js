'use strict';
// The JS shim: cheap argument checks, then names -> small integer IDs (looked
// up once, cached), then one call into C, which digests and encodes.

const crypto = require('crypto');
const { isAnyArrayBuffer } = require('util').types;
const binding = require('./binding');
const {
  makeError, invalidArgType, invalidArgValue, outOfRange, invalidDigest,
} = require('./errors');

// ---- output encodings -----------------------------------------------------
// Non-negative IDs are made into strings in C; the negative ones fill a
// Buffer in C, which is returned as is or turned into text by Buffer#toString.
const { hex: ENC_HEX, base64: ENC_BASE64, base64url: ENC_BASE64URL, latin1: ENC_LATIN1 } =
  binding.encodings;
const ENC_BUFFER = -1;
const TEXT_ENCODINGS = ['', 'buffer', 'utf8', 'utf16le', 'ascii']; // by -id
const ENCODINGS = new Map([
  ['hex', ENC_HEX],
  ['base64', ENC_BASE64],
  ['base64url', ENC_BASE64URL],
  ['latin1', ENC_LATIN1],
  ['binary', ENC_LATIN1],
  ['buffer', ENC_BUFFER],
  ['utf8', -2],
  ['utf-8', -2],
  ['', -2], // Node's normalizeEncoding('') is 'utf8', and crypto.hash agrees
  ['ucs2', -3],
  ['ucs-2', -3],
  ['utf16le', -3],
  ['utf-16le', -3],
  ['ascii', -4],
]);

function encodingId(encoding, name, caller) {
  if (encoding === 'hex') return ENC_HEX;
  if (typeof encoding !== 'string') {
    throw invalidArgType(name, 'of type string', encoding, caller);
  }
  let id = ENCODINGS.get(encoding);
  if (id === undefined) id = ENCODINGS.get(encoding.toLowerCase());
  if (id === undefined) throw invalidArgValue(name, encoding, caller);
  return id;
}

// ---- algorithms -------------------------------------------------------------
// name (as given) -> { id, size, block, xof, name }. Only names OpenSSL knows
// are cached, and the cache is bounded, so junk names cannot grow it.
const algorithms = new Map();
const MAX_CACHED_NAMES = 1024;
// The name of the previous call and its entry: the common case is one
// algorithm over and over, and comparing interned strings is cheap.
let lastName = '';
let lastAlg;

function lookupAlgorithm(name, caller) {
  let alg = algorithms.get(name);
  if (alg === undefined) {
    const found = binding.resolve(name);
    if (found === undefined) throw invalidDigest(name, caller);
    alg = { ...found, name: name.toLowerCase() };
    if (algorithms.size >= MAX_CACHED_NAMES) algorithms.clear();
    algorithms.set(name, alg);
  }
  lastName = name;
  lastAlg = alg;
  return alg;
}

// ---- shared argument rules --------------------------------------------------
const DATA_TYPES = 'of type string or an instance of Buffer, TypedArray, ' +
  'DataView, ArrayBuffer, or SharedArrayBuffer';

// Strings and views go to C as they are; whole ArrayBuffers get a view.
function toBytes(value, name, caller) {
  if (isAnyArrayBuffer(value)) return new Uint8Array(value);
  throw invalidArgType(name, DATA_TYPES, value, caller);
}

// Parsed options land here rather than in a fresh object per call.
let optEncoding = ENC_HEX;
let optLength = -1;

function parseOptions(options, caller) {
  optLength = -1;
  if (typeof options === 'string') {
    optEncoding = encodingId(options, 'outputEncoding', caller);
    return;
  }
  if (typeof options !== 'object' || options === null) {
    throw invalidArgType('outputEncoding', 'of type string or an instance of Object',
      options, caller);
  }
  const { outputEncoding, outputLength } = options;
  optEncoding = outputEncoding === undefined ? ENC_HEX :
    encodingId(outputEncoding, 'options.outputEncoding', caller);
  if (outputLength !== undefined) {
    if (!Number.isSafeInteger(outputLength) || outputLength < 0) {
      throw outOfRange('options.outputLength', 'a non-negative safe integer',
        outputLength, caller);
    }
    optLength = outputLength;
  }
}

function outputLength(alg, caller) {
  if (optLength < 0 || optLength === alg.size) return alg.size;
  if (!alg.xof) {
    throw makeError(Error, 'ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH',
      `Output length ${optLength} is invalid for ${alg.name}, which does not support XOF`,
      caller);
  }
  if (optLength > MAX_LENGTH) {
    throw outOfRange('options.outputLength', `<= ${MAX_LENGTH}`, optLength, caller);
  }
  return optLength;
}
const MAX_LENGTH = require('buffer').constants.MAX_LENGTH;

// Fills a Buffer in C; 'buffer' returns it, rarer encodings decode it in JS.
function digestToBuffer(id, data, length, encoding) {
  const out = Buffer.allocUnsafe(length);
  binding.hashInto(id, data, out);
  return encoding === ENC_BUFFER ? out : out.toString(TEXT_ENCODINGS[-encoding]);
}

// ---- public functions -------------------------------------------------------

function hash(algorithm, data, options) {
  let alg;
  if (algorithm === lastName && lastAlg !== undefined) {
    alg = lastAlg;
  } else if (typeof algorithm !== 'string') {
    throw invalidArgType('algorithm', 'of type string', algorithm, hash);
  }
  if (typeof data !== 'string' && !ArrayBuffer.isView(data)) {
    data = toBytes(data, 'data', hash);
  }
  if (options === undefined) {
    if (alg === undefined) alg = lookupAlgorithm(algorithm, hash);
    return binding.hash(alg.id, data, alg.size);
  }
  parseOptions(options, hash);
  if (alg === undefined) alg = lookupAlgorithm(algorithm, hash);
  const encoding = optEncoding;
  const length = outputLength(alg, hash);
  if (encoding >= 0) return binding.hash(alg.id | (encoding << 8), data, length);
  return digestToBuffer(alg.id, data, length, encoding);
}

let hashNames;
function getHashes() {
  if (hashNames === undefined) {
    hashNames = [...new Set(crypto.getHashes())].sort();
  }
  return hashNames.slice();
}

module.exports = { hash, getHashes };
