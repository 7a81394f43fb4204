'use strict';
// Which runtime this is (Node, Bun or Deno), what differs between them, and
// the runtime's calls that every part of the JavaScript implementation
// makes: the one-shot, Hash#update, a new Hash. Contract: `runtime` is one
// strategy object, chosen once at load; the other modules read its fields
// and never test the runtime's name. Results are node:crypto's own bytes.
const crypto = require('crypto');
// Node's global Buffer is a getter: a module binding is a plain load.
const { Buffer } = require('buffer');
const { isUint8Array } = require('util').types;
const { viewBytes, viewTag, byteLengthOf } = require('../../views');
const { makeError } = require('../../errors');

const BUN = typeof globalThis.Bun === 'object' && globalThis.Bun !== null ? globalThis.Bun : undefined;
const BunHasher = BUN !== undefined && typeof BUN.CryptoHasher === 'function' ? BUN.CryptoHasher : undefined;
const BUN_CLASSES = ['MD4', 'MD5', 'SHA1', 'SHA224', 'SHA256', 'SHA384', 'SHA512', 'SHA512_256'];

// What each runtime's calls do best; each choice is by speed among calls
// that all give node:crypto's bytes (figures: benchmark/README.md, "Per
// runtime: question (j)" and "Figures behind design choices in the code").
//   stageBytes      how many bytes of short parts the shim's hashers gather
//                   before they reach a Hash: where that costs less than the
//                   Hash calls it saves, and a chain that fits is one one-shot;
//   macStageBytes   none: node:crypto has no one-shot HMAC, so staged bytes
//                   would still go through an Hmac, after a copy and a wipe;
//   freshCopies     a new Hash is a copy of a pristine one, where that costs
//                   less than createHash;
//   bytesViaLatin1  bytes as crypto.hash's 'latin1' text written into the
//                   output, where that costs less than its 'buffer';
//   viaHex          every result made from a Hash's hex text (Deno, where
//                   crypto.hash is a createHash chain of its own, and other
//                   digests cost more than hex decoded);
//   keyStates       HMAC through keyed inner and outer Hash states, copied
//                   per digest, where that costs less than createHmac;
//   outerShot       HMAC hashers finish with one crypto.hash of K0 ^ opad and
//                   the inner digest (OuterPad), where that costs less than a
//                   copy of the outer Hash.
const RUNTIMES = {
  node: {
    name: 'node', stageBytes: 1024, macStageBytes: 0, freshCopies: false,
    bytesViaLatin1: typeof Buffer.prototype.latin1Write === 'function', viaHex: false, keyStates: false,
    outerShot: typeof crypto.hash === 'function',
  },
  bun: {
    name: 'bun', stageBytes: 1024, macStageBytes: 0, freshCopies: true,
    bytesViaLatin1: false, viaHex: false, keyStates: false, outerShot: false,
  },
  deno: {
    name: 'deno', stageBytes: 0, macStageBytes: 0, freshCopies: true,
    bytesViaLatin1: false, viaHex: true, keyStates: true, outerShot: false,
  },
};
const runtime = RUNTIMES[BUN !== undefined ? 'bun' : typeof globalThis.Deno === 'object' ? 'deno' : 'node'];

// ---- the runtime's calls ------------------------------------------------------
// The runtime's one-shot where it has one (Node >= 20.12, Bun): it skips the
// Hash object.
const oneShot = typeof crypto.hash === 'function' ? crypto.hash :
  (name, data, encoding) => update(crypto.createHash(name), data).digest(encoding);

// A new Hash for alg (algorithms.js's slot). A fixed-length digest's is,
// where runtime.freshCopies, a copy of a pristine one kept in its slot,
// which nothing updates. XOFs always name their length: node:crypto warns
// (DEP0198, Node >= 25) or refuses without one.
function makeHash(alg, length) {
  if (alg.xof) return crypto.createHash(alg.name, { outputLength: length });
  if (!runtime.freshCopies) return crypto.createHash(alg.name);
  alg.pristine ??= crypto.createHash(alg.name);
  return alg.pristine.copy();
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
  if (viewTag(data) === 'Uint8Array' && Reflect.apply(byteLengthOf, data, []) !== 0 && ownProto(data)) {
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

// data's first n bytes (no more than it has), as a view. The shim's own
// stages and batches are Uint8Arrays (the shim passes no other here): those
// are cut as they are, without viewBytes()'s getter calls (their cost on
// Bun: benchmark/README.md, "Figures behind design choices in the code").
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

// ---- which views the calls take as they are --------------------------------
// Uint8Arrays whose prototype is another's: null, DataView's, a plain
// object's.
function oddProtos(bytes) {
  return [null, DataView.prototype, Object.prototype].map((proto) =>
    Object.setPrototypeOf(new Uint8Array(bytes), proto));
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
// Whether createHmac takes every key and data view as it is, asked on Node
// only: Bun's HMAC is its keyed hashers (KEY_VIEWS), Deno's keyed states.
const HMAC_VIEWS = runtime.name === 'node' && HASHER_VIEWS &&
  viewsAsIs((view) => crypto.createHmac('sha256', view).update('k').digest('hex')) &&
  viewsAsIs((view) => crypto.createHmac('sha256', 'k').update(view).digest('hex'));
const VIEWS = Object.freeze({
  shot: SHOT_VIEWS, cls: CLASS_VIEWS, key: KEY_VIEWS, hasher: HASHER_VIEWS, hmac: HMAC_VIEWS,
});

module.exports = {
  runtime, BUN, BunHasher, BUN_CLASSES, VIEWS, oneShot, makeHash, update, input, prefix, viewBytes,
};
