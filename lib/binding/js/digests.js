'use strict';
// Digests: hash(), hashPrefix() and hashMany(), each by the way its digest's
// results are made fastest here. A way is one strategy object per kind of
// call (a Bun class, crypto.hash's latin1 text, hex text decoded,
// crypto.hash's Buffer, a Hash chain), chosen for each digest once, when
// resolve() first sees it (digestWay()). Contract: text is made by the
// runtime; bytes go into the shim's `out`; an XOF's too-long text is
// ERR_STRING_TOO_LONG.
const { Buffer } = require('buffer');
const { runtime, VIEWS, oneShot, makeHash, update, input, prefix, viewBytes } = require('./runtime');
const { encodings, ENCODING_NAMES, TEXT_NAMES, algs, algAt, encodingAt } = require('./table');
const { makeError } = require('../../errors');

// A fixed-length digest's hex text from a Hash (a copy of the pristine one
// where runtime.freshCopies), which is what Deno's crypto.hash does less
// the name's lookup and a new Hash.
const hexOf = (alg, data) => update(makeHash(alg, alg.size), data).digest('hex');
const chainOf = (alg, data) => update(makeHash(alg, alg.size), data);
const latin1Write = Buffer.prototype.latin1Write;

// Each way: text(alg, data, encoding) -> a fixed-length digest's text;
// into(alg, data, out) writes its bytes into `out` (a Uint8Array of its
// size) and returns nothing; bytes: which call makes the bytes
// (runtimeCalls()).
const WAYS = {
  // A Bun class's hash() (Bun.SHA256, ...), for text and into a view.
  class: {
    text: (alg, data, encoding) => alg.cls.hash(VIEWS.cls ? data : input(data), encoding),
    into: (alg, data, out) => {
      alg.cls.hash(VIEWS.cls ? data : input(data), out);
    },
    bytes: (calls) => `${calls.text} into the output`,
  },
  // crypto.hash for text; bytes as its 'latin1' text written into the output.
  latin1: {
    text: (alg, data, encoding) => oneShot(alg.name, VIEWS.shot ? data : input(data), encoding),
    into: (alg, data, out) => {
      Reflect.apply(latin1Write, out, [oneShot(alg.name, VIEWS.shot ? data : input(data), 'latin1'), 0, alg.size]);
    },
    bytes: () => "crypto.hash 'latin1' into the output",
  },
  // Every result from a Hash's hex text (runtime.viaHex).
  hex: {
    text: (alg, data, encoding) => {
      if (alg.size > textScratch.length) return (alg.direct ? WAYS.buffer : WAYS.hash).text(alg, data, encoding);
      const hex = hexOf(alg, data);
      if (encoding === 'hex') return hex;
      hexInto(hex, textScratch, alg.size);
      return textScratch.toString(encoding, 0, alg.size);
    },
    into: (alg, data, out) => hexInto(hexOf(alg, data), out, alg.size),
    bytes: (calls) => `${calls.made}, hex decoded into the output`,
  },
  // crypto.hash, text and Buffer alike.
  buffer: {
    text: (alg, data, encoding) => oneShot(alg.name, VIEWS.shot ? data : input(data), encoding),
    into: (alg, data, out) => out.set(oneShot(alg.name, input(data), 'buffer')),
    bytes: () => "crypto.hash 'buffer'",
  },
  // A Hash chain, for a digest the one-shot does not take.
  hash: {
    text: (alg, data, encoding) => chainOf(alg, data).digest(encoding),
    into: (alg, data, out) => out.set(chainOf(alg, data).digest()),
    bytes: (calls) => calls.chain,
  },
};

// The way for a digest, from what the probes found (algorithms.js): `cls`
// its Bun class, `direct` whether the one-shot takes its name.
function digestWay(cls, direct) {
  if (cls !== undefined) return WAYS.class;
  if (runtime.bytesViaLatin1 && direct) return WAYS.latin1;
  if (runtime.viaHex) return WAYS.hex;
  return direct ? WAYS.buffer : WAYS.hash;
}

// The n bytes that lower-case hex text (the runtime's own digest text)
// spells, written into out.
const NIBBLES = new Uint8Array(128);
for (let i = 0; i < 16; i++) NIBBLES['0123456789abcdef'.charCodeAt(i)] = i;
// The bytes of a digest on its way from hex to other text (runtime.viaHex):
// a digest is no secret.
const textScratch = Buffer.alloc(64);
function hexInto(text, out, n) {
  for (let i = 0, j = 0; i < n; i++, j += 2) {
    out[i] = (NIBBLES[text.charCodeAt(j)] << 4) | NIBBLES[text.charCodeAt(j + 1)];
  }
}

// Any digest in `encoding` ('buffer': a Buffer), of any length.
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
  // Text by the digest's shot (shots.js) in as few steps as can be: the
  // shim takes that path itself; other callers (hashWith(), the stage of a
  // hasher) come here.
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
    if (out === undefined && encoding !== 'buffer') return alg.way.text(alg, data, encoding);
    if (out !== undefined && encoding === 'buffer' && out.length === alg.size) return alg.way.into(alg, data, out);
  }
  const name = encodingAt(enc);
  // Text is made by the runtime in digestOf, which codes its too-long error.
  if (out === undefined && name !== 'buffer') return digestOf(algAt(algId), data, length, name);
  return give(digestOf(algAt(algId), data, length, 'buffer'), name, out, false);
}

function hashPrefix(algId, enc, data, n, length, out) {
  return hash(algId, enc, prefix(data, n), length, out);
}

function hashMany(algId, enc, length, into, ...inputs) {
  const alg = algAt(algId);
  if (into !== undefined) {
    // A fixed-length digest by hash()'s way into the output.
    for (let i = 0; i < inputs.length; i++) {
      if (alg.xof) into.set(digestOf(alg, inputs[i], length, 'buffer'), i * length);
      else alg.way.into(alg, inputs[i], into.subarray(i * length, (i + 1) * length));
    }
    return undefined;
  }
  // As the addon gives them: one string, each digest's text at a fixed
  // width (encodedLength) for the shim to slice.
  const encoding = encodingAt(enc);
  const out = new Array(inputs.length);
  for (let i = 0; i < inputs.length; i++) {
    out[i] = alg.xof ? digestOf(alg, inputs[i], length, encoding) : alg.way.text(alg, inputs[i], encoding);
  }
  return out.join('');
}

module.exports = { digestWay, hash, hashPrefix, hashMany, emit, give };
