'use strict';
// createHasher(): every result equals createHash fed the same parts, over
// random splits at block edges for every algorithm, every input type and
// input encoding, copies of copies and XOF lengths; then finalisation and
// argument errors (a refused call changes nothing). Streaming HMAC is in
// createHasher-hmac.test.js, memory and workers in their own files.
const assert = require('assert');
const crypto = require('crypto');
const { createHasher, createHmacKey, hash } = require('..');
const binding = require('../lib/binding');
const { throwsWith, bytes, binaryInputs, stringInputs, sweep, STAGE, refusedByRuntime } = require('./common');

const ALGORITHMS = crypto.getHashes();
const info = (alg) => binding.resolve(alg);
// node:crypto's Hash for alg; XOFs always name their length (Node 25+ warns
// without one, later Nodes refuse).
const reference = (alg, length) =>
  crypto.createHash(alg, info(alg).xof ? { outputLength: length ?? info(alg).size } : undefined);

// Deterministic choices (xorshift32), so a failure can be replayed.
function prng(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x % n;
  };
}

// A part of `buf` as one input type: [label, value for createHasher,
// arguments for Hash#update]. Node's Hash takes no ArrayBuffer; the same
// bytes go to it as a Buffer.
const PART_KINDS = [
  (b) => ['Buffer', [b], [b]],
  (b) => { const v = binaryInputs(b)[1][1]; return ['Uint8Array+offset', [v], [b]]; },
  (b) => { const v = binaryInputs(b)[2][1]; return ['DataView', [v], [v]]; },
  (b) => { const v = binaryInputs(b)[3][1]; return ['ArrayBuffer', [v], [b]]; },
  (b) => { const v = binaryInputs(b)[4][1]; return ['SharedArrayBuffer', [v], [b]]; },
  (b) => ['hex', [b.toString('hex'), 'hex'], [b.toString('hex'), 'hex']],
  (b) => ['base64', [b.toString('base64'), 'base64'], [b.toString('base64'), 'base64']],
  (b) => ['latin1', [b.toString('latin1'), 'latin1'], [b.toString('latin1'), 'latin1']],
  (b) => ['BINARY', [b.toString('latin1'), 'BINARY'], [b.toString('latin1'), 'binary']],
  (b) => (b.length % 8 ? ['Buffer', [b], [b]] :
    ['Float64Array', [new Float64Array(new Uint8Array(b).buffer)], [b]]),
];

const OUTPUTS = [undefined, 'hex', 'base64', 'latin1', 'buffer', { outputEncoding: 'base64url' }, {}];
const refEncoding = (o) => (o === undefined || o === 'buffer' || (typeof o === 'object' && !o.outputEncoding) ?
  undefined : typeof o === 'object' ? o.outputEncoding : o);

// Splits n bytes into 1 to 6 parts at random points.
function splits(n, pick) {
  const cuts = Array.from({ length: pick(6) }, () => pick(n + 1)).sort((a, b) => a - b);
  const points = [0, ...cuts, n];
  return points.slice(1).map((end, i) => [points[i], end]);
}

