'use strict';
// hashInto() and hasher.digestInto(): the digest written into the caller's
// memory at an offset, checked against node:crypto; range and argument
// errors write nothing (and finish no hasher).
const assert = require('assert');
const crypto = require('crypto');
const { hashInto, createHasher, createHmacKey } = require('..');

const DATA = 'The quick brown fox jumps over the lazy dog';
const FILL = 0xee;

// [algorithm, outputLength (undefined: the digest's own)]
const ALGORITHMS = [
  ['sha256'], ['sha1'], ['md5'], ['sha512'], ['sha3-256'], ['blake2b512'], ['ripemd160'],
  ['shake128'], ['shake256', 100], ['shake128', 0],
];

// Each kind of target, made over `n` bytes: [name, make(n) -> { target, bytes }]
// (bytes: a Buffer over the same memory, to read what was written).
const TARGETS = [
  ['Buffer', (n) => { const b = Buffer.alloc(n, FILL); return { target: b, bytes: b }; }],
  ['Uint8Array', (n) => { const t = new Uint8Array(n).fill(FILL); return { target: t, bytes: Buffer.from(t.buffer) }; }],
  ['Uint32Array over an offset', (n) => {
    const ab = new ArrayBuffer(8 + Math.ceil(n / 4) * 4 + 8);
    new Uint8Array(ab).fill(FILL);
    return { target: new Uint32Array(ab, 8, Math.ceil(n / 4)), bytes: Buffer.from(ab, 8, n) };
  }],
  ['Float64Array', (n) => {
    const t = new Float64Array(Math.ceil(n / 8));
    new Uint8Array(t.buffer).fill(FILL);
    return { target: t, bytes: Buffer.from(t.buffer, 0, n) };
  }],
  ['DataView over an offset', (n) => {
    const ab = new ArrayBuffer(n + 5);
    new Uint8Array(ab).fill(FILL);
    return { target: new DataView(ab, 3, n), bytes: Buffer.from(ab, 3, n) };
  }],
  ['ArrayBuffer', (n) => { const ab = new ArrayBuffer(n); new Uint8Array(ab).fill(FILL); return { target: ab, bytes: Buffer.from(ab) }; }],
  ['SharedArrayBuffer', (n) => {
    const sab = new SharedArrayBuffer(n);
    new Uint8Array(sab).fill(FILL);
    return { target: sab, bytes: Buffer.from(sab) };
  }],
];

const want = (alg, length, data = DATA) => crypto.createHash(alg, length === undefined ? {} : { outputLength: length })
  .update(data).digest();
const options = (length) => (length === undefined ? undefined : { outputLength: length });

describe('hashInto()', () => {
  for (const [alg, length] of ALGORITHMS) {
    for (const [kind, make] of TARGETS) {
      it(`${alg}${length === undefined ? '' : ` (${length} bytes)`} into a ${kind}, at 0 and at an offset`, () => {
        const size = want(alg, length).length;
        for (const offset of [0, 3]) {
          const { target, bytes } = make(size + offset + 2);
          const n = hashInto(alg, DATA, target, offset, options(length));
          assert.strictEqual(n, size);
          const expected = Buffer.concat([Buffer.alloc(offset, FILL), want(alg, length), Buffer.alloc(2, FILL)]);
          assert.deepStrictEqual(bytes.subarray(0, size + offset + 2), expected);
        }
      });
    }
  }

  it('takes the options in the offset\'s place, and every kind of data', () => {
    const out = Buffer.alloc(40);
    assert.strictEqual(hashInto('shake256', DATA, out, { outputLength: 40 }), 40);
    assert.deepStrictEqual(out, want('shake256', 40));
    for (const data of [Buffer.from(DATA), new Uint16Array(3), new ArrayBuffer(5), new DataView(new ArrayBuffer(7))]) {
      const got = Buffer.alloc(32);
      hashInto('sha256', data, got);
      const bytes = ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data);
      assert.deepStrictEqual(got, want('sha256', undefined, bytes));
    }
  });

  it('writes straight into the target (a fresh view over it, not a copy made later)', () => {
    const ab = new ArrayBuffer(64);
    const view = new Uint8Array(ab, 16, 32);
    hashInto('sha256', DATA, view);
    assert.deepStrictEqual(Buffer.from(ab, 16, 32), want('sha256'));
  });

  // [what, offset, target size]: each a RangeError ERR_OUT_OF_RANGE, nothing written.
  const RANGE = [
    ['a target one byte short', 0, 31],
    ['an offset past the room left', 1, 32],
    ['an offset past the end', 40, 32],
    ['a negative offset', -1, 64],
    ['a fractional offset', 1.5, 64],
    ['NaN', NaN, 64],
    ['Infinity', Infinity, 64],
    ['an offset past 2^53', 2 ** 53, 64],
    ['a string offset', '1', 64],
    ['an empty target', 0, 0],
  ];
  for (const [what, offset, size] of RANGE) {
    it(`refuses ${what}: RangeError ERR_OUT_OF_RANGE, nothing written`, () => {
      const out = Buffer.alloc(size, FILL);
      assert.throws(() => hashInto('sha256', DATA, out, offset), (err) => err instanceof RangeError &&
        err.code === 'ERR_OUT_OF_RANGE');
      assert.deepStrictEqual(out, Buffer.alloc(size, FILL));
    });
  }

  // [what, call, Class, code]: the other argument errors, as hash() throws them.
  const ERRORS = [
    ['an algorithm that is not a string', (t) => hashInto(1, DATA, t), TypeError, 'ERR_INVALID_ARG_TYPE'],
    ['an unknown algorithm', (t) => hashInto('nope', DATA, t), TypeError, 'ERR_CRYPTO_INVALID_DIGEST'],
    ['data that is not data', (t) => hashInto('sha256', 42, t), TypeError, 'ERR_INVALID_ARG_TYPE'],
    ['a target that is not memory', () => hashInto('sha256', DATA, 'out'), TypeError, 'ERR_INVALID_ARG_TYPE'],
    ['a plain array target', () => hashInto('sha256', DATA, new Array(64)), TypeError, 'ERR_INVALID_ARG_TYPE'],
    ['an outputLength that is not a number', (t) => hashInto('shake128', DATA, t, 0, { outputLength: '8' }),
      TypeError, 'ERR_INVALID_ARG_TYPE'],
    ['a negative outputLength', (t) => hashInto('shake128', DATA, t, 0, { outputLength: -1 }),
      RangeError, 'ERR_OUT_OF_RANGE'],
    ['an outputLength on a fixed digest', (t) => hashInto('sha256', DATA, t, 0, { outputLength: 16 }),
      Error, 'ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH'],
    ['options that are a string', (t) => hashInto('sha256', DATA, t, 0, 'hex'), TypeError, 'ERR_INVALID_ARG_TYPE'],
  ];
  for (const [what, call, Class, code] of ERRORS) {
    it(`refuses ${what}: ${Class.name} ${code}, nothing written`, () => {
      const out = Buffer.alloc(64, FILL);
      assert.throws(() => call(out), (err) => err instanceof Class && err.code === code);
      assert.deepStrictEqual(out, Buffer.alloc(64, FILL));
    });
  }

  it('reads the target through the intrinsics, not its own getters', () => {
    const out = new Uint8Array(32);
    Object.defineProperty(out, 'byteLength', { value: 1000 });
    Object.defineProperty(out, 'byteOffset', { value: 5 });
    hashInto('sha256', DATA, out);
    assert.deepStrictEqual(Buffer.from(out), want('sha256'));
    assert.throws(() => hashInto('sha256', DATA, out, 1), { code: 'ERR_OUT_OF_RANGE' });
  });
});

