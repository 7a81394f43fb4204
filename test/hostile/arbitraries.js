'use strict';
// The fast-check arbitraries of the random hostile-argument tests
// (hostile-sync, hostile-async): plain specs of valid and hostile values for
// each argument position, built into values by make() at the call.
const crypto = require('crypto');
const fc = require('fast-check');
const { constants: { MAX_LENGTH } } = require('buffer');
const { ENC } = require('./oracle');
const { NAMED, PROXY_TARGETS, CONTAINERS } = require('../fixtures/hostile-values');

const V = (v) => ({ k: 'val', v });
const randomCase = (s) => fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length })
  .map((up) => [...s].map((c, i) => (up[i] ? c.toUpperCase() : c.toLowerCase())).join(''));
const NAMES = [...crypto.getHashes(), 'SHA2-256', 'SHA-512/256', 'SHA3-256', 'SHAKE-128', 'SHAKE-256', 'sha-1', 'SHA-256', 'SHA2-512/224', '1.2.840.113549.2.5', 'MD5-SHA1', 'KECCAK-KMAC-128', 'md4', 'whirlpool'];
const validAlg = fc.constantFrom(...NAMES).chain((n) => fc.oneof(fc.constant(n), randomCase(n))).map(V);
const hmacAlg = fc.constantFrom(...crypto.getHashes().filter((n) => !/^shake/i.test(n))).chain((n) => fc.oneof(fc.constant(n), randomCase(n))).map(V);
const ENC_NAMES = [...ENC.keys()];
const validEnc = fc.constantFrom(...ENC_NAMES).chain((n) => fc.oneof(fc.constant(n), randomCase(n))).map(V);
const macEncName = fc.constantFrom(...ENC_NAMES.filter((n) => n !== 'buffer')).chain((n) => fc.oneof(fc.constant(n), randomCase(n)));

