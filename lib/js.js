'use strict';
// The binding (interface: interface.js) in JavaScript, over the runtime's own
// node:crypto: what runs where the addon cannot (Bun, Deno, Electron, no
// binary for the platform). Results are node:crypto's own; the speed is the
// runtime's one-shot crypto.hash where it has one, else the createHash
// chain. HMAC keys live in secret KeyObjects (native memory the runtime
// owns); this side has no key copies of its own to wipe. One file for one
// implementation of lib/interface.js, in sections in the interface's order
// (past 500 lines: splitting it would pass its view and algorithm helpers
// back and forth between files).
const crypto = require('crypto');
// Node's global Buffer is a getter: a module binding is a plain load.
const { Buffer } = require('buffer');
const fs = require('fs');
const { makeError } = require('./errors');

// This implementation's own encoding IDs (the shim learns them from here).
const ENCODING_NAMES = ['hex', 'base64', 'base64url', 'latin1', 'buffer'];
const encodings = Object.freeze(Object.fromEntries(ENCODING_NAMES.map((name, id) => [name, id])));

// ---- algorithms -----------------------------------------------------------
// One slot per distinct digest (aliases share one: a digest is known by its
// output for a fixed message), so odd spellings cannot grow the table.
const algs = [];
const slotOf = new Map();
const PROBE = 'fast-hash';

// SHAKE digests of '' at 16 bytes: the default lengths node:crypto gives
// (16 for SHAKE128, 32 for SHAKE256), without asking for one (DEP0198).
const SHAKE_DEFAULT = new Map([
  ['7f9c2ba4e88f827d616045507605853e', 16],
  ['46b9dd2b0ba88d13233b3feb743eeb24', 32],
]);

// What node:crypto makes of `name`, probed without side effects: an output
// length of 0 is accepted only by an XOF (another digest refuses any length
// but its own), and naming a length never warns (DEP0198).
function probe(name) {
  let xof;
  try {
    crypto.createHash(name, { outputLength: 0 }).digest(); // some runtimes refuse only here
    xof = true;
  } catch {
    xof = false;
  }
  try {
    if (xof) {
      const empty = crypto.createHash(name, { outputLength: 16 }).digest('hex');
      const size = SHAKE_DEFAULT.get(empty) ?? crypto.createHash(name).digest().length;
      const print = crypto.createHash(name, { outputLength: 32 }).update(PROBE).digest('hex');
      return { xof, size, key: `xof:${print}` };
    }
    const digest = crypto.createHash(name).update(PROBE).digest();
    return { xof, size: digest.length, key: `md:${digest.toString('hex')}` };
  } catch {
    return undefined;
  }
}

function resolve(name) {
  if (typeof name !== 'string') {
    throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The name must be a string');
  }
  // OpenSSL stops at a NUL; "sha256\0junk" must not mean sha256.
  if (name.includes('\u0000')) return undefined;
  const found = probe(name);
  if (found === undefined) return undefined;
  // Names share a slot only where the runtime treats them alike: the same
  // digest, taken by its HMAC and its one-shot alike (Deno's createHmac
  // refuses RSA-SHA224, which is sha224 to its createHash; Bun's crypto.hash
  // refuses RSA-SHA1).
  const block = found.xof ? 0 : blockOf(name);
  const direct = !found.xof && oneShotTakes(name);
  const key = `${found.key}|${block}|${direct}`;
  let id = slotOf.get(key);
  if (id === undefined) {
    id = algs.length;
    algs.push({ name, size: found.size, xof: found.xof, block, direct });
    slotOf.set(key, id);
  }
  return { id, size: found.size, block, xof: found.xof, path: 'js' };
}

// The block size, which node:crypto does not tell, seen through HMAC: a key
// longer than the block is replaced by its digest, so a key of L bytes and
// its digest give the same MAC exactly when L exceeds the block.
const BLOCK_SIZES = [16, 32, 48, 64, 72, 104, 128, 136, 144, 168];
// 0 when it cannot be seen: the runtime's HMAC refuses the digest (Bun's
// does blake2b512, which its createHash takes).
function blockOf(name) {
  try {
    for (const block of BLOCK_SIZES) {
      const key = Buffer.alloc(block + 1, 0x5c);
      const mac = crypto.createHmac(name, key).digest('hex');
      if (mac === crypto.createHmac(name, crypto.createHash(name).update(key).digest()).digest('hex')) {
        return block;
      }
    }
  } catch {
    // no HMAC over this digest here
  }
  return 0;
}

