'use strict';
// Argument rules shared by every public function: algorithm names and
// encodings become small integer IDs (looked up once, cached), data and keys
// become something the binding reads directly. Contract: every error has
// node:crypto's code and wording; results are shaped in results.js.

// node:crypto is required where it is used, so that the fast-hash command,
// which needs it only for uncommon names, starts without loading it.
const {
  isAnyArrayBuffer, isKeyObject, isCryptoKey, isProxy, isUint8Array,
} = require('util').types;
const { Buffer, constants: { MAX_LENGTH } } = require('buffer');
const binding = require('./binding');
const { hasZeroByte } = require('./views');
const {
  makeError, invalidArgType, invalidArgValue, outOfRange, invalidDigest,
} = require('./errors');

// ---- output encodings -------------------------------------------------------
// An encoding is the binding's ID (a number: the binding makes the string,
// or the Buffer for 'buffer'), or the name of one that Buffer#toString makes
// here from the digest's bytes (a string).
const { hex: ENC_HEX, buffer: ENC_BUFFER } = binding.encodings;
const ENCODINGS = new Map([
  ...Object.entries(binding.encodings),
  ['binary', binding.encodings.latin1],
  ['utf8', 'utf8'],
  ['utf-8', 'utf8'],
  ['', 'utf8'], // Node's normalizeEncoding('') is 'utf8', and crypto.hash agrees
  ['ucs2', 'utf16le'],
  ['ucs-2', 'utf16le'],
  ['utf16le', 'utf16le'],
  ['utf-16le', 'utf16le'],
  ['ascii', 'ascii'],
]);

function encodingId(encoding, name, caller) {
  if (encoding === 'hex') return ENC_HEX;
  if (encoding === 'buffer') return ENC_BUFFER;
  if (typeof encoding !== 'string') {
    throw invalidArgType(name, 'of type string', encoding, caller);
  }
  let id = ENCODINGS.get(encoding);
  if (id === undefined) id = ENCODINGS.get(encoding.toLowerCase());
  if (id === undefined) throw invalidArgValue(name, encoding, caller);
  return id;
}

// Whether the binding makes the string for this encoding itself.
const isNativeText = (encoding) => typeof encoding === 'number' && encoding !== ENC_BUFFER;

// The binding's encoding IDs -> their names.
const ENCODING_NAMES = [];
for (const [name, id] of Object.entries(binding.encodings)) ENCODING_NAMES[id] = name;

// ---- algorithms -------------------------------------------------------------
// name (as given) -> { id, size, block, xof, name }. Only names OpenSSL knows
// are cached, and the cache is bounded, so junk names cannot grow it.
const algorithms = new Map();
const MAX_CACHED_NAMES = 1024;

function lookupAlgorithm(name, caller) {
  let alg = algorithms.get(name);
  if (alg === undefined) {
    const found = binding.resolve(name);
    if (found === undefined || !nodeTakes(name, found)) throw invalidDigest(name, caller);
    alg = { ...found, name: name.toLowerCase() };
    if (algorithms.size >= MAX_CACHED_NAMES) algorithms.clear();
    algorithms.set(name, alg);
  }
  return alg;
}

// OpenSSL fetches a few internal digests that node:crypto refuses
// (KECCAK-KMAC-128, KECCAK-256 on Node 20): node:crypto decides what a name
// means, once per name. An XOF is asked with its length: without one, Node
// 25+ warns (DEP0198) and later Nodes refuse. The SHA-1 and SHA-2 names
// below, which the FIPS provider has too, are taken by every node:crypto
// whose OpenSSL fetches them, so they are not asked (sparing a command that
// uses nothing else the loading of node:crypto).
const TAKEN_BY_NODE = new Set(['sha1', 'sha224', 'sha256', 'sha384', 'sha512']);

