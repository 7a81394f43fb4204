'use strict';
// The argument rules particular to a Hasher: input encodings, digest()'s
// options (a Buffer by default), and copy()'s own output length. The shared
// rules are args.js's. Contract: each option property is read once, and
// errors are node:crypto's codes and wording.

// Node's global Buffer is a getter: a module binding is a plain load.
const { Buffer } = require('buffer');
const {
  ENCODING_NAMES, encodingId, parseOptions, outputLength, guarded,
} = require('../args');
const { makeError, invalidArgType } = require('../errors');

// A string's bytes in `encoding`, as Hash#update reads them: UTF-8 strings
// go to the binding as they are; other encodings become bytes here.
function decode(data, encoding, caller) {
  const id = encodingId(encoding, 'inputEncoding', caller);
  // 'buffer' reads UTF-8, as Hash#update reads it.
  const name = typeof id === 'number' ? ENCODING_NAMES[id] : id;
  if (name === 'utf8' || name === 'buffer') return data;
  // Node's check: hex text of odd length has no meaning.
  if (name === 'hex' && data.length % 2 !== 0) {
    throw makeError(TypeError, 'ERR_INVALID_ARG_VALUE',
      `The argument 'encoding' is invalid for data of length ${data.length}. Received 'hex'`, caller);
  }
  return Buffer.from(data, name);
}
const OPTION_TYPES = 'of type string or an instance of Object';

// digest()'s options object: { outputEncoding (default 'buffer'),
// outputLength (XOFs: this digest's length; others: their size) }. `alg` is
// undefined for HMAC, which ignores outputLength as createHmac does. Returns
// { encoding, length } (length -1: not given).
function digestOptions(options, alg, caller) {
  if (options === null || typeof options !== 'object') {
    throw invalidArgType('outputEncoding', OPTION_TYPES, options, caller);
  }
  const outputEncoding = guarded(options, 'outputEncoding', OPTION_TYPES, caller,
    (o) => o.outputEncoding);
  const requested = alg === undefined ? undefined :
    guarded(options, 'outputEncoding', OPTION_TYPES, caller, (o) => o.outputLength);
  const parsed = parseOptions({
    outputEncoding: outputEncoding === undefined ? 'buffer' : outputEncoding,
    outputLength: requested,
  }, true, caller);
  const encoding = parsed.encoding;
  if (parsed.length < 0) return { encoding, length: -1 };
  return { encoding, length: outputLength(alg, parsed.length, caller) };
}

// The output length createHasher(alg, options) and copy(options) give:
// options.outputLength, else the digest's default. As createHash reads its
// options, anything but an object (null, a string, a number) is none.
function hasherLength(options, alg, caller) {
  if (options === null || typeof options !== 'object') return alg.size;
  const requested = guarded(options, 'options', 'of type object', caller, (o) => o.outputLength);
  if (requested === undefined) return alg.size;
  return outputLength(alg, parseOptions({ outputLength: requested }, true, caller).length, caller);
}

module.exports = { decode, digestOptions, hasherLength };
