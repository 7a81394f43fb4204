'use strict';
// The binding (interface: interface.js) in JavaScript, over the runtime's own
// crypto: what runs where the addon cannot (Bun, Deno, Electron, no binary
// for the platform). Results are node:crypto's own bytes; each call goes to
// the fastest one the runtime has that gives them ("the runtime's calls").
// HMAC keys live in the runtime's native memory (a secret KeyObject, a keyed
// Bun.CryptoHasher); what this side copies itself is wiped. One file for
// one implementation of lib/interface.js, in sections in the interface's
// order (past 500 lines: splitting it would pass its view and algorithm
// helpers back and forth between files).
const crypto = require('crypto');
// Node's global Buffer is a getter: a module binding is a plain load.
const { Buffer } = require('buffer');
const fs = require('fs');
const { makeError } = require('./errors');

// This implementation's own encoding IDs (the shim learns them from here).
const ENCODING_NAMES = ['hex', 'base64', 'base64url', 'latin1', 'buffer'];
const encodings = Object.freeze(Object.fromEntries(ENCODING_NAMES.map((name, id) => [name, id])));
const TEXT_NAMES = ENCODING_NAMES.filter((name) => name !== 'buffer');

// ---- the runtime's calls ------------------------------------------------------
// Which call does each kind of work, chosen once at load by what the
// runtime has; a call is then used only for the digests where it gives
// node:crypto's bytes (resolve() checks each name). The choices between
// calls that all give the right bytes are by speed (benchmark/README.md,
// "Per runtime: question (j)", has the figures):
//   Bun   its Bun.SHA256-style classes' hash() for text and into a view
//         (1.5x its crypto.hash), a keyed Bun.CryptoHasher for HMAC, and
//         that hasher's copy() for HmacKey and HMAC hashers;
//   Node  crypto.hash; bytes as its 'latin1' text written into the output
//         (half the time of crypto.hash(..., 'buffer'));
//   Deno  a copy of a pristine Hash per digest (its crypto.hash makes a
//         new Hash each call); bytes, and text other than hex, from the hex
//         text decoded (a third of the time of crypto.hash(..., 'buffer'),
//         two thirds of its base64); HMAC through keyed inner and outer
//         states, copied per digest for HmacKey (half the time of its
//         createHmac).
// The commonest text digests and MACs skip this file's hash() and hmac():
// the shim calls the runtime's call itself (`shot`, `macShot`, below).
// Hashers (createHasher) are Hash objects everywhere (on Bun and Deno,
// copies of a pristine one, which cost less than createHash there), behind
// the shim's stage on Node and Bun (a chain that fits it is one one-shot),
// and HMAC hashers keyed states that can be copied; on Node their outer
// step is one crypto.hash (OuterPad).
const BUN = typeof globalThis.Bun === 'object' && globalThis.Bun !== null ? globalThis.Bun : undefined;
const RUNTIME = BUN !== undefined ? 'bun' : typeof globalThis.Deno === 'object' ? 'deno' : 'node';
const BYTES_VIA_LATIN1 = RUNTIME === 'node' && typeof Buffer.prototype.latin1Write === 'function';
// Deno's crypto.hash is a createHash chain of its own, and its digests
// make bytes, base64 and latin1 text slower than hex text decoded (and
// encoded again): there every digest is hex text from a Hash (a copy of a
// pristine one, below), and every other result is made from the hex.
const VIA_HEX = RUNTIME === 'deno';
const KEY_STATES = RUNTIME === 'deno';
// How many bytes of short parts the shim's hashers gather before they reach
// a Hash: on Node and Bun, where that costs less than the Hash calls it
// saves, and a chain that fits is one one-shot (crypto.hash, a Bun class's
// hash()) with no Hash at all (a Hash costs about what hashing 512 bytes
// does on Node); none on Deno, whose Hash objects cost less than the
// gathering and its one-shot.
const STAGE_BYTES = RUNTIME === 'deno' ? 0 : 1024;
// HMAC hashers gather nothing: with no one-shot HMAC in node:crypto, staged
// bytes would still go through an Hmac, after a copy and a wipe.
const MAC_STAGE_BYTES = 0;
// A new Hash is a copy of a pristine one where that costs less than
// createHash (Bun, Deno: there createHash is half a short chain's time).
const FRESH_COPIES = RUNTIME !== 'node';
// HMAC hashers finish with one crypto.hash of K0 ^ opad and the inner
// digest (OuterPad) on Node, where that costs less than a copy of the
// outer Hash; Deno's crypto.hash costs more than the copy.
const OUTER_SHOT = RUNTIME === 'node' && typeof crypto.hash === 'function';
const BUN_CLASSES = ['MD4', 'MD5', 'SHA1', 'SHA224', 'SHA256', 'SHA384', 'SHA512', 'SHA512_256'];
const BunHasher = BUN !== undefined && typeof BUN.CryptoHasher === 'function' ? BUN.CryptoHasher : undefined;

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
  const keyed = !found.xof && bunKeys(name);
  const key = `${found.key}|${block}|${direct}|${keyed}`;
  let id = slotOf.get(key);
  if (id === undefined) {
    id = algs.length;
    const cls = found.xof ? undefined : bunClassFor(found.key);
    algs.push({ name, size: found.size, xof: found.xof, block, direct, cls, pristine: undefined,
      ...callsOf(direct, keyed, cls, block) });
    slotOf.set(key, id);
  }
  const alg = algs[id];
  const macShot = MAC_SHOT !== undefined && alg.mac === MAC_SHOT_KIND && block !== 0 ? alg.name : undefined;
  return { id, size: found.size, block, xof: found.xof, path: 'js', shot: shotOf(alg), macShot };
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