function nodeTakes(name, alg) {
  if (binding.knowsOnlyNodeNames) return true;
  if (TAKEN_BY_NODE.has(name)) return true;
  try {
    require('crypto').createHash(name, alg.xof ? { outputLength: alg.size } : undefined);
    return true;
  } catch {
    return false;
  }
}

// HMAC refuses XOFs, as createHmac does (there with no code), and digests
// whose block the binding does not know: the JavaScript implementation's
// runtime has no HMAC over them (Deno: RSA-*, md4, sm3).
function lookupHmacAlgorithm(name, caller) {
  const alg = lookupAlgorithm(name, caller);
  if (alg.xof || !(alg.block > 0)) throw invalidDigest(name, caller);
  return alg;
}

function checkAlgorithm(algorithm, caller) {
  if (typeof algorithm !== 'string') {
    throw invalidArgType('algorithm', 'of type string', algorithm, caller);
  }
}

// ---- hostile values -------------------------------------------------------------
// A revoked Proxy makes the engine throw a TypeError with no code wherever it
// is touched; that becomes ERR_INVALID_ARG_TYPE. Anything else thrown (a
// getter's or a trap's own error) goes on unchanged.
function revoked(err, value) {
  return err instanceof TypeError && isProxy(value) && /revoked/.test(err.message);
}

// Runs check(value); a revoked proxy's engine error becomes a coded one.
function guarded(value, name, expected, caller, check) {
  try {
    return check(value);
  } catch (err) {
    if (revoked(err, value)) throw invalidArgType(name, expected, value, caller);
    throw err;
  }
}

function readOption(options, key, caller) {
  try {
    return options[key];
  } catch (err) {
    if (revoked(err, options)) {
      throw invalidArgType('outputEncoding', 'of type string or an instance of Object', options, caller);
    }
    throw err;
  }
}

// A view of a whole ArrayBuffer; a detached one has no bytes left (as a
// view of it has none).
function wholeView(buffer) {
  try {
    return new Uint8Array(buffer);
  } catch {
    return new Uint8Array(0);
  }
}

// ---- data and keys ------------------------------------------------------------
const DATA_TYPES = 'of type string or an instance of Buffer, TypedArray, ' +
  'DataView, ArrayBuffer, or SharedArrayBuffer';
const KEY_TYPES = 'of type string or an instance of ArrayBuffer, Buffer, ' +
  'TypedArray, DataView, KeyObject, CryptoKey, or SharedArrayBuffer';

// Strings and views go to C as they are (the callers test for those inline,
// the common case); whole ArrayBuffers get a view.
function toBytes(value, name, caller) {
  if (isAnyArrayBuffer(value)) return wholeView(value);
  throw invalidArgType(name, DATA_TYPES, value, caller);
}

// Keys that are not strings or views: ArrayBuffers get a view; secret
// KeyObjects and CryptoKeys are exported to a Buffer, which the caller must
// wipe after use (see wipeKey).
function toKeyBytes(key, caller) {
  if (isAnyArrayBuffer(key)) return wholeView(key);
  // Every touch of the key is guarded: a look-alike may revoke itself on any
  // of them (isKeyObject reads a property, then type, then export).
  return guarded(key, 'key', KEY_TYPES, caller, (k) => secretBytes(k, caller));
}

function secretBytes(key, caller) {
  let keyObject;
  if (isKeyObject(key)) keyObject = key;
  else if (isCryptoKey(key)) keyObject = require('crypto').KeyObject.from(key);
  else throw invalidArgType('key', KEY_TYPES, key, caller);
  if (keyObject.type !== 'secret') {
    throw makeError(TypeError, 'ERR_CRYPTO_INVALID_KEY_OBJECT_TYPE',
      `Invalid key object type ${keyObject.type}, expected secret.`, caller);
  }
  return keyObject.export();
}

