'use strict';
// Differential property tests: hash, hmac, verifyHmac and hashMany against
// node:crypto's createHash / createHmac on random algorithms (random case),
// random bytes and full-Unicode strings (lone surrogates included), every
// accepted input type (views at random offsets into larger buffers, with
// guard bytes around them), every output encoding (random case), random HMAC
// keys (KeyObjects too) and XOF lengths.
//
// A failure prints fast-check's seed, path and shrunk counterexample. Replay
// it with FC_SEED=<seed> npx mocha -g property (FC_NUM_RUNS=<n> scales the
// run counts).
const assert = require('assert');
const crypto = require('crypto');
const fc = require('fast-check');
const { hash, hmac, verifyHmac, hashMany } = require('..');
const { bytes: prng, runtimeHashes, hmacAlgorithms } = require('./common');

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;
// Cases per property: at least 10,000 for each of the four functions.
const RUNS = process.env.FC_NUM_RUNS ? Number(process.env.FC_NUM_RUNS) : 10000;
const params = (numRuns) => ({ numRuns, seed: SEED, verbose: 1 });

// What this runtime's node:crypto computes: Node 22+ lists KECCAK-KMAC XOFs
// too (HMAC refuses them); Bun and Deno differ from Node in both lists.
const ALGORITHMS = crypto.getHashes().filter(runtimeHashes);
const XOFS = new Set(ALGORITHMS.filter((alg) => {
  try {
    crypto.createHash(alg, { outputLength: 0 }).digest();
    return true;
  } catch {
    return false;
  }
}));
const isXof = (alg) => XOFS.has(alg);
const HMAC_ALGORITHMS = hmacAlgorithms();
// Digest sizes, from node:crypto itself.
const SIZE = new Map(ALGORITHMS.map((alg) => [alg, crypto.createHash(alg).digest().length]));

// ---- arbitraries ---------------------------------------------------------------

// A string in random case (names and encodings are case-insensitive).
const randomCase = (s) => fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length })
  .map((upper) => [...s].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''));
const caseOf = (arb) => arb.chain((s) => fc.oneof(fc.constant(s), randomCase(s)));

const algorithmArb = (list) => fc.constantFrom(...list).chain((alg) =>
  caseOf(fc.constant(alg)).map((name) => ({ alg, name })));

// Lone surrogates (and, by chance, pairs made of two of them).
const surrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((u) => String.fromCharCode(u));
const textArb = (maxParts) => fc.array(fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 24, size: 'max' }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 24, size: 'max' }) },
  { weight: 2, arbitrary: surrogate },
  { weight: 1, arbitrary: fc.constantFrom('\ud800\udc00', '\udc00\ud800', '\u0000', '\uffff', '\ufffe', '\u00ff', 'é', '😀') },
), { maxLength: maxParts, size: 'max' }).map((parts) => parts.join(''));

// Bytes: mostly short (random, shrinkable), now and then long (made from a
// seed: generating 60 KB one byte at a time would dominate the run).
const bytesArb = fc.oneof(
  { weight: 16, arbitrary: fc.uint8Array({ maxLength: 16, size: 'max' }) },
  { weight: 16, arbitrary: fc.uint8Array({ maxLength: 200, size: 'max' }) },
  { weight: 3, arbitrary: fc.uint8Array({ minLength: 200, maxLength: 1100, size: 'max' }) },
  { weight: 1, arbitrary: fc.record({ n: fc.integer({ min: 1000, max: 70000 }), seed: fc.integer({ min: 1 }) }).map(({ n, seed }) => prng(n, seed)) },
);
const stringArb = fc.oneof(
  { weight: 12, arbitrary: textArb(8) },
  { weight: 1, arbitrary: fc.record({ text: textArb(6), times: fc.integer({ min: 50, max: 3000 }) }).map(({ text, times }) => text.repeat(times)) },
);

// How bytes are handed over.
const VIEWS = [
  ['Int8Array', 1], ['Uint8Array', 1], ['Uint8ClampedArray', 1], ['Int16Array', 2], ['Uint16Array', 2],
  ['Int32Array', 4], ['Uint32Array', 4], ['Float32Array', 4], ['Float64Array', 8],
  ['BigInt64Array', 8], ['BigUint64Array', 8],
];
const CONTAINERS = ['Buffer', 'Uint8Array', 'TypedArray', 'DataView', 'ArrayBuffer', 'SharedArrayBuffer'];
const dataArb = fc.oneof(
  { weight: 3, arbitrary: fc.record({ string: stringArb }) },
  {
    weight: 7,
    arbitrary: fc.record({
      bytes: bytesArb,
      as: fc.constantFrom(...CONTAINERS),
      view: fc.constantFrom(...VIEWS.map(([name]) => name)),
      offset: fc.nat({ max: 40 }),
      pad: fc.nat({ max: 24 }),
    }),
  },
);

