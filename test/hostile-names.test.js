'use strict';
// Algorithm names, output encodings and output lengths at and past the
// edges: NULs, spaces, lengths around the 127-byte name limit, names
// node:crypto refuses (KECCAK-KMAC), spellings past the name cache; MAC
// encodings and MACs of the wrong length or form; lengths that are not
// whole, negative, too large or not numbers.
const crypto = require('crypto');
const fh = require('..');
const { constants: { MAX_LENGTH } } = require('buffer');
const { hostileTest } = require('./hostile/harness');
const { algRef, encRef } = require('./hostile/oracle');
const {
  H, HM, EMPTY, newTable, runTable,
} = require('./hostile/table');

// Algorithm names: [label, name]; node:crypto says which it takes.
const ALG_NAMES = [['"sha256\\0"', 'sha256\0'], ['"\\0sha256"', '\0sha256'], ['" sha256"', ' sha256'], ['126 a', 'a'.repeat(126)], ['127 a', 'a'.repeat(127)],
  ['128 a', 'a'.repeat(128)], ['2**20 a', 'a'.repeat(1 << 20)], ['2**20 lone surrogates', '\ud800'.repeat(1 << 20)], ['"__proto__"', '__proto__'], ['"constructor"', 'constructor'],
  ['"hasOwnProperty"', 'hasOwnProperty'], ['"KECCAK-KMAC-128" (node:crypto refuses it)', 'KECCAK-KMAC-128'], ['"KECCAK-KMAC-256" (node:crypto refuses it)', 'KECCAK-KMAC-256'], ['"md4"', 'md4']];
// Output and MAC encodings: [label, encoding].
const ENCODINGS = [['""', ''], ['"HEX"', 'HEX'], ['"Base64URL"', 'Base64URL'], ['"UTF-16LE"', 'UTF-16LE'], ['"hex\\0"', 'hex\0'], ['" hex"', ' hex'],
  ['"utf-16"', 'utf-16'], ['"base32"', 'base32'], ['2**20 a', 'a'.repeat(1 << 20)], ['"\\u0130"', '\u0130'], ['"__proto__"', '__proto__'], ['"toString"', 'toString']];
// sha256's outputLength: [label, value, the code it gets].
const SHA256_LENGTHS = [['-0 (sha256)', -0, 'ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH'], ['-1', -1, 'ERR_OUT_OF_RANGE'], ['1.5', 1.5, 'ERR_OUT_OF_RANGE'], ['NaN', NaN, 'ERR_OUT_OF_RANGE'],
  ['"32"', '32', 'ERR_INVALID_ARG_TYPE'], ['32n', 32n, 'ERR_INVALID_ARG_TYPE'], ['null', null, 'ERR_INVALID_ARG_TYPE'], ['2**53', 2 ** 53, 'ERR_OUT_OF_RANGE'], ['31 (sha256)', 31, 'ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH']];