// Which call makes each kind of result for a digest, from what the probes
// found: `shot` the crypto.hash text of a view as it is (hash()'s shortest
// path); `bytes` 'class' | 'latin1' | 'hex' | 'buffer' | 'hash' (bytesInto());
// `mac`, for hmac() and an HmacKey's digests, 'bun' | 'states' | 'hmac'
// (macState(), keyedState()).
function callsOf(direct, keyed, cls, block) {
  const states = KEY_STATES && block !== 0;
  let bytes = 'hash';
  if (cls !== undefined) bytes = 'class';
  else if (BYTES_VIA_LATIN1 && direct) bytes = 'latin1';
  else if (VIA_HEX) bytes = 'hex';
  else if (direct) bytes = 'buffer';
  const mac = keyed ? 'bun' : states ? 'states' : 'hmac';
  return { shot: direct && cls === undefined && SHOT_VIEWS, classShot: cls !== undefined && CLASS_VIEWS, bytes, mac };
}

// The Bun class (Bun.SHA256, ...) whose hash() gives the digest printed
// `print` (probe()'s key), if any.
let bunClasses;
function bunClassFor(print) {
  if (BUN === undefined) return undefined;
  bunClasses ??= new Map(BUN_CLASSES.filter((n) => typeof BUN[n]?.hash === 'function')
    .map((n) => [`md:${BUN[n].hash(PROBE, 'hex')}`, BUN[n]]));
  return bunClasses.get(print);
}

