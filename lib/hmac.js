'use strict';
// hmac(), verifyHmac() and hmacAsync(): MACs of data in memory, keyed for
// each call (createHmacKey, in hmac-key.js, keys once for many). The same
// shape as hash.js: checks, cached IDs, one binding call. Contract: every
// error keeps node:crypto's code and wording; keys converted on the way
// are wiped, and MAC bytes never sit in Buffer's shared pool (results.js).

const binding = require('./binding');
const {
  ENC_HEX, ENC_BUFFER, isNativeText, lookupHmacAlgorithm, checkAlgorithm, toBytes, toKeyBytes, wipeKey,
  macEncodingId, macValue, comparedAs, macEncoding,
} = require('./args');
const { fromSecret, macScratch, takeMac, jobEncoding } = require('./results');
const { atOnce } = require('./hash');

// The binding's shortest call for a MAC as text (binding/interface.js,
// `macShot`), taken by hmac() itself for a digest whose entry names a token.
const { macShot } = binding;

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

module.exports = { hmac, verifyHmac, hmacAsync };
