'use strict';
// The JavaScript implementation's IDs: its encodings, and its table of
// digests (algorithms.js fills it; one slot per distinct digest). Contract:
// algAt() and encodingAt() refuse an ID this implementation never gave with
// ERR_OUT_OF_RANGE.
const { makeError } = require('../../errors');

// This implementation's own encoding IDs (the shim learns them from here).
const ENCODING_NAMES = ['hex', 'base64', 'base64url', 'latin1', 'buffer'];
const encodings = Object.freeze(Object.fromEntries(ENCODING_NAMES.map((name, id) => [name, id])));
const TEXT_NAMES = ENCODING_NAMES.filter((name) => name !== 'buffer');

// The digests resolve() has seen, by ID: { name, size, xof, block, direct,
// cls, pristine, way, mac } (algorithms.js).
const algs = [];

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

module.exports = { ENCODING_NAMES, TEXT_NAMES, encodings, algs, algAt, encodingAt, encodedLength };