function algAt(id) {
  const alg = algs[id];
  if (alg === undefined) {
    throw makeError(RangeError, 'ERR_OUT_OF_RANGE', `Unknown algorithm id ${id}`);
  }
  return alg;
}

function encodingAt(id) {
  const name = ENCODING_NAMES[id];
  if (name === undefined) {
    throw makeError(RangeError, 'ERR_OUT_OF_RANGE', `Unknown encoding id ${id}`);
  }
  return name;
}

function encodedLength(enc, n) {
  switch (encodingAt(enc)) {
    case 'hex': return 2 * n;
    case 'base64': return Math.ceil(n / 3) * 4;
    case 'base64url': return Math.ceil((n * 4) / 3);
    default: return n;
  }
}

// ---- digests --------------------------------------------------------------
// The runtime's one-shot where it has one (Node >= 20.12, Bun): it skips the
// Hash object. XOFs always name their length: node:crypto warns (DEP0198,
// Node >= 25) or refuses without one.
const oneShot = typeof crypto.hash === 'function' ? crypto.hash :
  (name, data, encoding) => update(crypto.createHash(name), data).digest(encoding);

// Whether the one-shot takes the name as createHash does (Bun's crypto.hash
// refuses RSA-SHA1, which its createHash takes).
function oneShotTakes(name) {
  try {
    oneShot(name, '', 'hex');
    return true;
  } catch {
    return false;
  }
}

function digestOf(alg, data, length, encoding) {
  if (alg.direct) return oneShot(alg.name, input(data), encoding);
  try {
    return update(makeHash(alg, length), data).digest(encoding);
  } catch (err) {
    // A long XOF output past the runtime's string limit: Deno's error for
    // it has no code.
    if (err && err.code === undefined && encoding !== 'buffer') {
      throw makeError(Error, 'ERR_STRING_TOO_LONG', `Cannot create a string of the ${length}-byte digest: ${err.message}`);
    }
    throw err;
  }
}

// Hash#update and Hmac#update take at most 2^31 - 1 bytes at a time (a
// RangeError, "data is too long", before they absorb anything): longer
// views go in slices. The user's view is not asked for its length (a
// getter of its own could answer): the intrinsics are.
const UPDATE_SLICE = 2 ** 30;

function update(h, data) {
  data = input(data);
  try {
    return h.update(data);
  } catch (err) {
    if (typeof data === 'string' || !(err instanceof RangeError)) throw err;
  }
  const bytes = viewBytes(data);
  for (let at = 0; at < bytes.length; at += UPDATE_SLICE) h.update(bytes.subarray(at, at + UPDATE_SLICE));
  return h;
}

// ---- views, read through the intrinsics -----------------------------------
// A view's own getters (a subclass, a Buffer with another prototype) are not
// ours to run; a detached view has no bytes.
const { isDataView } = require('util').types;
const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const VIEW_GETTERS = [TypedArrayPrototype, DataView.prototype].map((proto) =>
  ['buffer', 'byteOffset', 'byteLength'].map((name) => getter(proto, name)));

const tagOf = Object.getOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag).get;
const byteLengthOf = getter(TypedArrayPrototype, 'byteLength');

// Data (or a key) as every runtime's crypto takes it: a string, a
// non-empty Uint8Array or a KeyObject as it is; any other view as a
// Uint8Array over its bytes, which is empty for a view over a detached
// ArrayBuffer (node:crypto and the addon hash that as empty input; Deno's
// crypto throws an uncoded TypeError, and its createHmac refuses views
// other than Uint8Array).
function input(data) {
  if (typeof data === 'string') return data;
  if (Reflect.apply(tagOf, data, []) === 'Uint8Array' && Reflect.apply(byteLengthOf, data, []) !== 0) return data;
  return ArrayBuffer.isView(data) ? viewBytes(data) : data;
}

function viewBytes(view) {
  const [buffer, offset, length] = VIEW_GETTERS[isDataView(view) ? 1 : 0];
  try {
    return new Uint8Array(Reflect.apply(buffer, view, []), Reflect.apply(offset, view, []),
      Reflect.apply(length, view, []));
  } catch {
    return new Uint8Array(0);
  }
}

// A result in `encoding`: a string, or for 'buffer' a Buffer (the async
// functions').
function emit(bytes, encoding) {
  return encoding === 'buffer' ? bytes : bytes.toString(encoding);
}

