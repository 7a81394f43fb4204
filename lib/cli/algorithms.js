'use strict';
// What the command needs to know of an algorithm beyond its digest: the
// name in BSD-style lines (--tag, and lines --check reads), and the length
// of its hex digest (which list lines can be for it).

const { hash } = require('../hash');

// The names coreutils' own tools write (md5sum, sha*sum, b2sum, cksum -a);
// any other algorithm is written upper-cased.
const TAGS = {
  md5: 'MD5',
  sha1: 'SHA1',
  sha224: 'SHA224',
  sha256: 'SHA256',
  sha384: 'SHA384',
  sha512: 'SHA512',
  blake2b512: 'BLAKE2b',
  sm3: 'SM3',
};

function tagName(algorithm) {
  const name = algorithm.toLowerCase();
  return Object.hasOwn(TAGS, name) ? TAGS[name] : algorithm.toUpperCase();
}

// The hex digest's length; null when the algorithm is unknown.
function hexLength(algorithm) {
  try {
    return hash(algorithm, '').length;
  } catch (err) {
    if (err.code === 'ERR_CRYPTO_INVALID_DIGEST') return null;
    throw err;
  }
}

module.exports = { tagName, hexLength };