const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(V) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 12 }).map(V) },
  {
    weight: 4,
    arbitrary: fc.constantFrom('', ' ', 'sha256\0', '\0', 'sha256 ', ' sha256', 'SHA256\0junk', 'hex\0', 'HEX ', 'buffer', 'BUFFER',
      'utf-16', 'base32', 'binary\0', '__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'then', 'prototype',
      'length', '\ud800', '\udfff\ud800', 'ﬀ', 'İ', 'K', 'sha256\ud800', 'shake128', 'md4', 'null', 'undefined', 'NaN', '0',
      '-1', '1e400', 'file:///etc/passwd', '.', '..', '/', 'sub', 'missing.bin', 'small.bin\0.txt').map(V),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('repeat'),
      unit: fc.constantFrom('a', 'sha256', '\ud800', '😀', '\0', 'é', 'f'),
      n: fc.oneof(fc.integer({ min: 20, max: 130 }), fc.constantFrom(100000, 1 << 20)),
    }),
  },
);
const hostileNumber = fc.oneof(
  fc.double().map(V),
  fc.integer().map(V),
  fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 1, -1, 0.5, 2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 53, -(2 ** 53),
    2 ** 53 - 1, Number.MAX_VALUE, Number.MIN_VALUE, Number.EPSILON, 255, 256, 65535, MAX_LENGTH + 1, 1e21).map(V),
);
const hostilePrimitive = fc.oneof(
  fc.constant({ k: 'undefined' }),
  fc.constant({ k: 'null' }),
  fc.boolean().map(V),
  hostileNumber,
  fc.oneof(fc.bigInt(), fc.constantFrom(0n, -1n, 2n ** 64n, -(2n ** 63n))).map(V),
  fc.constantFrom('iterator', 'for', 'plain', '').map((v) => ({ k: 'symbol', v })),
);
const byteArr = fc.oneof(
  { weight: 4, arbitrary: fc.uint8Array({ maxLength: 40, size: 'max' }) },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 40, maxLength: 300, size: 'max' }) },
);
const validBytes = fc.record({ k: fc.constant('bytes'), bytes: byteArr, as: fc.constantFrom(...CONTAINERS), offset: fc.nat({ max: 9 }) });
const validText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: 0xd800, max: 0xdfff }).map((u) => String.fromCharCode(u))), { maxLength: 6 }).map((a) => a.join('')),
).map(V);
const validData = fc.oneof({ weight: 3, arbitrary: validBytes }, { weight: 2, arbitrary: validText },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('big'), n: fc.integer({ min: 1000, max: 200000 }), seed: fc.nat(), as: fc.constantFrom('Buffer', 'Float64Array', 'DataView', 'ArrayBuffer') }) });
const hostileBinary = fc.oneof(
  fc.record({ k: fc.constant('detached'), n: fc.constantFrom(0, 8, 64, 1 << 16), view: fc.constantFrom('ab', 'u8', 'dv', 'f64', 'buffer'), how: fc.constantFrom('structuredClone', 'port', 'transfer') }),
  fc.record({ k: fc.constant('rab'), n: fc.nat({ max: 300 }), max: fc.constantFrom(64, 300, 1 << 16, 1 << 22), to: fc.nat({ max: 1 << 16 }), off: fc.nat({ max: 40 }), len: fc.nat({ max: 300 }), view: fc.constantFrom('rab', 'u8track', 'u8fixed', 'dvtrack', 'dvfixed', 'f64track', 'u16fixed'), when: fc.constantFrom('before', 'after') }),
  fc.record({ k: fc.constant('gsab'), n: fc.nat({ max: 200 }), max: fc.constantFrom(64, 256, 4096), to: fc.nat({ max: 4096 }), view: fc.constantFrom('gsab', 'u8track', 'u8fixed', 'dvtrack') }),
  fc.constantFrom('viewWithThrowingProps', 'bufferWithThrowingProps', 'evilSubclassView', 'dataViewWithThrowingProps', 'nullProtoBuffer').map((v) => ({ k: 'named', v })),
);
const hostileObject = fc.constantFrom(...Object.keys(NAMED)).map((v) => ({ k: 'named', v }));
const hostileProxy = fc.record({ k: fc.constant('proxy'), mode: fc.constantFrom('throwAll', 'handlerProxy', 'revoked', 'transparent'), target: fc.constantFrom(...Object.keys(PROXY_TARGETS)) });
const hostileGetterObj = fc.record({
  k: fc.constant('getterObj'),
  base: fc.constantFrom('object', 'array'),
  key: fc.constantFrom('outputEncoding', 'outputLength', 'constructor', 'length', '0', 'then', 'type', 'buffer', 'href', 'byteLength'),
  throws: fc.boolean(),
  inner: fc.oneof(validEnc, hostilePrimitive, validText),
});
const hostile = fc.oneof(
  { weight: 4, arbitrary: hostilePrimitive },
  { weight: 4, arbitrary: hostileString },
  { weight: 5, arbitrary: hostileObject },
  { weight: 3, arbitrary: hostileProxy },
  { weight: 2, arbitrary: hostileGetterObj },
  { weight: 3, arbitrary: hostileBinary },
);