// A result as the synchronous functions give it: with `out` (a Buffer of
// exactly the result's length), the bytes copied into it and nothing
// returned; else the text in `encoding`. A secret's own copy is wiped.
function give(bytes, encoding, out, secret) {
  let result;
  if (out !== undefined) {
    const n = viewBytes(out).length;
    if (n !== bytes.length) {
      throw makeError(RangeError, 'ERR_OUT_OF_RANGE', `The output Buffer must hold ${bytes.length} bytes, not ${n}`);
    }
    viewBytes(out).set(bytes);
  } else if (encoding === 'buffer') {
    throw makeError(RangeError, 'ERR_OUT_OF_RANGE', `Strings need a text encoding, not encoding id ${encodings.buffer}`);
  } else {
    result = bytes.toString(encoding);
  }
  if (secret) bytes.fill(0);
  return result;
}

function hash(algId, enc, data, length, out) {
  const alg = algs[algId];
  const encoding = ENCODING_NAMES[enc];
  // The common case in one step: a fixed-length digest to the one-shot.
  if (out === undefined && alg !== undefined && alg.direct && encoding !== undefined && encoding !== 'buffer') {
    return oneShot(alg.name, input(data), encoding);
  }
  const name = encodingAt(enc);
  // Text is made by the runtime in digestOf, which codes its too-long error.
  if (out === undefined && name !== 'buffer') return digestOf(algAt(algId), data, length, name);
  return give(digestOf(algAt(algId), data, length, 'buffer'), name, out, false);
}

// The MAC of data under key: a Buffer, or straight into the text of
// `encoding` (node:crypto makes it natively: no Buffer, nothing to wipe).
function hmacOf(name, key, data, encoding) {
  const h = update(crypto.createHmac(name, input(key)), data);
  return encoding === undefined || encoding === 'buffer' ? h.digest() : h.digest(encoding);
}

// A MAC as hmac() gives it: text made by the runtime, or bytes into `out`.
function macOf(name, key, data, encoding, out) {
  if (out === undefined && encoding !== 'buffer') return hmacOf(name, key, data, encoding);
  return give(hmacOf(name, key, data), encoding, out, true);
}

function hmac(algId, enc, key, data, out) {
  return macOf(algAt(algId).name, key, data, encodingAt(enc), out);
}

// A MAC in `encoding`; bytes only turned into text are wiped.
function emitSecret(mac, encoding) {
  if (encoding === 'buffer') return mac;
  const text = mac.toString(encoding);
  mac.fill(0);
  return text;
}

// ---- verification ---------------------------------------------------------
// A MAC given as text is decoded strictly, as the addon does: text that is
// not exactly `size` bytes in the encoding (wrong length, a character
// outside the alphabet, misplaced padding, stray bits) is not equal.
function decodeMac(text, encoding, size) {
  if (encoding === 'hex') {
    return text.length === 2 * size && /^[0-9a-fA-F]*$/.test(text) ? Buffer.from(text, 'hex') : undefined;
  }
  if (encoding === 'latin1') {
    return text.length === size && !/[^\u0000-\u00ff]/.test(text) ? Buffer.from(text, 'latin1') : undefined;
  }
  const bare = Math.ceil((size * 4) / 3);
  const padded = Math.ceil(size / 3) * 4;
  if (text.length !== bare && text.length !== padded) return undefined;
  if (text.length === padded && !/^=*$/.test(text.slice(bare))) return undefined;
  const body = text.slice(0, bare);
  const bytes = Buffer.from(body, encoding);
  // Canonical text only: re-encoding gives the same characters back (which
  // also refuses the other alphabet and non-zero bits past the last byte).
  const again = bytes.toString(encoding).replace(/=+$/, '');
  return bytes.length === size && again === body ? bytes : undefined;
}

// Compares in constant time, then wipes the computed MAC.
function verdict(computed, mac, enc) {
  const given = typeof mac === 'string' ? decodeMac(mac, encodingAt(enc), computed.length) :
    viewBytes(mac);
  const equal = given !== undefined && given.length === computed.length &&
    crypto.timingSafeEqual(computed, given);
  computed.fill(0);
  return equal;
}

function hmacVerify(algId, macEnc, key, data, mac) {
  return verdict(hmacOf(algAt(algId).name, key, data), mac, macEnc);
}

// ---- keys -----------------------------------------------------------------
const kDestroyed = 'Invalid state: the HmacKey has been destroyed';

// The key in a secret KeyObject (which copies it); the UTF-8 copy of a
// string key made here is wiped.
function secretKey(key) {
  if (typeof key !== 'string') {
    return crypto.createSecretKey(viewBytes(key));
  }
  const bytes = Buffer.from(key);
  try {
    return crypto.createSecretKey(bytes);
  } finally {
    bytes.fill(0);
  }
}