// Builds the value a spec describes; `expected` is what to give node:crypto
// for the same bytes (a string is hashed as UTF-8 by both; ArrayBuffers and
// SharedArrayBuffers, which createHash refuses, as the equivalent Uint8Array).
function build(spec) {
  if (spec.string !== undefined) return { value: spec.string, expected: spec.string };
  let buf = Buffer.from(spec.bytes);
  let value;
  // The bytes sit at an offset inside a larger buffer filled with guard bytes,
  // so a read past either end of the view changes the digest.
  const place = (Ctor, align) => {
    const offset = spec.offset * align;
    const ab = new Ctor(offset + buf.length + spec.pad);
    new Uint8Array(ab).fill(0xa5);
    new Uint8Array(ab).set(buf, offset);
    return [ab, offset];
  };
  switch (spec.as) {
    case 'Buffer':
      value = Buffer.from(buf); // short ones come out of the shared pool, at an offset
      break;
    case 'Uint8Array': {
      const [ab, offset] = place(ArrayBuffer, 1);
      value = new Uint8Array(ab, offset, buf.length);
      break;
    }
    case 'TypedArray': {
      const [name, size] = VIEWS.find(([n]) => n === spec.view);
      buf = buf.subarray(0, buf.length - (buf.length % size)); // whole elements only
      const [ab, offset] = place(ArrayBuffer, size);
      value = new globalThis[name](ab, offset, buf.length / size);
      break;
    }
    case 'DataView': {
      const [ab, offset] = place(ArrayBuffer, 1);
      value = new DataView(ab, offset, buf.length);
      break;
    }
    case 'ArrayBuffer':
      value = new Uint8Array(buf).slice().buffer;
      break;
    case 'SharedArrayBuffer':
      value = new SharedArrayBuffer(buf.length);
      new Uint8Array(value).set(buf);
      break;
    default:
      throw new Error(`bad spec ${spec.as}`);
  }
  return { value, expected: Buffer.from(buf) };
}

// Output encodings, each with what node:crypto's digest() takes for it.
const ENCODINGS = ['hex', 'base64', 'base64url', 'latin1', 'binary', 'buffer', 'utf8', 'utf-8', 'ucs2', 'ucs-2', 'utf16le', 'utf-16le', 'ascii'];
const encodingArb = fc.oneof(
  { weight: 12, arbitrary: caseOf(fc.constantFrom(...ENCODINGS)) },
  // '' is UTF-8, as in crypto.hash() (createHash().digest('') gives a Buffer).
  { weight: 1, arbitrary: fc.constant('') },
);
const cryptoEncoding = (enc) => {
  if (enc === undefined) return 'hex';
  const lower = enc.toLowerCase();
  return lower === '' ? 'utf8' : lower;
};
const digestAs = (h, enc) => (cryptoEncoding(enc) === 'buffer' ? h.digest() : h.digest(cryptoEncoding(enc)));

// The third argument of hash / hashMany: nothing, an encoding, or options.
// XOF lengths: mostly short, sometimes past EVP_MAX_MD_SIZE (64), sometimes long.
const xofLengthArb = fc.oneof(
  { weight: 10, arbitrary: fc.nat({ max: 80 }) },
  { weight: 3, arbitrary: fc.integer({ min: 60, max: 300 }) },
  { weight: 1, arbitrary: fc.integer({ min: 300, max: 5000 }) },
);
const hashOptionsArb = fc.record({
  form: fc.constantFrom('none', 'string', 'object', 'object', 'objectWithLength'),
  encoding: encodingArb,
  omitEncoding: fc.boolean(),
  xofLength: xofLengthArb,
});
// -> [argument, crypto createHash options, encoding]
function hashOptions(o, alg) {
  const xof = isXof(alg);
  switch (o.form) {
    case 'none':
      return [undefined, undefined, undefined];
    case 'string':
      return [o.encoding, undefined, o.encoding];
    case 'object': {
      const encoding = o.omitEncoding ? undefined : o.encoding;
      return [encoding === undefined ? {} : { outputEncoding: encoding }, undefined, encoding];
    }
    default: {
      const encoding = o.omitEncoding ? undefined : o.encoding;
      const outputLength = xof ? o.xofLength : SIZE.get(alg);
      return [{ outputEncoding: encoding, outputLength }, xof ? { outputLength } : undefined, encoding];
    }
  }
}