// The length of the array `inputs`, read once and normalised as
// Array.prototype.map reads it (ToLength: NaN and negatives are 0, fractions
// truncated); a length no array can have is ERR_OUT_OF_RANGE, one that is
// no number at all (a Symbol) or a revoked proxy ERR_INVALID_ARG_TYPE.
const MAX_ARRAY_LENGTH = 2 ** 32 - 1;
function arrayLength(inputs, caller) {
  const raw = guarded(inputs, 'inputs', 'an instance of Array', caller, (a) => a.length);
  if (typeof raw === 'symbol') {
    throw invalidArgType('inputs.length', 'of type number', raw, caller);
  }
  const n = Math.trunc(Number(raw));
  if (!(n > 0)) return 0;
  if (n > MAX_ARRAY_LENGTH) {
    throw outOfRange('inputs.length', `<= ${MAX_ARRAY_LENGTH}`, raw, caller);
  }
  return n;
}

// Only exported copies are ours to wipe; the caller's own bytes are not.
function wipeKey(original, bytes) {
  if (bytes !== original && Buffer.isBuffer(bytes)) bytes.fill(0);
}

// ---- options ----------------------------------------------------------------
// Parsed options land here rather than in a fresh object per call.
const parsed = { encoding: ENC_HEX, length: -1 };

// `options` is an encoding name or { outputEncoding, outputLength }.
// outputLength is read only when `withLength` (HMAC ignores it, as
// createHmac does).
function parseOptions(options, withLength, caller) {
  if (typeof options === 'string') {
    parsed.encoding = encodingId(options, 'outputEncoding', caller);
    parsed.length = -1;
    return parsed;
  }
  if (typeof options !== 'object' || options === null) {
    throw invalidArgType('outputEncoding', 'of type string or an instance of Object',
      options, caller);
  }
  // Both properties are read before `parsed` is written: a getter may call
  // back into fast-hash, which uses `parsed` too.
  const outputEncoding = readOption(options, 'outputEncoding', caller);
  const outputLength = withLength ? readOption(options, 'outputLength', caller) : undefined;
  const encoding = outputEncoding === undefined ? ENC_HEX :
    encodingId(outputEncoding, 'options.outputEncoding', caller);
  if (outputLength !== undefined) {
    if (typeof outputLength !== 'number') {
      throw invalidArgType('options.outputLength', 'of type number', outputLength, caller);
    }
    if (!Number.isSafeInteger(outputLength) || outputLength < 0) {
      throw outOfRange('options.outputLength', 'a non-negative safe integer',
        outputLength, caller);
    }
  }
  parsed.encoding = encoding;
  // -0 is 0 (node:crypto's own createHash aborts on -0 in Node 20).
  parsed.length = outputLength === undefined ? -1 : outputLength + 0;
  return parsed;
}

// An HMAC's output encoding: as parseOptions, except that '' gives a
// Buffer, as createHmac's digest('') does (Hmac#digest reads a falsy
// encoding as 'buffer'; crypto.hash reads '' as UTF-8, and hash() follows it).
function macEncoding(options, caller) {
  if (options === undefined) return ENC_HEX;
  if (options === '') return ENC_BUFFER;
  return parseOptions(options, false, caller).encoding;
}

function outputLength(alg, requested, caller) {
  if (requested < 0 || requested === alg.size) return alg.size;
  if (!alg.xof) {
    throw makeError(Error, 'ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH',
      `Output length ${requested} is invalid for ${alg.name}, which does not support XOF`,
      caller);
  }
  if (requested > MAX_OUTPUT_LENGTH) {
    throw outOfRange('options.outputLength', `<= ${MAX_OUTPUT_LENGTH}`, requested, caller);
  }
  return requested;
}
// node:crypto takes an outputLength up to 2^32 - 1 (a uint32), whatever
// length a Buffer may have (2^53 - 1 from Node 22).
const MAX_OUTPUT_LENGTH = Math.min(MAX_LENGTH, 2 ** 32 - 1);