describe('hasher.digestInto()', () => {
  it('equals createHash(...).digest() written at the offset, and finishes the hasher', () => {
    for (const [alg, length] of ALGORITHMS) {
      // Short parts (staged, no native state) and a long one (a native state).
      for (const parts of [[DATA], [Buffer.alloc(5000, 7), DATA]]) {
        const h = createHasher(alg, options(length));
        const c = crypto.createHash(alg, options(length));
        for (const p of parts) { h.update(p); c.update(p); }
        const size = c.copy(options(length)).digest().length;
        const out = Buffer.alloc(size + 4, FILL);
        assert.strictEqual(h.digestInto(out, 4), size, alg);
        assert.deepStrictEqual(out, Buffer.concat([Buffer.alloc(4, FILL), c.digest()]), alg);
        assert.throws(() => h.update('x'), { code: 'ERR_CRYPTO_HASH_FINALIZED' });
        assert.throws(() => h.digestInto(out), { code: 'ERR_CRYPTO_HASH_FINALIZED' });
      }
    }
  });

  it('gives an HMAC hasher\'s MAC (staged and with a state), as createHmac', () => {
    const key = createHmacKey('sha512', 'secret');
    for (const parts of [[], ['a'], [Buffer.alloc(10), 'b'], [Buffer.alloc(70000, 1), 'c']]) {
      const h = key.createHasher();
      const c = crypto.createHmac('sha512', 'secret');
      for (const p of parts) { h.update(p); c.update(p); }
      const out = new Uint8Array(64);
      assert.strictEqual(h.digestInto(out), 64);
      assert.deepStrictEqual(Buffer.from(out), c.digest());
    }
  });

  it('a target too small or a bad offset: ERR_OUT_OF_RANGE, nothing written, the hasher not finished', () => {
    for (const hmac of [false, true]) {
      const h = hmac ? createHmacKey('sha256', 'k').createHasher() : createHasher('sha256');
      h.update(DATA);
      for (const [target, offset] of [[Buffer.alloc(31, FILL)], [Buffer.alloc(32, FILL), 1], [Buffer.alloc(32, FILL), -1]]) {
        assert.throws(() => h.digestInto(target, offset), { code: 'ERR_OUT_OF_RANGE', name: 'RangeError' });
        assert.ok(target.every((b) => b === FILL));
      }
      assert.throws(() => h.digestInto('x'), { code: 'ERR_INVALID_ARG_TYPE' });
      const c = hmac ? crypto.createHmac('sha256', 'k') : crypto.createHash('sha256');
      assert.deepStrictEqual(h.update('!').digest(), c.update(DATA).update('!').digest());
    }
  });

  it('taken off its object: ERR_INVALID_THIS', () => {
    const { digestInto } = createHasher('sha256');
    assert.throws(() => digestInto(Buffer.alloc(32)), { code: 'ERR_INVALID_THIS' });
  });
});
