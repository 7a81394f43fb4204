'use strict';
// Views read through the intrinsics. A view's own getters (a subclass's, a
// Buffer's with another prototype, a look-alike's) are not ours to run, so
// every module that needs a view's bytes, length or tag asks here: the
// TypedArray and DataView getters, taken once at load, applied to the view.
// Contract: nothing here runs code of the caller's; exactBytes() is the one
// definition of "a view's exact bytes".
const { isDataView } = require('util').types;

const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsic = (proto, name) => Object.getOwnPropertyDescriptor(proto, name);
const tagOf = intrinsic(TypedArrayPrototype, Symbol.toStringTag).get;
const bufferOf = intrinsic(TypedArrayPrototype, 'buffer').get;
const byteOffsetOf = intrinsic(TypedArrayPrototype, 'byteOffset').get;
const byteLengthOf = intrinsic(TypedArrayPrototype, 'byteLength').get;
const setBytes = intrinsic(TypedArrayPrototype, 'set').value;
const bytesInclude = TypedArrayPrototype.includes;
const TYPED_GETTERS = [bufferOf, byteOffsetOf, byteLengthOf];
const DATA_VIEW_GETTERS = ['buffer', 'byteOffset', 'byteLength'].map((name) => intrinsic(DataView.prototype, name).get);
const ReflectApply = Reflect.apply;

// A view's exact bytes: a Uint8Array over the memory the view spans. The
// Uint8Array constructor throws a TypeError for a view over a detached
// ArrayBuffer.
function exactBytes(view) {
  const [buffer, offset, length] = isDataView(view) ? DATA_VIEW_GETTERS : TYPED_GETTERS;
  return new Uint8Array(ReflectApply(buffer, view, []), ReflectApply(offset, view, []), ReflectApply(length, view, []));
}

// The same, where a detached view has no bytes (as node:crypto hashes it).
function viewBytes(view) {
  try {
    return exactBytes(view);
  } catch {
    return new Uint8Array(0);
  }
}

// A typed array's tag ('Uint8Array', ...), undefined for anything else.
const viewTag = (value) => ReflectApply(tagOf, value, []);

// A typed array's length in bytes as its view has it (a `length` property
// set on it is not read).
const viewLength = (view) => ReflectApply(byteLengthOf, view, []);

// n bytes of a typed array from byte `at`, as a plain Uint8Array over the
// same memory (no subarray() or species of the view's own).
function viewSlice(view, at, n) {
  return new Uint8Array(ReflectApply(bufferOf, view, []), ReflectApply(byteOffsetOf, view, []) + at, n);
}

// Whether a typed array holds a 0 byte (a detached one holds none).
const hasZeroByte = (view) => viewLength(view) !== 0 && ReflectApply(bytesInclude, view, [0]);

module.exports = {
  exactBytes, viewBytes, viewTag, viewLength, viewSlice, hasZeroByte, tagOf, byteLengthOf, setBytes,
};