// ---- MACs to compare ----------------------------------------------------------
// A MAC string in hex, base64, base64url or latin1 goes to C as it is and is
// decoded there, strictly: text that is not exactly the MAC's bytes in that
// encoding is simply not equal. Other text encodings are decoded here.

const MAC_TYPES = 'of type string or an instance of Buffer, TypedArray, ' +
  'DataView, ArrayBuffer, or SharedArrayBuffer';

// The MAC's encoding: a binding ID (the binding decodes the string) or a
// text encoding's name (decoded here by macValue, then compared as bytes).
function macEncodingId(macEncoding, caller) {
  if (macEncoding === undefined) return ENC_HEX;
  const encoding = encodingId(macEncoding, 'macEncoding', caller);
  if (encoding === ENC_BUFFER) throw invalidArgValue('macEncoding', macEncoding, caller);
  return encoding;
}

// What the binding compares: the string itself (for encodings it decodes),
// or bytes.
function macValue(mac, encoding, caller) {
  if (ArrayBuffer.isView(mac)) return mac;
  if (typeof mac === 'string') {
    return typeof encoding === 'number' ? mac : Buffer.from(mac, encoding);
  }
  if (isAnyArrayBuffer(mac)) return wholeView(mac);
  throw invalidArgType('mac', MAC_TYPES, mac, caller);
}

// A MAC's encoding for the binding: one it decodes, or (bytes decoded here)
// any, as the binding then only compares.
const comparedAs = (encoding) => (typeof encoding === 'number' ? encoding : ENC_HEX);

// ---- paths --------------------------------------------------------------------
const { fileURLToPath } = require('url');
const PATH_TYPES = 'of type string or an instance of Buffer or URL';

// A path for C: a string or Buffer without NUL bytes; file: URLs become
// strings (others throw ERR_INVALID_URL_SCHEME, as fs does).
// Whether value is a real URL: the base class's own href getter works on it
// (a look-alike or a proxied one fails the private-field check).
const urlHref = Object.getOwnPropertyDescriptor(URL.prototype, 'href').get;
function isURL(value) {
  try {
    Reflect.apply(urlHref, value, []);
    return true;
  } catch {
    return false;
  }
}

// A typed array's bytes are read through the intrinsics (views.js): a
// subclass or a Buffer with another prototype may override length or
// includes(), and running its code is not ours to do.
function hasNul(path) {
  if (typeof path === 'string') return path.includes('\u0000');
  return hasZeroByte(path);
}

function toPath(path, caller) {
  if (typeof path !== 'string' && !isUint8Array(path)) {
    if (!isURL(path)) throw invalidArgType('path', PATH_TYPES, path, caller);
    path = fileURLToPath(path);
  }
  if (hasNul(path)) {
    throw makeError(TypeError, 'ERR_INVALID_ARG_VALUE',
      "The argument 'path' must be a string, Uint8Array, or URL without null bytes. " +
      `Received ${JSON.stringify(String(path))}`, caller);
  }
  return path;
}

const NO_OPTIONS = Object.freeze({ encoding: ENC_HEX, length: -1 });

// Options, algorithm and output length, in that order, for the functions
// off the hot path (which can afford the object this returns).
function digestSpec(algorithm, options, caller) {
  const { encoding, length: requested } = options === undefined ? NO_OPTIONS :
    parseOptions(options, true, caller);
  const alg = lookupAlgorithm(algorithm, caller);
  return { alg, encoding, length: outputLength(alg, requested, caller) };
}

module.exports = {
  macEncoding,
  ENCODING_NAMES,
  arrayLength,
  guarded,
  wholeView,
  toPath,
  DATA_TYPES,
  ENC_HEX,
  ENC_BUFFER,
  isNativeText,
  encodingId,
  lookupAlgorithm,
  lookupHmacAlgorithm,
  checkAlgorithm,
  toBytes,
  toKeyBytes,
  wipeKey,
  parseOptions,
  outputLength,
  macEncodingId,
  macValue,
  comparedAs,
  digestSpec,
};