const lengthSpec = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null) },
  { weight: 3, arbitrary: fc.nat({ max: 80 }).map(V) },
  { weight: 2, arbitrary: fc.constantFrom(16, 20, 28, 32, 36, 48, 64, 65, 300).map(V) },
  { weight: 2, arbitrary: fc.constantFrom(-1, -0, 0.5, NaN, Infinity, -Infinity, 2 ** 53, 2 ** 53 - 1, MAX_LENGTH + 1, 1e21, 2 ** 64).map(V) },
  { weight: 1, arbitrary: fc.constantFrom({ k: 'undefined' }, { k: 'null' }, V('32'), V(32n), V(true), { k: 'named', v: 'plainObject' }, { k: 'symbol', v: 'x' }, { k: 'getterThrows' }) },
  { weight: 1, arbitrary: fc.nat({ max: 80 }).map((n) => ({ k: 'getterReturns', inner: V(n) })) },
);
const encSpec = fc.oneof(
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 5, arbitrary: validEnc },
  { weight: 1, arbitrary: fc.constant({ k: 'undefined' }) },
  { weight: 1, arbitrary: fc.constant({ k: 'getterThrows' }) },
  { weight: 1, arbitrary: validEnc.map((inner) => ({ k: 'getterReturns', inner })) },
  { weight: 2, arbitrary: fc.oneof(hostilePrimitive, hostileString, hostileObject) },
);
const optionsSpec = fc.record({ k: fc.constant('options'), enc: encSpec, len: lengthSpec, inherit: fc.boolean() });
const OPTS = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ k: 'undefined' }) },
  { weight: 3, arbitrary: validEnc },
  { weight: 5, arbitrary: optionsSpec },
  { weight: 2, arbitrary: hostile },
);
const ALG = fc.oneof({ weight: 9, arbitrary: validAlg }, { weight: 1, arbitrary: hmacAlg }, { weight: 2, arbitrary: hostile });
const DATA = fc.oneof({ weight: 8, arbitrary: validData }, { weight: 2, arbitrary: hostileBinary }, { weight: 2, arbitrary: hostile });
const KEY = fc.oneof(
  { weight: 7, arbitrary: validData },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('secretKey'), bytes: fc.uint8Array({ maxLength: 200, size: 'max' }) }) },
  { weight: 1, arbitrary: fc.constantFrom('publicKeyObject', 'privateKeyObject', 'emptySecretKeyObject', 'hmacCryptoKey', 'aesCryptoKey', 'ecCryptoKey').map((v) => ({ k: 'named', v })) },
  { weight: 1, arbitrary: hostileBinary },
  { weight: 2, arbitrary: hostile },
);
const rightMac = fc.record({
  k: fc.constant('rightMac'),
  enc: fc.oneof(fc.constant(undefined), macEncName),
  flip: fc.boolean(),
  bit: fc.nat(),
  upper: fc.boolean(),
  unpadded: fc.boolean(),
  asBytes: fc.constantFrom(null, null, null, 'Buffer', 'DataView', 'ArrayBuffer', 'Float64Array', 'SharedArrayBuffer'),
});
const MAC = fc.oneof({ weight: 5, arbitrary: rightMac }, { weight: 2, arbitrary: validData }, { weight: 2, arbitrary: hostile });
const MACENC = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ k: 'undefined' }) },
  { weight: 4, arbitrary: macEncName.map(V) },
  { weight: 1, arbitrary: fc.constant(V('buffer')) },
  { weight: 2, arbitrary: hostile },
);
const item = fc.oneof(
  { weight: 10, arbitrary: validData },
  { weight: 1, arbitrary: fc.constant({ k: 'hole' }) },
  { weight: 1, arbitrary: fc.constant({ k: 'getterThrows' }) },
  { weight: 1, arbitrary: validData.map((inner) => ({ k: 'getterReturns', inner })) },
  { weight: 1, arbitrary: hostileBinary },
  { weight: 1, arbitrary: fc.oneof(hostilePrimitive, hostileObject, hostileProxy) },
);
const INPUTS = fc.oneof(
  { weight: 6, arbitrary: fc.array(validData, { maxLength: 10, size: 'max' }).map((items) => ({ k: 'array', items })) },
  { weight: 3, arbitrary: fc.array(item, { maxLength: 10, size: 'max' }).map((items) => ({ k: 'array', items })) },
  { weight: 2, arbitrary: hostile },
);
const PATH = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      k: fc.constant('path'),
      name: fc.constantFrom('small.bin', 'small.bin', 'chunk.bin', 'empty.bin', 'sub', 'missing.bin', 'sub/../small.bin', 'small.bin/x'),
      abs: fc.boolean(),
      as: fc.constantFrom('string', 'string', 'Buffer', 'Uint8Array', 'URL'),
    }),
  },
  { weight: 3, arbitrary: hostile },
);
const EXTRA = fc.oneof({ weight: 6, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(hostile, { minLength: 1, maxLength: 2 }) });

// HmacKey: created, then a few operations on it.
const KEY_OPS = fc.array(fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('digest'), data: DATA, opts: OPTS }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('verify'), data: DATA, mac: MAC, macEnc: MACENC }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('destroy'), extra: EXTRA }) },
  { weight: 1, arbitrary: fc.constant({ op: 'algorithm' }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('foreignThis'), method: fc.constantFrom('digest', 'verify', 'destroy', 'algorithm'), self: hostile }) },
  { weight: 1, arbitrary: fc.constant({ op: 'gc' }) },
), { maxLength: 5, size: 'max' });

module.exports = {
  V, ALG, DATA, KEY, MAC, MACENC, OPTS, INPUTS, PATH, EXTRA, KEY_OPS, hostile,
};
