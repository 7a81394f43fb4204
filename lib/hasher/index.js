'use strict';
// createHasher() and hmacKey.createHasher(): incremental digests and
// streaming HMACs (the Hasher class, hasher.js), and the hashers the stream
// digests make (stream/). Contract: every hasher made here has its
// arguments checked; the native state is made when first needed (see
// hasher.js, staging).
const binding = require('../binding');
const { lookupAlgorithm, checkAlgorithm } = require('../args');
const { Hasher, newHasher, absorbAsync, discard, clone } = require('./hasher');
const { hasherLength } = require('./options');

// The name of the previous createHasher() call and its entry, as hash()
// keeps them.
let lastName = '';
let lastAlg;

function createHasher(algorithm, options) {
  let alg = lastAlg;
  if (algorithm !== lastName || alg === undefined) {
    checkAlgorithm(algorithm, createHasher);
    alg = lookupAlgorithm(algorithm, createHasher);
    lastName = algorithm;
    lastAlg = alg;
  }
  const length = options === undefined ? alg.size : hasherLength(options, alg, createHasher);
  return newHasher(undefined, alg, length, false);
}

// A plain hasher of `alg` (lookupAlgorithm's entry) giving `length` bytes,
// its arguments already checked (stream/).
function plainHasher(alg, length) {
  return newHasher(undefined, alg, length, false);
}

// hmacKey.createHasher(): `lease` is the key's ({ handle, live },
// hmac-key.js); `alg` its { name, size, xof: false }.
function hmacHasher(lease, alg) {
  return newHasher(undefined, alg, alg.size, true, lease);
}

// An HMAC hasher with its own copy of the states of the key `keyHandle`
// (the binding's), for a stream digest; `alg` as for hmacHasher.
function keyedHasher(keyHandle, alg) {
  return newHasher(binding.hmacKeyHasher(keyHandle), alg, alg.size, true, undefined);
}

module.exports = { createHasher, hmacHasher, keyedHasher, plainHasher, Hasher, absorbAsync, discard, clone };