function hmacKeyNew(algId, key) {
  return { name: algAt(algId).name, id: algId, key: secretKey(key), states: undefined };
}

function keyOf(handle) {
  if (handle === null || typeof handle !== 'object' || !('key' in handle)) {
    throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'Not an HmacKey');
  }
  if (handle.key === undefined) throw makeError(Error, 'ERR_INVALID_STATE', kDestroyed);
  return handle;
}

function hmacKeyDigest(handle, enc, data, out) {
  const { name, key } = keyOf(handle);
  return macOf(name, key, data, encodingAt(enc), out);
}

function hmacKeyVerify(handle, enc, data, mac) {
  const { name, key } = keyOf(handle);
  return verdict(hmacOf(name, key, data), mac, enc);
}

function hmacKeyDestroy(handle) {
  const k = keyOf(handle);
  k.key = undefined;
  k.states = undefined;
}

// ---- hashers --------------------------------------------------------------
// A hasher is a Hash object (Hash#copy makes its copies). An HMAC hasher is
// two: the inner and outer states keyed by hand (RFC 2104), since Hmac has
// no copy(). Each HmacKey keys its pair once; its hashers start from copies.
// { hash, outer, length, xof }: hash undefined once finished.

function hasherNew(algId, length) {
  const alg = algAt(algId);
  return { hash: makeHash(alg, length), outer: undefined, length: alg.xof ? length : alg.size, xof: alg.xof };
}

