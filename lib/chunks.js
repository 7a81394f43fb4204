'use strict';
// A stream chunk as the hashers take it: a string (UTF-8) or a Uint8Array
// over exactly its bytes, read through the intrinsics (views.js). Shared by
// the stream digests (stream/) and hasher.passThrough() (hasher/).
// Contract: anything that is not a string, view or ArrayBuffer is
// ERR_INVALID_ARG_TYPE.

// Node's global Buffer is a getter: a module binding is a plain load.
const { Buffer } = require('buffer');
const { isDataView } = require('util').types;
const { exactBytes, viewBytes, viewTag } = require('./views');
const { toBytes } = require('./args');

// A chunk named `name` in errors (an index i: `chunks[i]`). A string with an
// encoding other than UTF-8 (a Writable's write(s, 'hex')) becomes its bytes.
// A DataView over a detached ArrayBuffer has no bytes left; a typed array
// over one throws the Uint8Array constructor's TypeError.
function chunkBytes(chunk, name, encoding) {
  if (typeof chunk === 'string') {
    if (encoding === undefined || encoding === 'utf8' || encoding === 'utf-8' || encoding === 'buffer') {
      return chunk;
    }
    return Buffer.from(chunk, encoding);
  }
  const tag = viewTag(chunk);
  if (tag === 'Uint8Array') return chunk;
  if (tag !== undefined) return exactBytes(chunk);
  if (isDataView(chunk)) return viewBytes(chunk);
  return toBytes(chunk, typeof name === 'number' ? `chunks[${name}]` : name, undefined);
}

module.exports = { chunkBytes };
