'use strict';
// Result shaping, shared by every public function: what the binding gives
// (a string in one of its encodings, or bytes in a Buffer made here) becomes
// what the caller asked for. MACs are secrets: their bytes never sit in
// Buffer's shared pool, and bytes only turned into text are wiped.
// Contract: an encoding is the binding's ID (a number) or the name of a
// text encoding Buffer#toString makes here (a string), as args.js gives it.

// Node's global Buffer is a getter: a module binding is a plain load.
const { Buffer } = require('buffer');
const binding = require('./binding');
const { ENC_BUFFER, ENCODING_NAMES, isNativeText } = require('./args');
const { makeError } = require('./errors');

// Turns a result Buffer into what `encoding` asks for.
function fromBuffer(out, encoding) {
  if (encoding === ENC_BUFFER) return out;
  return out.toString(typeof encoding === 'string' ? encoding : ENCODING_NAMES[encoding]);
}

// A Buffer of n bytes for a digest to fill. V8's own "Array buffer
// allocation failed" has no code: it gets the one the addon's allocation
// failures have.
function allocOutput(n) {
  try {
    return Buffer.allocUnsafe(n);
  } catch (err) {
    if (err === null || typeof err !== 'object' || err.code !== undefined) throw err;
    throw makeError(RangeError, 'ERR_MEMORY_ALLOCATION_FAILED', `Failed to allocate ${n} bytes for the digest`);
  }
}

// The 'buffer' result of fn(algId, ENC_BUFFER, a, b, out), `length` bytes:
// the binding fills a Buffer made here (a pooled Buffer costs less than one
// made in C).
function filledBy(fn, algId, a, b, length) {
  const out = allocOutput(length);
  fn(algId, ENC_BUFFER, a, b, out);
  return out;
}

// A plain hasher's digest (hasher/) when all it was given is one string:
// hash() of it (written into `out` when given: hasher.digestInto()).
function textShot(id, text, length, encoding, out) {
  if (out !== undefined) return binding.hash(id, ENC_BUFFER, text, length, out);
  if (isNativeText(encoding)) return binding.hash(id, encoding, text, length);
  const bytes = allocOutput(length);
  binding.hash(id, ENC_BUFFER, text, length, bytes);
  return fromBuffer(bytes, encoding);
}

// A plain hasher's digest (hasher/) when everything it was given is staged (n bytes
// of `stage`): one one-shot of them (into `out` as textShot).
function stageShot(id, stage, n, length, encoding, out) {
  if (out !== undefined) return binding.hashPrefix(id, ENC_BUFFER, stage, n, length, out);
  if (isNativeText(encoding)) return binding.hashPrefix(id, encoding, stage, n, length);
  const bytes = allocOutput(length);
  binding.hashPrefix(id, ENC_BUFFER, stage, n, length, bytes);
  return fromBuffer(bytes, encoding);
}

// ---- MACs -------------------------------------------------------------------
// The binding fills this thread's scratch for a MAC's length: a small new
// Buffer lives on the engine's heap, and the addon filling it first moves
// it off, which costs more than the MAC (benchmark/README.md). takeMac() then copies the bytes into a new Buffer
// (or makes the text) and wipes the scratch. Each length has its own
// ArrayBuffer, outside Buffer's pool.
const scratchViews = [];

// The scratch as a Buffer of exactly `length` bytes, for the binding to fill.
const macScratch = (length) => (scratchViews[length] ||= Buffer.from(new ArrayBuffer(length)));

// The filled scratch as `encoding` asks; the scratch is wiped either way.
function takeMac(scratch, encoding) {
  try {
    if (encoding !== ENC_BUFFER) return fromBuffer(scratch, encoding);
    const out = Buffer.alloc(scratch.length);
    out.set(scratch);
    return out;
  } finally {
    scratch.fill(0);
  }
}

// A MAC in a Buffer of its own (from an async job) as `encoding` asks.
function fromSecret(out, encoding) {
  if (encoding === ENC_BUFFER) return out;
  const text = fromBuffer(out, encoding);
  out.fill(0);
  return text;
}

// The MAC of data with the HmacKey binding handle `handle` (size: the
// MAC's bytes) as `encoding` asks, kept as a secret; written straight into
// `out` when given (hasher.digestInto(): the caller's memory, no scratch).
function keyMac(handle, size, data, encoding, out) {
  if (out !== undefined) return binding.hmacKeyDigest(handle, ENC_BUFFER, data, out);
  if (isNativeText(encoding)) return binding.hmacKeyDigest(handle, encoding, data);
  const scratch = macScratch(size);
  binding.hmacKeyDigest(handle, ENC_BUFFER, data, scratch);
  return takeMac(scratch, encoding);
}

// A hasher's digest (hasher/: the binding's hasherDigest of its state
// `handle` with stage[0, used) as the tail) as `encoding` asks: into `out`
// when given; a MAC (`secret`) through the scratch, as takeMac keeps it.
function stateDigest(handle, encoding, stage, used, length, secret, out) {
  if (out !== undefined) return binding.hasherDigest(handle, ENC_BUFFER, stage, used, out);
  if (isNativeText(encoding)) return binding.hasherDigest(handle, encoding, stage, used);
  if (!secret) return fromBuffer(filledBy(binding.hasherDigest, handle, stage, used, length), encoding);
  const scratch = macScratch(length);
  binding.hasherDigest(handle, ENC_BUFFER, stage, used, scratch);
  return takeMac(scratch, encoding);
}

// ---- jobs -------------------------------------------------------------------
// The encoding for async jobs and files: one the binding makes itself, else
// a Buffer (turned into text here).
const jobEncoding = (encoding) => (typeof encoding === 'number' ? encoding : ENC_BUFFER);
const settle = (promise, encoding) =>
  (typeof encoding === 'number' ? promise : promise.then((out) => fromBuffer(out, encoding)));

module.exports = {
  fromBuffer, allocOutput, filledBy, textShot, stageShot, macScratch, takeMac, fromSecret, keyMac, stateDigest,
  jobEncoding, settle,
};
