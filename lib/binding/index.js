'use strict';
// The binding: the one interface between the shim (lib/index.js and the
// modules it uses) and the code that digests. Two implementations sit
// behind it, with the same shape: the functions and flags of interface.js,
// which test/binding-conformance.test.js holds both to, with one
// known-answer table:
//   native.js  the C addon over the OpenSSL bundled with Node (fast path);
//   js/        the same functions over the runtime's own node:crypto, for
//              where the addon cannot load (Bun, Deno, Electron, no binary
//              for the platform, a Node outside `engines`).
// What differs between them that the shim must know is a flag of the
// interface (releasesHandles, knowsOnlyNodeNames, stageBytes, ...), never
// the implementation's name.
// FAST_HASH_IMPLEMENTATION=js picks js/; =native makes a failure to load
// the addon an error thrown here; unset tries native.js, then js/, quietly.
//
// Every argument arrives checked by the shim; an implementation re-checks
// only what protects its memory, and throws coded errors for the rest.
// algId comes from resolve(), enc from `encodings` (the implementation's own
// IDs). Results: a string in enc; for enc = encodings.buffer the shim passes
// `out`, a Buffer of exactly the output length, which is filled, and
// nothing is returned. Text of any length is made (XOF outputs included).
// Handles (HmacKey, hasher) are the implementation's own; a finished or
// destroyed one throws ERR_CRYPTO_HASH_FINALIZED / ERR_INVALID_STATE.
const { makeError } = require('../errors');

// Node lines the addon is built and tested for (package.json `engines`).
function supportedNode() {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= 20 && process.versions.bun === undefined &&
    process.versions.deno === undefined;
}

function load() {
  const wanted = process.env.FAST_HASH_IMPLEMENTATION;
  if (wanted === 'js') return require('./js');
  if (wanted !== 'native' && !supportedNode()) return require('./js');
  try {
    return require('./native');
  } catch (err) {
    if (wanted !== 'native') return require('./js');
    const reason = err && err.message ? err.message : String(err);
    throw makeError(Error, 'ERR_FAST_HASH_NATIVE_UNAVAILABLE',
      `fast-hash: FAST_HASH_IMPLEMENTATION=native, but the addon cannot be loaded: ${reason}`);
  }
}

module.exports = load();
