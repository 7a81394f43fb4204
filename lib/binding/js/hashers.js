'use strict';
// Hashers (createHasher, hmacKey.createHasher()): a hasher is { hash,
// length, xof, mac }: hash is a Hash object (Hash#copy makes its copies),
// or for HMAC a keyed state that can be copied (a keyed Bun.CryptoHasher,
// or a KeyedPair, since Hmac has no copy()); undefined once finished. Each
// HmacKey keys its pair once; its hashers start from copies. Contract: a
// finished hasher throws ERR_CRYPTO_HASH_FINALIZED; one with batches queued
// (hasherUpdateAsync) refuses other calls with ERR_INVALID_STATE.
const { makeHash, update, prefix } = require('./runtime');
const { algAt, encodingAt } = require('./table');
const { give } = require('./digests');
const { keyOf } = require('./macs');
const { KeyedPair } = require('./keyed-states');
const { makeError } = require('../../errors');

function hasherNew(algId, length) {
  const alg = algAt(algId);
  return { hash: makeHash(alg, length), length: alg.xof ? length : alg.size, xof: alg.xof, mac: false };
}

// A live hasher with fewer than `depth` batches queued (1: none).
function liveHasher(handle, depth = 1) {
  if (handle === null || typeof handle !== 'object' || !('hash' in handle)) {
    throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'Not a Hasher');
  }
  if (handle.hash === undefined) throw makeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
  if (handle.busy >= depth) {
    throw makeError(Error, 'ERR_INVALID_STATE', 'Invalid state: the hasher is being updated off the event loop');
  }
  return handle;
}

function hasherUpdate(handle, data, length) {
  const { hash } = liveHasher(handle);
  if (length === undefined) {
    update(hash, data);
    return;
  }
  update(hash, prefix(data, length));
}

// Text of a fixed-length digest is made by the runtime; an XOF's goes
// through give(), which codes the error of one past the string limit.
function hasherDigest(handle, enc, tail, n, out) {
  const h = liveHasher(handle);
  const { hash, mac, xof } = h;
  try {
    if (n > 0) hasherUpdate(handle, tail, n);
  } finally {
    h.hash = undefined;
  }
  const encoding = encodingAt(enc);
  if (out === undefined && encoding !== 'buffer' && !xof) return hash.digest(encoding);
  return give(hash.digest(), encoding, out, mac);
}

function hasherCopy(handle, length) {
  const { hash, xof, length: own, mac } = liveHasher(handle);
  if (typeof hash.copy !== 'function') {
    throw makeError(Error, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM',
      'This runtime cannot copy this HMAC hasher');
  }
  return { hash: xof ? hash.copy({ outputLength: length }) : hash.copy(), length: xof ? length : own, xof, mac };
}

// The update a stream batch gets on the thread pool natively: here on this
// thread, as node:crypto hashes streams, with the promise settled on a
// later turn of the event loop, so a source that never ends still lets
// timers, I/O and process.exit() run between batches. Until then the
// hasher is busy, as the native one is: other calls refuse it, but for one
// more batch.
function hasherUpdateAsync(handle, batch, n) {
  const h = liveHasher(handle, 2);
  update(h.hash, prefix(batch, n));
  h.busy = (h.busy ?? 0) + 1;
  return new Promise((resolve) => setImmediate(() => {
    h.busy--;
    resolve();
  }));
}

function hasherFree(handle) {
  if (handle === null || typeof handle !== 'object' || !('hash' in handle)) return;
  if (handle.hash instanceof KeyedPair) handle.hash.free();
  handle.hash = undefined;
}

// An HMAC hasher from the HmacKey `handle`, by its digest's way.
function hmacKeyHasher(handle) {
  const k = keyOf(handle);
  return { hash: k.alg.mac.hasher(k), length: k.alg.size, xof: false, mac: true };
}

module.exports = {
  hasherNew, hasherUpdate, hasherDigest, hasherCopy, hasherFree, hasherUpdateAsync, hmacKeyHasher,
};