// Names, encodings and lengths.
function nameCases(add) {
  for (const [label, name] of ALG_NAMES) {
    const A = algRef(name, false);
    const expect = 'ok' in A ? { value: H(name, 'x') } : { code: 'ERR_CRYPTO_INVALID_DIGEST' };
    add(`hash: algorithm ${label}`, () => fh.hash(name, 'x'), expect);
    add(`hmac: algorithm ${label}`, () => fh.hmac(name, 'k', 'x'), 'ok' in algRef(name, true) ? { value: HM(name, 'k', 'x') } : { code: 'ERR_CRYPTO_INVALID_DIGEST' });
    add(`hashMany: algorithm ${label}`, () => fh.hashMany(name, ['x']), 'ok' in A ? { value: [H(name, 'x')] } : { code: 'ERR_CRYPTO_INVALID_DIGEST' });
  }
  add('hash: 1100 distinct valid spellings (past the name cache)', () => {
    const base = 'sha512-256WithRSAEncryption';
    const names = new Set();
    for (let i = 0; names.size < 1100; i++) names.add([...base].map((c, j) => ((i >> j) & 1 ? c.toUpperCase() : c.toLowerCase())).join(''));
    const want = H('sha512-256', 'x');
    return [...names].filter((n) => fh.hash(n, 'x') !== want);
  }, { value: [] });
  for (const [label, enc] of ENCODINGS) {
    const e = encRef(enc, false);
    add(`hash: encoding ${label}`, () => fh.hash('sha256', 'x', enc), 'ok' in e ? { value: H('sha256', 'x', e.ok) } : { code: e.bad });
    add(`hmac: options.outputEncoding ${label}`, () => fh.hmac('sha256', 'k', 'x', { outputEncoding: enc }), 'ok' in e ? { value: HM('sha256', 'k', 'x', e.ok) } : { code: e.bad });
    const m = encRef(enc, true);
    add(`verifyHmac: macEncoding ${label}`, () => fh.verifyHmac('sha256', 'k', 'x', 'aa', enc), 'ok' in m ? { value: false } : { code: m.bad });
  }
  add('verifyHmac: macEncoding "buffer"', () => fh.verifyHmac('sha256', 'k', 'x', 'aa', 'buffer'), { code: 'ERR_INVALID_ARG_VALUE' });
  add('verifyHmac: a 2**20-character MAC', () => fh.verifyHmac('sha256', 'k', 'x', 'a'.repeat(1 << 20)), { value: false });
  add('verifyHmac: a 2**20-character MAC in utf8', () => fh.verifyHmac('sha256', 'k', 'x', 'a'.repeat(1 << 20), 'utf8'), { value: false });
  add('verifyHmac: the MAC in hex plus one character', () => fh.verifyHmac('sha256', 'k', 'x', `${HM('sha256', 'k', 'x')}0`), { value: false });
  add('verifyHmac: the MAC in base64 with one padding character too many', () => fh.verifyHmac('sha256', 'k', 'x', `${HM('sha256', 'k', 'x', 'base64')}=`, 'base64'), { value: false });
  add('verifyHmac: the MAC in base64url, non-canonical last character', () => {
    const m = HM('sha256', 'k', 'x', 'base64url');
    const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(m[m.length - 1]);
    return fh.verifyHmac('sha256', 'k', 'x', m.slice(0, -1) + 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[last | 1], 'base64url');
  }, { value: false });
  add('verifyHmac: the MAC in latin1 with a character > 0xff', () => fh.verifyHmac('md5', 'k', 'x', `${HM('md5', 'k', 'x', 'latin1').slice(0, -1)}\u0100`, 'latin1'), { value: false });
  for (const [label, len, code] of SHA256_LENGTHS) {
    add(`hash: outputLength ${label}`, () => fh.hash('sha256', 'x', { outputLength: len }), { code });
  }
  add('hash: shake128 outputLength -0', () => fh.hash('shake128', 'x', { outputLength: -0 }), { value: '' });
  add('hash: shake128 outputLength 0', () => fh.hash('shake128', 'x', { outputLength: 0, outputEncoding: 'buffer' }), { value: EMPTY });
  add('hash: shake256 outputLength MAX_LENGTH + 1', () => fh.hash('shake256', 'x', { outputLength: MAX_LENGTH + 1 }), { code: 'ERR_OUT_OF_RANGE' });
  add('hash: shake256 outputLength 2**28 + 4 in hex (longer than a string can be)', () => fh.hash('shake256', 'x', { outputLength: 2 ** 28 + 4 }), { coded: true });
  add('hmac: outputLength garbage is ignored', () => fh.hmac('sha256', 'k', 'x', { outputLength: Symbol('ignored') }), { value: HM('sha256', 'k', 'x') });
  add('getHashes: with arguments, and after the last result was changed', () => { const a = fh.getHashes(Symbol('x'), null); a.length = 0; a.push('evil'); return fh.getHashes(1, 2, 3); },
    { value: [...new Set(crypto.getHashes())].sort() });
}

hostileTest(module, 'algorithm names, encodings and output lengths at and past the edges', () => {
  const { cases, add } = newTable();
  nameCases(add);
  return runTable(cases);
});
