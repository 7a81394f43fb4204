'use strict';
// hashInto() and the target rules it shares with hasher.digestInto(): a
// digest written straight into memory of the caller's (a view or an
// ArrayBuffer) at a byte offset, through the binding's `out` parameter, no
// output allocated. Contract: every argument is checked, and the range
// with it, before a byte is written; the target's bytes are found through
// the intrinsics (views.js), never through getters of the caller's.
const { isAnyArrayBuffer } = require('util').types;
const binding = require('./binding');
const {
  ENC_BUFFER, checkAlgorithm, lookupAlgorithm, parseOptions, outputLength, toBytes, guarded, wholeView,
} = require('./args');
const { invalidArgType, outOfRange } = require('./errors');
const { exactBytes, viewLength, viewSlice } = require('./views');

const TARGET_TYPES = 'an instance of Buffer, TypedArray, DataView, ArrayBuffer, or SharedArrayBuffer';

// The target's whole memory as a Uint8Array (a detached view: a TypeError
// from the Uint8Array constructor, as exactBytes gives it; a detached
// ArrayBuffer: no bytes).
function targetBytes(target, caller) {
  if (ArrayBuffer.isView(target)) return exactBytes(target);
  if (isAnyArrayBuffer(target)) return wholeView(target);
  throw invalidArgType('target', TARGET_TYPES, target, caller);
}

// `offset` (undefined: 0) checked: a non-negative safe integer.
function checkOffset(offset, caller) {
  if (offset === undefined) return 0;
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw outOfRange('offset', 'a non-negative safe integer', offset, caller);
  }
  return offset;
}

// The `length` bytes of `bytes` (targetBytes') from `offset`, as a
// Uint8Array over the same memory; ERR_OUT_OF_RANGE when they do not fit.
function slot(bytes, offset, length, caller) {
  const room = viewLength(bytes);
  if (offset > room || length > room - offset) {
    throw outOfRange('offset', `>= 0 && <= ${Math.max(room - length, 0)} for a ${length}-byte digest in ` +
      `${room} bytes`, offset, caller);
  }
  return viewSlice(bytes, offset, length);
}

// hasher.digestInto()'s target: the `length` bytes at `offset`, checked.
function targetSlot(target, offset, length, caller) {
  const bytes = targetBytes(target, caller);
  return slot(bytes, checkOffset(offset, caller), length, caller);
}

// { outputLength? } (null and undefined: none); each property read once.
function requestedLength(options, caller) {
  if (options === undefined || options === null) return -1;
  if (typeof options !== 'object') throw invalidArgType('options', 'of type object', options, caller);
  const outputLength = guarded(options, 'options', 'of type object', caller, (o) => o.outputLength);
  return parseOptions({ outputLength }, true, caller).length;
}

// hashInto(algorithm, data, target[, offset][, options]): an object in
// offset's place is the options.
function hashInto(algorithm, data, target, offset, options) {
  checkAlgorithm(algorithm, hashInto);
  if (typeof data !== 'string' && !ArrayBuffer.isView(data)) data = toBytes(data, 'data', hashInto);
  const bytes = targetBytes(target, hashInto);
  if (offset !== null && typeof offset === 'object' && options === undefined) {
    options = offset;
    offset = undefined;
  }
  const at = checkOffset(offset, hashInto);
  const requested = requestedLength(options, hashInto);
  const alg = lookupAlgorithm(algorithm, hashInto);
  const length = outputLength(alg, requested, hashInto);
  binding.hash(alg.id, ENC_BUFFER, data, length, slot(bytes, at, length, hashInto));
  return length;
}

module.exports = { hashInto, targetSlot };