// Keys: the data types, plus secret KeyObjects; lengths around every block size.
const keyArb = fc.oneof(
  { weight: 8, arbitrary: dataArb },
  { weight: 2, arbitrary: fc.record({ keyObject: fc.uint8Array({ maxLength: 300, size: 'max' }) }) },
  { weight: 1, arbitrary: fc.record({ bytes: fc.uint8Array({ minLength: 60, maxLength: 180, size: 'max' }), as: fc.constantFrom(...CONTAINERS), view: fc.constant('Uint8Array'), offset: fc.nat({ max: 8 }), pad: fc.nat({ max: 8 }) }) },
);
function buildKey(spec) {
  if (spec.keyObject !== undefined) {
    const raw = Buffer.from(spec.keyObject);
    return { value: crypto.createSecretKey(raw), expected: raw };
  }
  return build(spec);
}

// Results compared as text, so a Buffer and a string never pass for equal.
const show = (v) => (Buffer.isBuffer(v) ? `Buffer<${v.toString('hex')}>` : `${typeof v}:${JSON.stringify(v)}`);
const same = (got, want, what) => assert.strictEqual(show(got), show(want), what);

// Runs fn and returns its error's code, or fails when it does not throw.
function codeOf(fn) {
  try {
    fn();
  } catch (err) {
    return err.code;
  }
  return 'did not throw';
}