// A live hasher with fewer than `depth` batches queued (1: none).
function liveHasher(handle, depth = 1) {
  if (handle === null || typeof handle !== 'object' || !('outer' in handle)) {
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

function hasherDigest(handle, enc, tail, n, out) {
  const h = liveHasher(handle);
  const { hash, outer, mac } = h;
  try {
    if (n > 0) hasherUpdate(handle, tail, n);
  } finally {
    h.hash = h.outer = undefined;
  }
  if (outer === undefined) return give(hash.digest(), encodingAt(enc), out, mac);
  const inner = hash.digest();
  try {
    return give(outer.update(inner).digest(), encodingAt(enc), out, true);
  } finally {
    inner.fill(0);
  }
}

function hasherCopy(handle, length) {
  const { hash, outer, xof, length: own, mac } = liveHasher(handle);
  if (typeof hash.copy !== 'function') {
    throw makeError(Error, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM',
      'This runtime cannot copy this HMAC hasher');
  }
  return {
    hash: xof ? hash.copy({ outputLength: length }) : hash.copy(),
    outer: outer === undefined ? undefined : outer.copy(),
    length: xof ? length : own,
    xof,
    mac,
  };
}

function hashPrefix(algId, enc, data, n, length, out) {
  return hash(algId, enc, prefix(data, n), length, out);
}

// data's first n bytes (no more than it has), as a view.
function prefix(data, n) {
  const bytes = typeof data === 'string' ? Buffer.from(data) : viewBytes(data);
  if (!(Number.isSafeInteger(n) && n >= 0 && n <= bytes.length)) {
    throw makeError(RangeError, 'ERR_OUT_OF_RANGE', `The length ${n} is more than the data's ${bytes.length} bytes`);
  }
  return bytes.subarray(0, n);
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
  if (handle !== null && typeof handle === 'object' && 'outer' in handle) handle.hash = handle.outer = undefined;
}

function hmacKeyHasher(handle) {
  const k = keyOf(handle);
  const { size, block } = algAt(k.id);
  // A digest whose block size could not be learnt: the runtime's Hmac
  // itself, which cannot be copied.
  if (block === 0) return { hash: crypto.createHmac(k.name, k.key), outer: undefined, length: size, xof: false, mac: true };
  if (k.states === undefined) k.states = keyStates(k.name, k.key, block);
  return { hash: k.states.inner.copy(), outer: k.states.outer.copy(), length: size, xof: false, mac: true };
}

// The keyed inner and outer states: K0 is the key, or its digest when it is
// longer than a block, zero-padded; inner absorbs K0 ^ ipad, outer K0 ^ opad.
function keyStates(name, keyObject, block) {
  const key = keyObject.export();
  const k0 = Buffer.alloc(block);
  try {
    if (key.length > block) {
      const digest = crypto.createHash(name).update(key).digest();
      digest.copy(k0);
      digest.fill(0);
    } else {
      key.copy(k0);
    }
    for (let i = 0; i < block; i++) k0[i] ^= 0x36;
    const inner = crypto.createHash(name).update(k0);
    for (let i = 0; i < block; i++) k0[i] ^= 0x36 ^ 0x5c;
    return { inner, outer: crypto.createHash(name).update(k0) };
  } finally {
    key.fill(0);
    k0.fill(0);
  }
}

// ---- many -----------------------------------------------------------------
function hashMany(algId, enc, length, into, ...inputs) {
  const alg = algAt(algId);
  if (into !== undefined) {
    for (let i = 0; i < inputs.length; i++) {
      into.set(digestOf(alg, inputs[i], length, 'buffer'), i * length);
    }
    return undefined;
  }
  // As the addon gives them: one string, each digest's text at a fixed
  // width (encodedLength) for the shim to slice.
  const encoding = encodingAt(enc);
  const out = new Array(inputs.length);
  for (let i = 0; i < inputs.length; i++) out[i] = digestOf(alg, inputs[i], length, encoding);
  return out.join('');
}

// ---- asynchronous and files -----------------------------------------------
// node:crypto has no digest off the main thread for every algorithm, so the
// work runs in later turns of the event loop, a slice at a time: a large
// input does not hold the loop for its whole length.
const SLICE = 1 << 20;

function makeHash(alg, length) {
  return alg.xof ? crypto.createHash(alg.name, { outputLength: length }) : crypto.createHash(alg.name);
}

// Bytes owned by the job: views are copied now (the caller may change them
// later); strings cannot change.
function capture(data) {
  if (typeof data === 'string') return data;
  return Buffer.from(viewBytes(data));
}

function turn() {
  return new Promise((resolve) => setImmediate(resolve));
}

async function feed(h, data) {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  let at = 0;
  do {
    await turn();
    h.update(bytes.subarray(at, at + SLICE));
    at += SLICE;
  } while (at < bytes.length);
  return h;
}

async function hashAsync(algId, enc, data, length) {
  const alg = algAt(algId);
  const encoding = encodingAt(enc);
  const h = await feed(makeHash(alg, length), capture(data));
  return emit(h.digest(), encoding);
}

function hmacAsync(algId, enc, key, data) {
  const alg = algAt(algId);
  const encoding = encodingAt(enc);
  let h;
  try {
    h = crypto.createHmac(alg.name, secretKey(key));
  } catch (err) {
    return Promise.reject(err);
  }
  return feed(h, capture(data)).then((done) => emitSecret(done.digest(), encoding));
}

// A path as fs takes it: a Buffer path is copied through the intrinsics (a
// detached one is empty).
const fsPath = (path) => (typeof path === 'string' ? path : Buffer.from(viewBytes(path)));

async function hashFile(algId, enc, path, length) {
  path = fsPath(path);
  const alg = algAt(algId);
  const encoding = encodingAt(enc);
  const h = makeHash(alg, length);
  const file = await fs.promises.open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(SLICE);
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, SLICE, null).catch((err) => {
        throw withPath(err, path);
      });
      if (bytesRead === 0) break;
      h.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await file.close();
  }
  return emit(h.digest(), encoding);
}

function hashFileSync(algId, enc, path, length, out) {
  path = fsPath(path);
  const alg = algAt(algId);
  const encoding = encodingAt(enc);
  const h = makeHash(alg, length);
  const fd = fs.openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(SLICE);
    let n;
    while ((n = readSync(fd, buffer, path)) !== 0) h.update(buffer.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return give(h.digest(), encoding, out, false);
}

function readSync(fd, buffer, path) {
  try {
    return fs.readSync(fd, buffer, 0, buffer.length, null);
  } catch (err) {
    throw withPath(err, path);
  }
}

// fs names no path on a failed read (EISDIR, EIO); the addon's errors do.
function withPath(err, path) {
  if (err && err.syscall === 'read' && err.path === undefined) {
    err.path = String(path);
    err.message = `${err.message} '${err.path}'`;
  }
  return err;
}

module.exports = {
  implementation: 'js',
  encodings,
  encodedLength,
  resolve,
  hash,
  hmac,
  hmacVerify,
  hmacKeyNew,
  hmacKeyDigest,
  hmacKeyVerify,
  hmacKeyDestroy,
  hasherNew,
  hasherUpdate,
  hasherDigest,
  hasherCopy,
  hasherFree,
  hasherUpdateAsync,
  hmacKeyHasher,
  hashPrefix,
  hashMany,
  hashAsync,
  hmacAsync,
  hashFile,
  hashFileSync,
};
