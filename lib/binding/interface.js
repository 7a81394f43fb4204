'use strict';
// What every implementation of the binding exports (see index.js): each
// name with its signature, and the flags by which the shim tells what an
// implementation needs without naming it. test/binding-conformance.test.js
// checks both implementations against it.
const INTERFACE = Object.freeze({
  implementation: "'native' | 'js' (for messages and the public `implementation`; the shim branches on the flags below, never on this)",
  releasesHandles: 'boolean: whether a hasher handle dropped unfinished must be given back with hasherFree (true: ' +
    'handles name slots of a store, which the shim frees for hashers collected unfinished; false: garbage collection ' +
    'reclaims them)',
  knowsOnlyNodeNames: "boolean: whether resolve() knows only the names node:crypto takes (true: the binding is the " +
    "runtime's node:crypto; false: it knows OpenSSL's, and the shim asks node:crypto about each new name)",
  stageBytes: 'number: how many bytes of short hasher parts the shim gathers before sending them (0 where ' +
    "the runtime's own incremental hasher costs less than the gathering)",
  macStageBytes: 'number: the same for HMAC hashers',
  encodings: '{ hex, base64, base64url, latin1, buffer } -> id',
  encodedLength: '(enc, n) -> length of the text of n bytes in enc',
  resolve: '(name) -> { id, size, block, xof, path, shot, macShot } | undefined (shot, macShot: tokens, below)',
  shot: "the shim's hash() for text with the last encoding, by the binding's shortest call for the digest: " +
    "shot(entry.shot, enc, data, length) -> as hash(entry.id, enc, data, length) for a text enc. resolve()'s " +
    '`shot` is the token (native: the ID, shot being hash itself; js: the runtime\'s one-shot, a Bun class or a ' +
    "digest's name), undefined where the digest has none (hash() is then its shortest call)",
  macShot: "hmac()'s the same way: macShot(entry.macShot, enc, key, data) -> as hmac(entry.id, enc, key, data) for " +
    "a text enc (native: hmac itself; js: the runtime's HMAC chain, where it takes every key and view as it is)",
  hash: '(algId, enc, data, length[, out]) -> string | undefined',
  hashPrefix: "(algId, enc, data, n, length[, out]) -> as hash, of data's first n bytes",
  hashMany: '(algId, enc, length, into, ...inputs) -> one string, each digest at ' +
    'encodedLength(enc, length) characters; with a Buffer `into`, digest i fills its i-th slice',
  hmac: '(algId, enc, key, data[, out]) -> string | undefined',
  hmacVerify: '(algId, enc, key, data, mac) -> boolean (mac: bytes, or a string in enc)',
  hmacKeyNew: '(algId, key) -> handle',
  hmacKeyDigest: '(handle, enc, data[, out]) -> as hmac',
  hmacKeyVerify: '(handle, enc, data, mac) -> as hmacVerify',
  hmacKeyDestroy: '(handle) -> later use: ERR_INVALID_STATE',
  hmacKeyHasher: "(keyHandle) -> hasher handle started from copies of the key's keyed states",
  hasherNew: '(algId, length) -> hasher handle (length: output bytes, read for XOFs only)',
  hasherUpdate: '(handle, data[, n]) -> absorbs data (a string as UTF-8, or a view), its first n bytes when n is given',
  hasherDigest: '(handle, enc, tail, n[, out]) -> as hash, of everything absorbed and then ' +
    "tail's first n bytes; the handle is finished whatever happens",
  hasherCopy: '(handle, length) -> handle of a copy (length as in hasherNew)',
  hasherFree: '(handle) -> finishes a hasher dropped unfinished (a finished or unknown one: nothing)',
  hasherUpdateAsync: "(handle, batch, n) -> Promise<undefined>: absorbs the Uint8Array batch's first n bytes " +
    "on the addon's threads (native) or on this thread (settling on a later turn); until it settles the " +
    'batch must not change and the handle takes no other call but one more hasherUpdateAsync, absorbed after it',
  hashAsync: '(algId, enc, data, length) -> Promise<string | Buffer> (the input copied at the call)',
  hmacAsync: '(algId, enc, key, data) -> Promise<string | Buffer>',
  hashFile: '(algId, enc, path, length[, cancel]) -> Promise<string | Buffer>; cancel: an Int32Array over an ' +
    'ArrayBuffer of its own: Atomics.store(cancel, 0, 1) ends the job before its next slice (native: read on the ' +
    'pool thread and between slices; js: before each read), the file closed, the promise rejecting with ABORT_ERR',
  hashFileSync: '(algId, enc, path, length[, out]) -> as hash',
});
// The native implementation has more, for tests and benchmarks only:
// resolve(name).path ('low-level' | 'provider' | 'evp'), hasherStoreStats(),
// forceEvp() and evpOnly. Its handles are numbers naming slots of the
// addon's store (a stale one names nothing); the shim frees those of
// hashers collected unfinished with hasherFree.
const NATIVE_ONLY = Object.freeze(['hasherStoreStats', 'forceEvp', 'evpOnly']);
// The JavaScript implementation's: runtimeCalls(algId), which of the
// runtime's calls does each kind of work for that digest.
const JS_ONLY = Object.freeze(['runtimeCalls']);

module.exports = { INTERFACE, NATIVE_ONLY, JS_ONLY };
