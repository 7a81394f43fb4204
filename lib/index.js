'use strict';
// The package's entry (with index.mjs): the public functions, each from the
// module of its kind, and the two stream digests. Every public function
// applies its argument rules (args.js), turns names into small integer IDs
// (looked up once, cached), then makes one call into the binding (binding/:
// the C addon, or the JavaScript implementation where it cannot load);
// results are shaped by results.js. Digests of data in memory are in
// hash.js, MACs in hmac.js and hmac-key.js, files in files.js, hashers in
// hasher/, the stream machinery in stream/, createHash and createHmac in
// drop-in/. Contract: every error keeps node:crypto's code and wording, with
// the stack starting at the public function called.

const binding = require('./binding');
const { checkAlgorithm, lookupAlgorithm, outputLength } = require('./args');
const { hash, hashMany, hashAsync } = require('./hash');
const { hmac, verifyHmac, hmacAsync } = require('./hmac');
const { hashFile, hashFileSync } = require('./files');
const { createHasher, plainHasher } = require('./hasher');
const { createHmacKey, makeHmacKey, streamHasher } = require('./hmac-key');
const { sourceKind, streamOptions, digestSource } = require('./stream');
const { hashInto } = require('./into');
const { createHash, createHmac, Hash, Hmac } = require('./drop-in/hash');

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