describe('property: matches node:crypto', function () {
  this.timeout(120000);

  it(`hash() equals createHash().update().digest() (${RUNS} cases)`, function () {
    fc.assert(fc.property(algorithmArb(ALGORITHMS), dataArb, hashOptionsArb, ({ alg, name }, dataSpec, optSpec) => {
      const { value, expected } = build(dataSpec);
      const [options, createOptions, encoding] = hashOptions(optSpec, alg);
      const want = digestAs(crypto.createHash(alg, createOptions).update(expected), encoding);
      same(hash(name, value, options), want, `hash(${JSON.stringify(name)}, ..., ${JSON.stringify(options)})`);
    }), params(RUNS));
  });

  it(`hmac() equals createHmac().update().digest() (${RUNS} cases)`, function () {
    const hmacOptionsArb = fc.record({
      form: fc.constantFrom('none', 'string', 'object', 'objectWithLength'),
      encoding: encodingArb,
      omitEncoding: fc.boolean(),
      // createHmac ignores outputLength, and so must hmac()
      outputLength: fc.oneof(fc.nat({ max: 100 }), fc.constant(undefined)),
    });
    const algArb = fc.oneof({ weight: 30, arbitrary: algorithmArb(HMAC_ALGORITHMS) }, { weight: 1, arbitrary: algorithmArb(ALGORITHMS.filter(isXof)) });
    fc.assert(fc.property(algArb, keyArb, dataArb, hmacOptionsArb, ({ alg, name }, keySpec, dataSpec, o) => {
      const key = buildKey(keySpec);
      const { value, expected } = build(dataSpec);
      const encoding = o.form === 'none' || (o.form !== 'string' && o.omitEncoding) ? undefined : o.encoding;
      const options = o.form === 'none' ? undefined : o.form === 'string' ? o.encoding :
        o.form === 'object' ? { outputEncoding: encoding } : { outputEncoding: encoding, outputLength: o.outputLength };
      if (isXof(alg)) {
        // createHmac refuses XOFs; hmac() must too, with a code.
        assert.notStrictEqual(codeOf(() => crypto.createHmac(alg, key.expected)), 'did not throw');
        same(codeOf(() => hmac(name, key.value, value, options)), 'ERR_CRYPTO_INVALID_DIGEST', `hmac(${name})`);
        return;
      }
      // hmac()'s '' as the encoding itself is createHmac's digest(''), a
      // Buffer; { outputEncoding: '' } is UTF-8, as hash()'s.
      const mac = crypto.createHmac(alg, key.expected).update(expected);
      const want = options === '' ? mac.digest('') : digestAs(mac, encoding);
      same(hmac(name, key.value, value, options), want, `hmac(${JSON.stringify(name)}, ..., ${JSON.stringify(options)})`);
    }), params(RUNS));
  });

  it(`verifyHmac() is true for the MAC in any encoding, false with a bit flipped (${RUNS} cases)`, function () {
    const MAC_ENCODINGS = ['hex', 'base64', 'base64url', 'latin1', 'binary', 'utf8', 'utf-8', 'ucs2', 'utf16le', 'ascii'];
    const macArb = fc.record({
      as: fc.constantFrom('default', 'string', 'string', 'string', 'bytes'),
      encoding: caseOf(fc.constantFrom(...MAC_ENCODINGS)),
      bytesAs: fc.constantFrom(...CONTAINERS),
      hexUpper: fc.boolean(),
      unpadded: fc.boolean(),
      flip: fc.boolean(),
      bit: fc.nat(),
      offset: fc.nat({ max: 8 }),
    });
    fc.assert(fc.property(algorithmArb(HMAC_ALGORITHMS), keyArb, dataArb, macArb, ({ alg, name }, keySpec, dataSpec, m) => {
      const key = buildKey(keySpec);
      const { value, expected } = build(dataSpec);
      const right = crypto.createHmac(alg, key.expected).update(expected).digest();
      const mac = Buffer.from(right);
      if (m.flip) mac[(m.bit >>> 3) % mac.length] ^= 1 << (m.bit & 7);
      let given;
      let encoding;
      let want = !m.flip;
      if (m.as === 'bytes') {
        given = build({ bytes: mac, as: m.bytesAs, view: 'Uint8Array', offset: m.offset, pad: 3 }).value;
      } else {
        encoding = m.as === 'default' ? undefined : m.encoding;
        const enc = encoding === undefined ? 'hex' : encoding.toLowerCase();
        given = mac.toString(enc);
        if (enc === 'hex' && m.hexUpper) given = given.toUpperCase(); // hex in either case
        if ((enc === 'base64' && m.unpadded) || (enc === 'base64url' && !m.unpadded)) {
          // base64 without its padding, base64url with it: both accepted
          given = enc === 'base64' ? given.replace(/=+$/, '') : given + '='.repeat((4 - (given.length % 4)) % 4);
        }
        // Lossy text encodings: the string stands for what it decodes to.
        if (!['hex', 'base64', 'base64url', 'latin1', 'binary'].includes(enc)) {
          want = Buffer.from(given, enc).equals(right);
        }
      }
      const args = encoding === undefined ? [name, key.value, value, given] : [name, key.value, value, given, encoding];
      assert.strictEqual(verifyHmac(...args), want,
        `verifyHmac(${JSON.stringify(name)}, ..., ${show(given)}, ${JSON.stringify(encoding)}): right MAC ${right.toString('hex')}`);
    }), params(RUNS));
  });

  it(`hashMany() equals createHash() per element (${RUNS} cases)`, function () {
    const inputsArb = fc.oneof(
      { weight: 40, arbitrary: fc.array(dataArb, { maxLength: 12, size: 'max' }) },
      // past the shim's chunk of 1024 arguments, now and then
      { weight: 1, arbitrary: fc.record({ n: fc.integer({ min: 1000, max: 2100 }), seed: fc.integer({ min: 1 }) }) },
    );
    fc.assert(fc.property(algorithmArb(ALGORITHMS), inputsArb, hashOptionsArb, ({ alg, name }, inputSpec, optSpec) => {
      const specs = Array.isArray(inputSpec) ? inputSpec : Array.from({ length: inputSpec.n }, (_, i) =>
        (i % 3 === 0 ? { string: `${inputSpec.seed}:${i}\ud800` } :
          { bytes: prng(i % 97, inputSpec.seed + i), as: CONTAINERS[i % CONTAINERS.length], view: 'Float64Array', offset: i % 5, pad: 2 }));
      const built = specs.map(build);
      const [options, createOptions, encoding] = hashOptions(optSpec, alg);
      const got = hashMany(name, built.map((b) => b.value), options);
      assert.ok(Array.isArray(got), 'returns an array');
      assert.strictEqual(got.length, built.length, 'one result per input');
      for (let i = 0; i < built.length; i++) {
        const want = digestAs(crypto.createHash(alg, createOptions).update(built[i].expected), encoding);
        same(got[i], want, `hashMany(${JSON.stringify(name)}, ..., ${JSON.stringify(options)})[${i}]`);
      }
    }), params(RUNS));
  });
});
