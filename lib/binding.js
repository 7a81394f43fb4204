'use strict';
// The binding: the one interface between the argument rules (index.js,
// args.js) and the code that digests. Two implementations sit behind it:
//   native.js  the C addon over the OpenSSL bundled with Node (fast path);
//   js.js      the same functions over the runtime's own node:crypto, for
//              where the addon cannot load (Bun, Deno, Electron, no binary
//              for the platform, a Node outside `engines`).
// FAST_HASH_IMPLEMENTATION=js picks js.js; =native makes a failure to load
// the addon an error thrown here; unset tries native.js, then js.js, quietly.
//
// Every argument arrives checked by the shim; an implementation re-checks
// only what protects its memory, and throws coded errors for the rest.
// algId comes from resolve(), enc (an encoding ID) from `encodings`. A
// 'buffer' result (enc = encodings.buffer): when `fillsOutput`, the shim passes `out`,
// a Buffer of exactly the output length, which is filled and nothing is
// returned; otherwise the function returns a Buffer of its own.
//
//   implementation             'native' | 'js'
//   fillsOutput                boolean, as above
//   encodings                  { hex, base64, base64url, latin1, buffer } -> id
//   encodedLength(enc, n)      length of the text of n bytes in enc
//   resolve(name)              { id, size, block, xof, path } | undefined
//   hash(algId, enc, data, length[, out])    -> string | Buffer | undefined
//   hmac(algId, enc, key, data[, out])       -> string | Buffer | undefined
//   hmacVerify(algId, enc, key, data, mac)   -> boolean (mac: bytes, or a
//                                               string in enc)
//   hmacKeyNew(algId, key)                   -> handle
//   hmacKeyDigest(handle, enc, data[, out])  -> as hmac
//   hmacKeyVerify(handle, enc, data, mac)    -> as hmacVerify
//   hmacKeyDestroy(handle)                   later use: ERR_INVALID_STATE
//   hasherNew(algId, length)                 -> handle of a new hasher
//       (length: output bytes, read for XOFs only)
//   hmacKeyHasher(keyHandle)                 -> handle of an HMAC hasher
//       started from copies of the key's keyed states
//   hasherUpdate(handle, data[, n])          absorbs data (a string as
//       UTF-8, or a view), only its first n bytes when n is given
//   hasherDigest(handle, enc, tail, n[, out]) -> as hash, of everything
//       absorbed and then tail's first n bytes (a view); the handle is
//       finished: any later use throws ERR_CRYPTO_HASH_FINALIZED
//   hasherCopy(handle, length)               -> handle of a copy (length as
//       in hasherNew)
//   hasherFree(handle)                       finishes a hasher dropped
//       unfinished (a finished or unknown one: nothing)
//   hashPrefix(algId, enc, data, n, length[, out]) -> as hash, of data's
//       first n bytes
//   Native handles are numbers naming slots of the addon's store (a stale
//   one names nothing); the shim frees those of hashers collected
//   unfinished with hasherFree.
//   hashMany(algId, enc, length, into, ...inputs) -> one string, each digest at
//       encodedLength(enc, length) characters, or an array of strings; with
//       a Buffer `into`, digest i fills its i-th slice
//   hashAsync(algId, enc, data, length), hmacAsync(algId, enc, key, data),
//   hashFile(algId, enc, path, length)       -> Promise<string | Buffer>
//       (encoding 'buffer' gives a Buffer; the inputs are copied at the call)
//   hashFileSync(algId, enc, path, length[, out]) -> as hash
//   resolve(name).path, hasherStoreStats()   native only: tests, benchmarks
//   (benchCeiling, benchCall, benchHmac, benchHmacKey are not here: they are
//   in the benchmarks' own build of the addon, benchmark/ceiling)
const { makeError } = require('./errors');

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
