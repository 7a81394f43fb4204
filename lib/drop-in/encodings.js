'use strict';
// The encodings node:crypto's Hash and Hmac read, mapped to the names a
// Hasher takes. Hash#update and Hash#digest never refuse an encoding: an
// unknown one (or one that is not a string) reads a string as UTF-8 and
// gives a digest as a Buffer. Names are matched ignoring case, as Node's
// ParseEncoding matches them.

const NAMES = new Map([
  ['hex', 'hex'], ['base64', 'base64'], ['base64url', 'base64url'],
  ['latin1', 'latin1'], ['binary', 'latin1'], ['ascii', 'ascii'],
  ['utf8', 'utf8'], ['utf-8', 'utf8'],
  ['ucs2', 'utf16le'], ['ucs-2', 'utf16le'], ['utf16le', 'utf16le'], ['utf-16le', 'utf16le'],
  ['buffer', 'buffer'],
]);

function known(encoding) {
  if (typeof encoding !== 'string') return undefined;
  return NAMES.get(encoding) ?? NAMES.get(encoding.toLowerCase());
}

// update(string, encoding)'s encoding: undefined for UTF-8 (the Hasher's
// default), else the Hasher's name.
function inputEncoding(encoding) {
  if (!encoding || encoding === 'utf8') return undefined;
  const name = known(encoding);
  return name === 'utf8' || name === 'buffer' ? undefined : name;
}

// digest(encoding)'s: 'buffer', or a text encoding. A falsy value is a
// Buffer; anything else is read as a string first, as Hash#digest does (a
// Symbol throws its TypeError there).
function outputEncoding(encoding) {
  if (encoding === 'hex') return 'hex';
  if (!encoding) return 'buffer';
  return known(`${encoding}`) ?? 'buffer';
}

module.exports = { inputEncoding, outputEncoding };