describe('createHasher()', function () {
  describe('equals createHash fed the same parts', function () {
    it('every algorithm, random splits at block edges, every binary type and encoding, every output', function () {
      this.timeout(600000);
      const pick = prng(0x5eed13);
      const cases = [];
      for (const alg of ALGORITHMS) {
        const { block, size, xof } = info(alg);
        const lengths = [0, 1, 55, 56, 57, 63, 64, 65, 111, 112, 113, 127, 128, 129,
          block - 1, block, block + 1, 2 * block, 255, 256, 257, 1000].filter((n) => n >= 0);
        for (const n of lengths) {
          for (let k = 0; k < 3; k++) {
            const msg = bytes(n, n * 7 + k + 1);
            const parts = splits(n, pick).map(([a, b]) => PART_KINDS[pick(PART_KINDS.length)](msg.subarray(a, b)));
            const output = OUTPUTS[pick(OUTPUTS.length)];
            const length = xof ? [0, 1, size, 64, 65, 300][pick(6)] : undefined;
            const label = `${alg} ${n} B as ${parts.map((p) => `${p[0]}:${p[2][0].length}`).join(' ')} -> ${JSON.stringify(output)}`;
            const h = reference(alg, length);
            for (const p of parts) h.update(...p[2]);
            cases.push([label, () => {
              const ours = createHasher(alg, xof ? { outputLength: length } : undefined);
              for (const p of parts) ours.update(...p[1]);
              return ours.digest(output);
            }, h.digest(refEncoding(output))]);
          }
        }
      }
      const n = sweep(cases);
      assert.ok(n >= 60 * ALGORITHMS.length, `${n} cases`); // Bun's node:crypto has 14 names, Node's 50+
    });

    it('strings as UTF-8 (non-ASCII, surrogates, past the stage and the native stack buffer), in every spelling of utf8', function () {
      const cases = [];
      for (const size of [0, 1, 63, 64, 255, 256, 257, 3100, 10000]) {
        for (const [label, s] of stringInputs(size)) {
          for (const enc of [undefined, 'utf8', 'UTF-8', 'utf-8', 'Utf8', '']) {
            const want = crypto.createHash('sha256').update(s).update('|').update(s).digest('hex');
            cases.push([`${label} ${size} ${enc}`, () =>
              createHasher('sha256').update(s, enc).update('|', enc).update(s, enc).digest('hex'), want]);
          }
        }
      }
      sweep(cases);
    });

    it('every other input encoding Hash#update takes, in any case, mixed with binary parts', function () {
      const text = 'héllo wörld 漢字 😀 ' + bytes(40).toString('latin1');
      for (const enc of ['ascii', 'latin1', 'binary', 'ucs2', 'ucs-2', 'utf16le', 'utf-16le', 'hex',
        'base64', 'base64url', 'UCS2', 'Latin1', 'HEX', 'Base64']) {
        const s = enc.toLowerCase() === 'hex' ? Buffer.from(text).toString('hex') :
          enc.toLowerCase().startsWith('base64') ? Buffer.from(text).toString(enc.toLowerCase()) : text;
        const want = crypto.createHash('sha512').update(Buffer.alloc(3, 1)).update(s, enc.toLowerCase())
          .update(Buffer.alloc(STAGE + 44, 2)).update(s, enc.toLowerCase()).digest('hex');
        assert.strictEqual(createHasher('sha512').update(Buffer.alloc(3, 1)).update(s, enc)
          .update(Buffer.alloc(STAGE + 44, 2)).update(s, enc).digest('hex'), want, enc);
      }
    });

    it('ignores inputEncoding for non-string data, as Hash#update does', function () {
      const b = bytes(20);
      assert.strictEqual(createHasher('sha256').update(b, 'hex').update(b.buffer, 'base64').digest('hex'),
        crypto.createHash('sha256').update(b).update(Buffer.from(b.buffer)).digest('hex'));
    });

    it('reads a part when update() is called: changing it afterwards changes nothing', function () {
      for (const size of [16, STAGE - 56, STAGE, STAGE + 44]) {
        const part = bytes(size);
        const want = crypto.createHash('sha256').update(part).update(part).digest('hex');
        const h = createHasher('sha256').update(part);
        const copy = h.copy();
        h.update(part);
        part.fill(0);
        assert.strictEqual(h.digest('hex'), want, `${size}`);
        assert.strictEqual(copy.update(bytes(size)).digest('hex'), want, `copy ${size}`);
      }
    });

    it('a hasher given nothing is the empty digest; empty parts of every type change nothing', function () {
      for (const alg of ['sha256', 'md5', 'sha3-256', 'shake128']) {
        const want = reference(alg).digest('hex');
        assert.strictEqual(createHasher(alg).digest('hex'), want, alg);
        const h = createHasher(alg);
        for (const [, v] of binaryInputs(Buffer.alloc(0))) h.update(v);
        assert.strictEqual(h.update('').update('', 'hex').digest('hex'), want, alg);
      }
    });

    it('is not confused by many hashers at once, interleaved across algorithms', function () {
      const pick = prng(7);
      const live = ALGORITHMS.filter((a) => !info(a).xof).map((alg) => [alg, createHasher(alg), reference(alg)]);
      for (let round = 0; round < 50; round++) {
        for (const [, ours, ref] of live) {
          const part = bytes(pick(STAGE + 44), round);
          ours.update(part);
          ref.update(part);
        }
      }
      for (const [alg, ours, ref] of live) assert.strictEqual(ours.digest('hex'), ref.digest('hex'), alg);
    });
  });

  describe('copy()', function () {
    it('copies of copies carry on apart, at every point of the stage and native state', function () {
      const pick = prng(99);
      const cases = [];
      for (const alg of ['sha256', 'sha1', 'md5', 'sha384', 'sha512', 'sha3-256', 'blake2b512', 'sm3', 'ripemd160']
        .filter((a) => ALGORITHMS.includes(a))) {
        for (let k = 0; k < 20; k++) {
          const head = [bytes(pick(STAGE + 44), k), 'text part', bytes(pick(70), k + 1)].slice(0, 1 + pick(3));
          const tails = [bytes(pick(STAGE - 56), k + 2), 'tail ü', bytes(pick(STAGE + 144), k + 3)];
          const ours = createHasher(alg);
          const ref = reference(alg);
          for (const p of head) { ours.update(p); ref.update(p); }
          const c1 = ours.copy();
          const r1 = ref.copy();
          c1.update(tails[0]); r1.update(tails[0]);
          const c2 = c1.copy();
          const r2 = r1.copy();
          c2.update(tails[1]); r2.update(tails[1]);
          const c3 = c2.copy().copy();
          const r3 = r2.copy().copy();
          ours.update(tails[2]); ref.update(tails[2]);
          for (const [i, h, r] of [[0, ours, ref], [1, c1, r1], [2, c2, r2], [3, c3, r3]]) {
            cases.push([`${alg} #${k} copy ${i}`, () => h.digest('hex'), r.digest('hex')]);
          }
        }
      }
      sweep(cases);
    });

    it('is a Hasher of the same algorithm, and finishing the original leaves the copy alive', function () {
      const h = createHasher('SHA256').update('a');
      const c = h.copy();
      assert.strictEqual(c.algorithm, 'sha256');
      assert.strictEqual(Object.prototype.toString.call(c), '[object Hasher]');
      h.digest();
      assert.strictEqual(c.update('b').digest('hex'), crypto.createHash('sha256').update('ab').digest('hex'));
    });
  });

  describe('XOFs', function () {
    const XOFS = ['shake128', 'shake256'].filter((a) => ALGORITHMS.includes(a));

    it('outputLength in createHasher and in copy, as createHash and Hash#copy take it', function () {
      const cases = [];
      for (const alg of XOFS) {
        for (const n of [0, 1, 16, 32, 63, 64, 65, 100, 1000]) {
          for (const m of [0, 7, 64, 200]) {
            const ref = reference(alg, n).update('part one');
            const ours = createHasher(alg, { outputLength: n }).update('part one');
            const rc = ref.copy({ outputLength: m }).update(Buffer.alloc(300, 1));
            const oc = ours.copy({ outputLength: m }).update(Buffer.alloc(300, 1));
            cases.push([`${alg} ${n}`, () => ours.digest('hex'), ref.digest('hex')]);
            cases.push([`${alg} ${n} copy ${m}`, () => oc.digest('base64'), rc.digest('base64')]);
          }
        }
      }
      sweep(cases);
    });

    it('copy() with no outputLength has the default length, as Hash#copy', function () {
      for (const alg of XOFS) {
        const { size } = info(alg);
        const c = createHasher(alg, { outputLength: 5 }).update('x').copy();
        assert.strictEqual(c.digest().length, size, alg);
        assert.strictEqual(c.algorithm, alg);
      }
    });

    it('digest({ outputLength }) gives that length for this digest (the shared options rule)', function () {
      for (const alg of XOFS) {
        for (const data of ['x', Buffer.alloc(40, 3), Buffer.alloc(1000, 4)]) {
          for (const n of [0, 3, 64, 65, 500]) {
            assert.strictEqual(createHasher(alg).update(data).digest({ outputLength: n, outputEncoding: 'hex' }),
              reference(alg, n).update(data).digest('hex'), `${alg} ${n}`);
            const b = createHasher(alg, { outputLength: 9 }).update(data).digest({ outputLength: n });
            assert.ok(Buffer.isBuffer(b) && b.length === n);
          }
        }
      }
    });

    it('a digest that is not an XOF takes outputLength only equal to its size', function () {
      assert.strictEqual(createHasher('sha256', { outputLength: 32 }).update('a').digest('hex'), hash('sha256', 'a'));
      assert.strictEqual(createHasher('sha256').update('a').copy({ outputLength: 32 }).digest('hex'), hash('sha256', 'a'));
      const h = createHasher('sha256').update('a');
      throwsWith(() => createHasher('sha256', { outputLength: 16 }), Error, 'ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH');
      throwsWith(() => h.copy({ outputLength: 16 }), Error, 'ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH');
      throwsWith(() => h.digest({ outputLength: 31 }), Error, 'ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH');
      assert.strictEqual(h.digest({ outputLength: 32, outputEncoding: 'hex' }), hash('sha256', 'a'));
    });
  });

  describe('finalisation', function () {
    it('after digest(), update, digest and copy throw ERR_CRYPTO_HASH_FINALIZED, before any argument check', function () {
      for (const [alg, parts] of [['sha256', []], ['sha256', ['abc']], ['sha256', [Buffer.alloc(10)]],
        ['sha256', [Buffer.alloc(1000)]], ['sha3-256', [Buffer.alloc(1000)]], ['shake256', ['x']]]) {
        const h = createHasher(alg);
        for (const p of parts) h.update(p);
        h.digest('hex');
        for (const call of [() => h.update('x'), () => h.update(42), () => h.digest(), () => h.digest('nope'),
          () => h.copy(), () => h.copy(5)]) {
          throwsWith(call, Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
        }
        assert.strictEqual(h.algorithm, alg);
      }
    });
  });

  describe('argument errors', function () {
    it('algorithm and options: the shared rules', function () {
      throwsWith(() => createHasher(), TypeError, 'ERR_INVALID_ARG_TYPE');
      throwsWith(() => createHasher(256), TypeError, 'ERR_INVALID_ARG_TYPE');
      throwsWith(() => createHasher('sha257'), TypeError, 'ERR_CRYPTO_INVALID_DIGEST', 'Invalid digest: sha257');
      throwsWith(() => createHasher('sha256\u0000'), TypeError, 'ERR_CRYPTO_INVALID_DIGEST');
      throwsWith(() => createHasher('shake128', { outputLength: '5' }), TypeError, 'ERR_INVALID_ARG_TYPE');
      for (const bad of [-1, 1.5, NaN, 2 ** 53]) {
        throwsWith(() => createHasher('shake128', { outputLength: bad }), RangeError, 'ERR_OUT_OF_RANGE');
      }
      assert.strictEqual(createHasher('sha256', {}).update('a').digest('hex'), hash('sha256', 'a'));
    });

    // As createHash (Node's test-crypto-hash.js takes createHash('shake128', null)).
    it('options that are not an object are no options, for createHasher and copy()', function () {
      for (const none of [null, 'foo', 'hex', 5, false, true, () => ({ outputLength: 3 })]) {
        for (const alg of ['sha256', 'shake128']) {
          const want = crypto.createHash(alg, none).update('abc');
          const h = createHasher(alg, none).update('abc');
          const copy = h.copy(none);
          assert.deepStrictEqual(copy.digest(), want.copy(none).digest(), `copy(${String(none)})`);
          assert.deepStrictEqual(h.digest(), want.digest(), `${alg}, ${String(none)}`);
        }
      }
    });

    // A getter of digest()'s or copy()'s options that finishes the hasher:
    // digest() and copy() see it finished, as Hash#digest does.
    it('options whose getters finish the hasher: digest() and copy() throw ERR_CRYPTO_HASH_FINALIZED', function () {
      for (const parts of [['abc'], [Buffer.alloc(20, 1)], [Buffer.alloc(2 * STAGE + 88, 2)]]) {
        for (const alg of ['sha256', 'shake128']) {
          const d = createHasher(alg);
          for (const p of parts) d.update(p);
          throwsWith(() => d.digest({ get outputEncoding() { d.digest(); return 'hex'; } }),
            Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
          const c = createHasher(alg);
          for (const p of parts) c.update(p);
          throwsWith(() => c.copy({ get outputLength() { c.digest(); return alg === 'shake128' ? 8 : undefined; } }),
            Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
        }
        const k = createHmacKey('sha256', 'key').createHasher();
        for (const p of parts) k.update(p);
        throwsWith(() => k.digest({ get outputEncoding() { k.digest(); return 'hex'; } }),
          Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
      }
    });

    it('a refused update() changes nothing', function () {
      for (const staged of [[], ['abc'], [Buffer.alloc(20, 1)], [Buffer.alloc(2 * STAGE + 88, 2)]]) {
        const h = createHasher('sha256');
        const ref = crypto.createHash('sha256');
        for (const p of staged) { h.update(p); ref.update(p); }
        for (const bad of [42, null, undefined, {}, [1, 2], true, Symbol('s'), () => 1, new Proxy({}, {})]) {
          throwsWith(() => h.update(bad), TypeError, 'ERR_INVALID_ARG_TYPE');
        }
        throwsWith(() => h.update('abc', 'hex'), TypeError, 'ERR_INVALID_ARG_VALUE',
          "The argument 'encoding' is invalid for data of length 3. Received 'hex'");
        // Unlike Hash#update, which reads an unknown encoding as UTF-8, a
        // misspelt one is refused: it would hash other bytes silently.
        throwsWith(() => h.update('abc', 'utf9'), TypeError, 'ERR_INVALID_ARG_VALUE');
        throwsWith(() => h.update('abc', 5), TypeError, 'ERR_INVALID_ARG_TYPE');
        throwsWith(() => h.digest('nope'), TypeError, 'ERR_INVALID_ARG_VALUE');
        throwsWith(() => h.digest(5), TypeError, 'ERR_INVALID_ARG_TYPE');
        throwsWith(() => h.digest({ outputEncoding: 5 }), TypeError, 'ERR_INVALID_ARG_TYPE');
        h.update('z');
        ref.update('z');
        assert.strictEqual(h.digest('hex'), ref.digest('hex'), `after ${staged.length} parts`);
      }
    });

    it("reads a falsy or 'buffer' inputEncoding as UTF-8, and gives a Buffer for a falsy digest() argument, as Hash does", function () {
      for (const enc of [null, undefined, '', 0, false, 'buffer']) {
        for (const out of [undefined, null, '', 0, false, NaN]) {
          const h = createHasher('sha256').update('h\u00e9llo', enc);
          const ref = crypto.createHash('sha256').update('h\u00e9llo', enc);
          const got = h.digest(out);
          assert.ok(Buffer.isBuffer(got), `digest(${String(out)})`);
          assert.deepStrictEqual(got, ref.digest(out), `update(s, ${String(enc)}).digest(${String(out)})`);
        }
      }
    });

    it('methods on a foreign this throw ERR_INVALID_THIS; the class cannot be made directly', function () {
      const h = createHasher('sha256');
      const { update, digest, copy } = h;
      const getter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(h), 'algorithm').get;
      for (const self of [undefined, null, 1, 'x', {}, Object.create(Object.getPrototypeOf(h)), structuredClone(h)]) {
        throwsWith(() => update.call(self, 'a'), TypeError, 'ERR_INVALID_THIS');
        throwsWith(() => digest.call(self), TypeError, 'ERR_INVALID_THIS');
        throwsWith(() => copy.call(self), TypeError, 'ERR_INVALID_THIS');
        throwsWith(() => getter.call(self), TypeError, 'ERR_INVALID_THIS');
      }
      const Hasher = h.constructor;
      throwsWith(() => new Hasher(), TypeError, 'ERR_ILLEGAL_CONSTRUCTOR');
      assert.strictEqual(h.update('a').digest('hex'), hash('sha256', 'a'));
    });
  });

  it('a name that only case-folds to a cached one is refused: ERR_CRYPTO_INVALID_DIGEST', function () {
    // The Kelvin sign K (U+212A) lower-cases to 'k', the long s (U+017F)
    // upper-cases to 'S': no name OpenSSL or node:crypto knows, refused
    // after the name it folds to was used, as on a first call.
    const lookalikes = [['blake2b512', 'bla\u212Ae2b512'], ['shake128', 'sha\u212Ae128'], ['sha256', '\u017Fha256']]
      .filter(([, lookalike]) => refusedByRuntime(lookalike));
    for (const [name, lookalike] of lookalikes) {
      throwsWith(() => createHasher(lookalike), TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${lookalike}`);
      createHasher(name).update('d').digest();
      hash(name, 'd');
      throwsWith(() => createHasher(lookalike), TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${lookalike}`);
      throwsWith(() => createHasher(lookalike, { outputLength: 5 }), TypeError, 'ERR_CRYPTO_INVALID_DIGEST');
    }
  });
});