// Whether a keyed Bun.CryptoHasher gives createHmac's MAC over `name`, for
// a key shorter and one longer than any block.
function bunKeys(name) {
  if (BunHasher === undefined) return false;
  try {
    return ['k', 'k'.repeat(200)].every((key) => new BunHasher(name, key).update(PROBE).digest('hex') ===
      crypto.createHmac(name, key).update(PROBE).digest('hex'));
  } catch {
    return false;
  }
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
  if (!HASHER_VIEWS) data = input(data);
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
const { isDataView, isUint8Array } = require('util').types;
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
// other than Uint8Array). A Uint8Array of another prototype than
// Uint8Array's or Buffer's goes as one over its bytes too: Deno's crypto
// reads a view's buffer through its prototype (with none it hashes no
// bytes, with DataView's it throws an uncoded TypeError).
function input(data) {
  if (typeof data === 'string') return data;
  if (Reflect.apply(tagOf, data, []) === 'Uint8Array' && Reflect.apply(byteLengthOf, data, []) !== 0 &&
    ownProto(data)) {
    return data;
  }
  return ArrayBuffer.isView(data) ? viewBytes(data) : data;
}

// A typed array's prototype is read without running code of the user's:
// input() has seen the intrinsic tag, so data is no Proxy.
const getPrototypeOf = Object.getPrototypeOf;
const UINT8_PROTO = Uint8Array.prototype;
const BUFFER_PROTO = Buffer.prototype;
const ownProto = (data) => {
  const proto = getPrototypeOf(data);
  return proto === UINT8_PROTO || proto === BUFFER_PROTO;
};

// Uint8Arrays whose prototype is another's: null, DataView's, a plain
// object's.
function oddProtos(bytes) {
  return [null, DataView.prototype, Object.prototype].map((proto) =>
    Object.setPrototypeOf(new Uint8Array(bytes), proto));
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

// Whether fn(view), a digest as hex, reads every view's own bytes as
// input() gives them: other views than Uint8Array, a subclass whose getters
// lie, Uint8Arrays of other prototypes, a view over a detached ArrayBuffer.
// Where it does, the fast paths pass views on as they are.
function viewsAsIs(fn) {
  const bytes = Uint8Array.from({ length: 24 }, (_, i) => i * 7 + 1);
  class Lying extends Uint8Array {
    get byteLength() { return 1; }
    get length() { return 1; }
  }
  // Detached views of each kind: Deno's Hash reads a Uint8Array over one
  // as empty, and throws for a DataView or a Float64Array over one.
  const detached = [new Uint8Array(8), new DataView(new ArrayBuffer(8)), new Float64Array(2), Buffer.alloc(8)];
  try {
    for (const view of detached) structuredClone(view.buffer, { transfer: [view.buffer] });
    const views = [new DataView(bytes.buffer, 3, 13), new Float64Array(bytes.buffer, 8, 2),
      new Uint16Array(bytes.buffer, 2, 5), new Lying(bytes.buffer, 1, 9), bytes.subarray(5, 9), ...detached,
      ...oddProtos(bytes.subarray(2, 11))];
    return views.every((view) => fn(view) === fn(viewBytes(view).slice()));
  } catch {
    return false;
  }
}
const SHOT_VIEWS = viewsAsIs((view) => oneShot('sha256', view, 'hex'));
const CLASS_VIEWS = BUN !== undefined && typeof BUN.SHA256?.hash === 'function' &&
  viewsAsIs((view) => BUN.SHA256.hash(view, 'hex'));
const KEY_VIEWS = BunHasher !== undefined && viewsAsIs((view) => new BunHasher('sha256', view).update('k').digest('hex'));
const HASHER_VIEWS = viewsAsIs((view) => crypto.createHash('sha256').update(view).digest('hex')) &&
  (BunHasher === undefined || viewsAsIs((view) => new BunHasher('sha256', 'k').update(view).digest('hex')));

// The shim's shortest path for text (interface.js, `shot`): the runtime's
// one-shot called from hash() itself, with nothing of this file between
// (each function laid over it shows in a short digest's time). On Bun
// a class's hash() (`shot` the class), elsewhere crypto.hash (`shot` the
// name); a digest whose text comes another way has none.
let SHOT;
if (CLASS_VIEWS) SHOT = (cls, data, encoding) => cls.hash(data, encoding);
else if (SHOT_VIEWS) SHOT = oneShot;

function shotOf(alg) {
  if (CLASS_VIEWS) return alg.classShot ? alg.cls : undefined;
  return alg.shot ? alg.name : undefined;
}

// hmac()'s shortest path, the same way (interface.js, `macShot`): the
// chain of the keyed state hmac() uses, where that state takes every key
// and view as they are: a keyed Bun.CryptoHasher on Bun (for the digests
// whose `mac` is 'bun'), createHmac on Node ('hmac'); Deno's keyed states
// are two Hash objects, and its HMAC has none.
const MAC_SHOT_KIND = BUN !== undefined ? 'bun' : 'hmac';
const MAC_VIEWS = RUNTIME === 'bun' ? KEY_VIEWS && HASHER_VIEWS : RUNTIME === 'node' && HASHER_VIEWS &&
  viewsAsIs((view) => crypto.createHmac('sha256', view).update('k').digest('hex')) &&
  viewsAsIs((view) => crypto.createHmac('sha256', 'k').update(view).digest('hex'));
let MAC_SHOT;
if (MAC_VIEWS && RUNTIME === 'bun') {
  MAC_SHOT = (name, key, data, encoding) => update(new BunHasher(name, key), data).digest(encoding);
} else if (MAC_VIEWS) {
  MAC_SHOT = (name, key, data, encoding) => update(keyedHmac(name, key), data).digest(encoding);
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
  const encoding = TEXT_NAMES[enc];
  // Text of a digest crypto.hash or a Bun class makes from the view as it
  // is, in as few steps as can be: the shim's hash() takes this path itself
  // (`shot`); other callers (hashWith(), the stage of a hasher) come here.
  if (out === undefined && encoding !== undefined && alg !== undefined) {
    if (alg.shot) return oneShot(alg.name, data, encoding);
    if (alg.classShot) return alg.cls.hash(data, encoding);
  }
  return hashAny(algId, enc, data, length, out);
}

function hashAny(algId, enc, data, length, out) {
  const alg = algs[algId];
  const encoding = ENCODING_NAMES[enc];
  // The other common cases: a fixed-length digest as text, or into the
  // shim's Buffer of its size.
  if (alg !== undefined && !alg.xof && encoding !== undefined) {
    if (out === undefined && encoding !== 'buffer') return textOf(alg, data, encoding);
    if (out !== undefined && encoding === 'buffer' && out.length === alg.size) return bytesInto(alg, data, out);
  }
  const name = encodingAt(enc);
  // Text is made by the runtime in digestOf, which codes its too-long error.
  if (out === undefined && name !== 'buffer') return digestOf(algAt(algId), data, length, name);
  return give(digestOf(algAt(algId), data, length, 'buffer'), name, out, false);
}

// A fixed-length digest as text, by the runtime's fastest call for it.
function textOf(alg, data, encoding) {
  if (alg.cls !== undefined) return alg.cls.hash(CLASS_VIEWS ? data : input(data), encoding);
  if (VIA_HEX && alg.size <= textScratch.length) {
    const hex = hexOf(alg, data);
    if (encoding === 'hex') return hex;
    hexInto(hex, textScratch, alg.size);
    return textScratch.toString(encoding, 0, alg.size);
  }
  if (!alg.direct) return update(makeHash(alg, alg.size), data).digest(encoding);
  return oneShot(alg.name, SHOT_VIEWS ? data : input(data), encoding);
}

// A fixed-length digest's hex text, where every result is made from it
// (VIA_HEX): from a copy of the pristine Hash (makeHash), which is what
// Deno's crypto.hash does less the name's lookup and a new Hash.
function hexOf(alg, data) {
  return update(makeHash(alg, alg.size), data).digest('hex');
}

// A fixed-length digest written into `out` (a Uint8Array of its size).
function bytesInto(alg, data, out) {
  const { bytes } = alg;
  if (bytes === 'class') {
    alg.cls.hash(CLASS_VIEWS ? data : input(data), out);
  } else if (bytes === 'latin1') {
    Reflect.apply(latin1Write, out, [oneShot(alg.name, SHOT_VIEWS ? data : input(data), 'latin1'), 0, alg.size]);
  } else if (bytes === 'hex') {
    hexInto(hexOf(alg, data), out, alg.size);
  } else if (bytes === 'buffer') {
    out.set(oneShot(alg.name, input(data), 'buffer'));
  } else {
    out.set(update(makeHash(alg, alg.size), data).digest());
  }
}

const latin1Write = Buffer.prototype.latin1Write;

// The n bytes that lower-case hex text (the runtime's own digest text)
// spells, written into out.
const NIBBLES = new Uint8Array(128);
for (let i = 0; i < 16; i++) NIBBLES['0123456789abcdef'.charCodeAt(i)] = i;
// The bytes of a digest on its way from hex to other text (VIA_HEX):
// a digest is no secret.
const textScratch = Buffer.alloc(64);
function hexInto(text, out, n) {
  for (let i = 0, j = 0; i < n; i++, j += 2) {
    out[i] = (NIBBLES[text.charCodeAt(j)] << 4) | NIBBLES[text.charCodeAt(j + 1)];
  }
}

// A new keyed state for alg and a key as the shim gives it (a string or a
// view): update(data), digest([encoding]).
function macState(alg, key) {
  if (alg.mac === 'bun') return new BunHasher(alg.name, KEY_VIEWS ? key : input(key));
  if (alg.mac === 'states') return keyStates(alg, key);
  return keyedHmac(alg.name, input(key));
}

// createHmac(name, key). node:crypto encodes a string key with
// Buffer.from(), which puts a short one in Buffer's shared pool, where any
// pooled Buffer's .buffer reaches it: a string key is encoded here instead,
// into memory of this side's own, wiped once createHmac has copied it.
function keyedHmac(name, key) {
  if (typeof key !== 'string' || key.length === 0) return crypto.createHmac(name, key);
  const bytes = keyBytes(key);
  try {
    return crypto.createHmac(name, bytes);
  } finally {
    bytes.fill(0);
  }
}

// A string key's UTF-8 bytes (as Buffer.from() encodes it, lone surrogates
// included) in memory that is not Buffer's pool: a scratch kept for short
// keys (the runtime copies the key before anything else can run), or a
// Buffer of its own for a long one. The caller wipes them.
const keyScratch = Buffer.allocUnsafeSlow(256);
function keyBytes(key) {
  if (3 * key.length <= keyScratch.length) return keyScratch.subarray(0, keyScratch.write(key));
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(key));
  bytes.write(key);
  return bytes;
}

// The MAC of everything `state` absorbed and then data: text made by the
// runtime (no bytes here to wipe), or bytes into `out`, or with neither, a
// Buffer (the caller wipes it).
function macOf(state, data, encoding, out) {
  update(state, data);
  if (out === undefined && encoding !== 'buffer') return state.digest(encoding);
  const bytes = state.digest();
  return encoding === undefined ? bytes : give(bytes, encoding, out, true);
}

function hmac(algId, enc, key, data, out) {
  return macOf(macState(algAt(algId), key), data, encodingAt(enc), out);
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
  return verdict(macOf(macState(algAt(algId), key), data), mac, macEnc);
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

// An HmacKey: the key as the runtime keeps it (a keyed Bun.CryptoHasher, or
// a secret KeyObject), and once made, its keyed states (keyStates()).
function hmacKeyNew(algId, key) {
  const alg = algAt(algId);
  return { alg, key: alg.mac === 'bun' ? macState(alg, key) : secretKey(key), states: undefined };
}

// A new keyed state of the HmacKey k, as macState() gives one.
function keyedState(k) {
  const { alg } = k;
  if (alg.mac === 'bun') return k.key.copy();
  if (alg.mac === 'states') return (k.states ??= keyStates(alg, k.key)).copy();
  return crypto.createHmac(alg.name, k.key);
}

function keyOf(handle) {
  if (handle === null || typeof handle !== 'object' || !('key' in handle)) {
    throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'Not an HmacKey');
  }
  if (handle.key === undefined) throw makeError(Error, 'ERR_INVALID_STATE', kDestroyed);
  return handle;
}

function hmacKeyDigest(handle, enc, data, out) {
  return macOf(keyedState(keyOf(handle)), data, encodingAt(enc), out);
}

function hmacKeyVerify(handle, enc, data, mac) {
  return verdict(macOf(keyedState(keyOf(handle)), data), mac, enc);
}

function hmacKeyDestroy(handle) {
  const k = keyOf(handle);
  k.key = undefined;
  k.states?.free();
  k.states = undefined;
}

// ---- hashers --------------------------------------------------------------
// A hasher is { hash, length, xof, mac }: hash is a Hash object (Hash#copy
// makes its copies), or for HMAC a keyed state that can be copied (a keyed
// Bun.CryptoHasher, or a KeyedPair, since Hmac has no copy()); undefined
// once finished. Each HmacKey keys its pair once; its hashers start from
// copies.

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

function hashPrefix(algId, enc, data, n, length, out) {
  return hash(algId, enc, prefix(data, n), length, out);
}

// data's first n bytes (no more than it has), as a view. The shim's own
// stages and batches are Uint8Arrays (the shim passes no other here): those
// are cut as they are, without viewBytes()'s getter calls, which cost a
// visible part of a short digest on Bun.
function prefix(data, n) {
  let bytes;
  if (typeof data === 'string') bytes = Buffer.from(data);
  else if (isUint8Array(data)) bytes = data;
  else bytes = viewBytes(data);
  const size = byteLengthOf.call(bytes);
  if (!(Number.isSafeInteger(n) && n >= 0 && n <= size)) {
    throw makeError(RangeError, 'ERR_OUT_OF_RANGE', `The length ${n} is more than the data's ${size} bytes`);
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
  if (handle === null || typeof handle !== 'object' || !('hash' in handle)) return;
  if (handle.hash instanceof KeyedPair) handle.hash.free();
  handle.hash = undefined;
}

// A digest whose block size could not be learnt gets the runtime's Hmac
// itself, which cannot be copied.
function hmacKeyHasher(handle) {
  const k = keyOf(handle);
  const { alg } = k;
  let hash;
  if (alg.mac === 'bun') hash = k.key.copy();
  else if (alg.block === 0) hash = crypto.createHmac(alg.name, k.key);
  else hash = (k.states ??= keyStates(alg, k.key)).copy();
  return { hash, length: alg.size, xof: false, mac: true };
}

// HMAC as two keyed Hash states (RFC 2104), which, unlike Hmac, can be
// copied. `outer` is the pair's own keyed Hash, or an OuterPad shared with
// the pairs it was copied from. digest() wipes the inner digest; a pair is
// finished by digest() or free().
class KeyedPair {
  constructor(inner, outer) {
    this.inner = inner;
    this.outer = outer;
  }

  update(data) {
    this.inner.update(data);
    return this;
  }

  digest(encoding) {
    const inner = this.inner.digest();
    const { outer } = this;
    this.outer = undefined;
    try {
      if (outer instanceof OuterPad) return outer.finish(inner, encoding);
      return outer.update(inner).digest(encoding);
    } finally {
      inner.fill(0);
    }
  }

  copy() {
    const { outer } = this;
    return new KeyedPair(this.inner.copy(), outer instanceof OuterPad ? outer.retain() : outer.copy());
  }

  free() {
    const { outer } = this;
    this.outer = undefined;
    if (outer instanceof OuterPad) outer.release();
  }
}

// Wipes the pad bytes of an OuterPad collected before its last pair was
// finished (a hasher dropped unfinished).
const padRegistry = OUTER_SHOT ? new FinalizationRegistry((bytes) => bytes.fill(0)) : undefined;

// The outer step of the pairs keyed from one key: `bytes` holds K0 ^ opad,
// then room for the inner digest, so text is one crypto.hash; a Buffer
// comes from a copy of `outer` (the same keyed Hash), so that no text of
// the MAC is made. The bytes are this side's copy of the key: wiped once no
// pair is left unfinished (a key's destroy() finishes its own), or when the
// last pair is collected.
class OuterPad {
  constructor(alg, outer, k0) {
    this.name = alg.name;
    this.outer = outer;
    this.block = alg.block;
    this.bytes = Buffer.alloc(alg.block + alg.size);
    this.bytes.set(k0);
    this.pairs = 1;
    padRegistry.register(this, this.bytes);
  }

  retain() {
    this.pairs++;
    return this;
  }

  release() {
    if (--this.pairs === 0) this.bytes.fill(0);
  }

  finish(inner, encoding) {
    try {
      if (encoding === undefined) return this.outer.copy().update(inner).digest();
      this.bytes.set(inner, this.block);
      return oneShot(this.name, this.bytes, encoding);
    } finally {
      this.bytes.fill(0, this.block);
      this.release();
    }
  }
}

// The keyed inner and outer states of `alg` (a block-based digest): K0 is
// the key, or its digest when it is longer than a block, zero-padded; inner
// absorbs K0 ^ ipad, outer K0 ^ opad. `key` is a KeyObject (its export is
// wiped) or a string or a view (a string's UTF-8 copy is wiped; a view is
// the caller's).
function keyStates(alg, key) {
  const { name, block } = alg;
  const own = typeof key === 'string' ? Buffer.from(key) : ArrayBuffer.isView(key) ? undefined : key.export();
  if (own !== undefined) key = own;
  else key = viewBytes(key);
  const k0 = Buffer.alloc(block);
  try {
    if (key.length > block) {
      const digest = crypto.createHash(name).update(key).digest();
      k0.set(digest);
      digest.fill(0);
    } else {
      k0.set(key);
    }
    for (let i = 0; i < block; i++) k0[i] ^= 0x36;
    const inner = crypto.createHash(name).update(k0);
    for (let i = 0; i < block; i++) k0[i] ^= 0x36 ^ 0x5c;
    const outer = crypto.createHash(name).update(k0);
    return new KeyedPair(inner, OUTER_SHOT && alg.direct ? new OuterPad(alg, outer, k0) : outer);
  } finally {
    if (own !== undefined) own.fill(0);
    k0.fill(0);
  }
}

// ---- many -----------------------------------------------------------------
function hashMany(algId, enc, length, into, ...inputs) {
  const alg = algAt(algId);
  if (into !== undefined) {
    // A fixed-length digest by hash()'s call for bytes (bytesInto()).
    for (let i = 0; i < inputs.length; i++) {
      if (alg.xof) into.set(digestOf(alg, inputs[i], length, 'buffer'), i * length);
      else bytesInto(alg, inputs[i], into.subarray(i * length, (i + 1) * length));
    }
    return undefined;
  }
  // As the addon gives them: one string, each digest's text at a fixed
  // width (encodedLength) for the shim to slice.
  const encoding = encodingAt(enc);
  const out = new Array(inputs.length);
  for (let i = 0; i < inputs.length; i++) {
    out[i] = alg.xof ? digestOf(alg, inputs[i], length, encoding) : textOf(alg, inputs[i], encoding);
  }
  return out.join('');
}

// ---- asynchronous and files -----------------------------------------------
// node:crypto has no digest off the main thread for every algorithm, so the
// work runs in later turns of the event loop, a slice at a time: a large
// input does not hold the loop for its whole length.
const SLICE = 1 << 20;

// A new Hash for alg. Where copying a Hash costs less than making one (Bun,
// Deno), a fixed-length digest's is a copy of a pristine one kept in its
// slot, which nothing updates.
function makeHash(alg, length) {
  if (alg.xof) return crypto.createHash(alg.name, { outputLength: length });
  if (!FRESH_COPIES) return crypto.createHash(alg.name);
  alg.pristine ??= crypto.createHash(alg.name);
  return alg.pristine.copy();
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

// Which call does what here (for the tests and the benchmark's header).
const MAC_CALLS = { bun: 'Bun.CryptoHasher keyed', states: 'keyed states', hmac: 'createHmac' };
const KEY_CALLS = { bun: 'Bun.CryptoHasher keyed, copied', states: 'keyed states, copied', hmac: 'createHmac(KeyObject)' };

function runtimeCalls(algId) {
  const alg = algAt(algId);
  const chain = FRESH_COPIES ? 'a copy of a pristine Hash' : 'createHash';
  const made = alg.direct && !VIA_HEX ? 'crypto.hash' : chain;
  const shot = alg.cls !== undefined ? `Bun.${BUN_CLASSES.find((n) => BUN[n] === alg.cls)}.hash` : made;
  const bytes = { class: `${shot} into the output`, latin1: "crypto.hash 'latin1' into the output",
    hex: `${made}, hex decoded into the output`,
    buffer: "crypto.hash 'buffer'", hash: chain };
  return {
    runtime: RUNTIME,
    text: shot,
    bytes: bytes[alg.bytes],
    hmac: MAC_CALLS[alg.mac],
    hmacKey: KEY_CALLS[alg.mac],
    viewsAsIs: { shot: SHOT_VIEWS, cls: CLASS_VIEWS, hasher: HASHER_VIEWS },
  };
}

module.exports = {
  implementation: 'js',
  releasesHandles: false,
  knowsOnlyNodeNames: true,
  shot: SHOT,
  macShot: MAC_SHOT,
  stageBytes: STAGE_BYTES,
  macStageBytes: MAC_STAGE_BYTES,
  runtimeCalls,
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
