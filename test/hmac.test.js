'use strict';
const assert = require('assert');
const crypto = require('crypto');
const { hmac, hash, createHmacKey, hmacAsync, hmacStream } = require('..');
const binding = require('../lib/binding');
const {
  sweep, throwsWith, bytes, binaryInputs, stringInputs, hmacAlgorithms, keyInputs, opensslErrorProbe,
  itNative, runtimeHmacs, refusedByRuntime, sharedPool, freshSharedPool,
} = require('./common');

const ALGORITHMS = hmacAlgorithms();
// Around the blocks, the 256-byte short-tail limit of the C side, and long.
const SIZES = [0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 255, 256, 257, 1000];
const ENCODINGS = [undefined, 'hex', 'base64', 'base64url', 'latin1', 'binary', 'buffer',
  'utf8', 'ucs2', 'utf16le', 'ascii', 'HEX', 'BUFFER'];

function expected(alg, key, data, enc) {
  // Deno's digest() takes encodings in lower case only.
  return crypto.createHmac(alg, key).update(data).digest(enc === undefined ? 'hex' : enc.toLowerCase());
}

// Key lengths around the block size: RFC 2104 pads short keys and hashes
// long ones.
const keyLengths = (alg) => {
  const block = binding.resolve(alg).block;
  return [0, 1, block - 1, block, block + 1, 1000];
};

describe('hmac()', function () {
  describe('known-answer vectors', function () {
    const fixture = require('./fixtures/hmac-vectors.json');
    const decode = (spec) => {
      if (spec.utf8 !== undefined) return Buffer.from(spec.utf8, 'utf8');
      if (spec.hex !== undefined) return Buffer.from(spec.hex, 'hex');
      return Buffer.from(spec.hexRepeat.repeat(spec.count), 'hex');
    };
    for (const v of fixture.vectors) {
      it(`${v.algorithm}: ${v.note} (${v.source})`, function () {
        assert.ok(fixture.sources[v.source], `source ${v.source} is named`);
        const mac = hmac(v.algorithm, decode(v.key), decode(v.data));
        assert.strictEqual(mac, v.hex);
        if (v.truncatedHex) assert.strictEqual(mac.slice(0, v.truncatedHex.length), v.truncatedHex);
      });
    }
  });

  describe('matches createHmac', function () {
    for (const alg of ALGORITHMS) {
      it(`${alg}: key lengths around the block x message sizes around it`, function () {
        const cases = [];
        for (const keyLen of keyLengths(alg)) {
          const key = bytes(keyLen, keyLen + 11);
          for (const size of SIZES) {
            const data = bytes(size, size + 5);
            cases.push([`${alg} key ${keyLen} data ${size}`, () => hmac(alg, key, data), expected(alg, key, data)]);
          }
        }
        sweep(cases);
      });
    }

    it('every key type, at every key length, for every algorithm', function () {
      const cases = [];
      for (const alg of ALGORITHMS) {
        for (const keyLen of keyLengths(alg)) {
          for (const [label, key, source] of keyInputs(keyLen)) {
            cases.push([`${alg} ${label} key ${keyLen}`, () => hmac(alg, key, 'message'),
              expected(alg, source, 'message')]);
          }
        }
      }
      sweep(cases);
    });

    it('every data type and encoding, for every algorithm', function () {
      const cases = [];
      const key = bytes(20);
      for (const alg of ALGORITHMS) {
        for (const size of [0, 63, 64, 129]) {
          const buf = bytes(size, 3);
          const inputs = [...binaryInputs(buf).map(([l, v]) => [l, v, buf]),
            ...stringInputs(size).map(([l, v]) => [l, v, v])];
          for (const enc of ENCODINGS) {
            for (const [label, data, source] of inputs) {
              cases.push([`${alg} ${label} ${size} ${enc}`, () => hmac(alg, key, data, enc),
                expected(alg, key, source, enc)]);
            }
            cases.push([`${alg} {outputEncoding: ${enc}}`, () => hmac(alg, key, buf, { outputEncoding: enc }),
              expected(alg, key, buf, enc)]);
          }
        }
      }
      sweep(cases);
    });

    it('a 1 MiB message and a 1 MiB key', function () {
      const big = bytes(1 << 20);
      for (const alg of ['sha256', 'sha512', 'sha3-256', 'md5', 'blake2b512'].filter(runtimeHmacs)) {
        assert.strictEqual(hmac(alg, 'k', big), expected(alg, 'k', big), alg);
        assert.strictEqual(hmac(alg, big, 'm'), expected(alg, big, 'm'), alg);
      }
    });

    it('secret KeyObjects and CryptoKeys as keys', async function () {
      const raw = bytes(48);
      const keyObject = crypto.createSecretKey(raw);
      const cryptoKey = await crypto.webcrypto.subtle.importKey('raw', raw,
        { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      for (const alg of ALGORITHMS) {
        assert.strictEqual(hmac(alg, keyObject, 'm'), expected(alg, raw, 'm'), alg);
        assert.strictEqual(hmac(alg, cryptoKey, 'm'), expected(alg, raw, 'm'), alg);
      }
    });

    it('ignores outputLength, as createHmac does', function () {
      for (const outputLength of [5, -1, 'x', 1e9]) {
        assert.strictEqual(hmac('sha256', 'k', 'm', { outputLength }), expected('sha256', 'k', 'm'));
      }
    });

    it('leaves the caller\'s key and data bytes as they were', function () {
      const key = bytes(100);
      const data = bytes(100, 9);
      const keyCopy = Buffer.from(key);
      const dataCopy = Buffer.from(data);
      hmac('sha256', key, data);
      hmac('sha3-256', key.buffer.slice(key.byteOffset, key.byteOffset + 100), data);
      assert.deepStrictEqual(key, keyCopy);
      assert.deepStrictEqual(data, dataCopy);
    });
  });

  describe('errors', function () {
    it('XOF digests are refused: TypeError ERR_CRYPTO_INVALID_DIGEST', function () {
      for (const alg of ['shake128', 'shake256', 'SHAKE128']) {
        throwsWith(() => hmac(alg, 'k', 'm'), TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${alg}`);
        assert.throws(() => crypto.createHmac(alg, 'k').update('m').digest());
      }
      // and hash() still takes them after hmac() refused them
      assert.strictEqual(hash('shake128', 'm'), crypto.createHash('shake128').update('m').digest('hex'));
    });

    it('unknown digest: TypeError ERR_CRYPTO_INVALID_DIGEST', function () {
      for (const alg of ['nope', '', 'sha256\0x', 'md4'].filter((a) => a.includes('\0') || !runtimeHmacs(a))) {
        throwsWith(() => hmac(alg, 'k', 'm'), TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${alg}`);
      }
    });

    it('algorithm not a string: TypeError ERR_INVALID_ARG_TYPE', function () {
      for (const alg of [1, null, undefined, {}, Symbol('s')]) {
        throwsWith(() => hmac(alg, 'k', 'm'), TypeError, 'ERR_INVALID_ARG_TYPE', /"algorithm"/);
      }
    });

    it('key of a wrong type: TypeError ERR_INVALID_ARG_TYPE', function () {
      for (const key of [1, null, undefined, {}, [1], true, Symbol('s'), 1n, () => {}]) {
        throwsWith(() => hmac('sha256', key, 'm'), TypeError, 'ERR_INVALID_ARG_TYPE', /"key" argument/);
      }
    });

    it('a public or private KeyObject: TypeError ERR_CRYPTO_INVALID_KEY_OBJECT_TYPE', function () {
      const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
      throwsWith(() => hmac('sha256', privateKey, 'm'), TypeError, 'ERR_CRYPTO_INVALID_KEY_OBJECT_TYPE',
        'Invalid key object type private, expected secret.');
      throwsWith(() => hmac('sha256', publicKey, 'm'), TypeError, 'ERR_CRYPTO_INVALID_KEY_OBJECT_TYPE');
    });

    it('data of a wrong type: TypeError ERR_INVALID_ARG_TYPE', function () {
      for (const data of [1, null, undefined, {}, [1], Symbol('s')]) {
        throwsWith(() => hmac('sha256', 'k', data), TypeError, 'ERR_INVALID_ARG_TYPE', /"data" argument/);
      }
    });

    it("'' as the output encoding gives a Buffer, as createHmac's digest('') does", async function () {
      const ref = crypto.createHmac('sha256', 'k').update('m').digest('');
      assert.ok(Buffer.isBuffer(ref));
      assert.deepStrictEqual(hmac('sha256', 'k', 'm', ''), ref);
      assert.deepStrictEqual(createHmacKey('sha256', 'k').digest('m', ''), ref);
      assert.deepStrictEqual(await hmacAsync('sha256', 'k', 'm', ''), ref);
      assert.deepStrictEqual(await hmacStream('sha256', 'k', ['m'], ''), ref);
    });

    it('bad output encodings: ERR_INVALID_ARG_VALUE / ERR_INVALID_ARG_TYPE', function () {
      throwsWith(() => hmac('sha256', 'k', 'm', 'nope'), TypeError, 'ERR_INVALID_ARG_VALUE');
      throwsWith(() => hmac('sha256', 'k', 'm', { outputEncoding: 'nope' }), TypeError, 'ERR_INVALID_ARG_VALUE');
      throwsWith(() => hmac('sha256', 'k', 'm', 5), TypeError, 'ERR_INVALID_ARG_TYPE');
      throwsWith(() => hmac('sha256', 'k', 'm', null), TypeError, 'ERR_INVALID_ARG_TYPE');
    });

    itNative('leave the addon working and OpenSSL\'s error queue as it was', function () {
      const before = opensslErrorProbe();
      for (const alg of ['nope', 'shake128', 'md4']) {
        assert.throws(() => hmac(alg, 'k', 'm'));
        assert.strictEqual(hmac('sha256', 'k', 'm'), expected('sha256', 'k', 'm'));
      }
      assert.strictEqual(opensslErrorProbe(), before);
    });
  });

  // A MAC is a secret: it gets its own memory, not a slice of the shared
  // 8 KiB pool that every pooled Buffer's .buffer reaches.
  it("'buffer' output is not in the shared Buffer pool", function () {
    const mac = hmac('sha256', 'key', 'data', 'buffer');
    assert.strictEqual(mac.buffer.byteLength, 32);
    assert.strictEqual(hmac('md5', 'key', 'data', { outputEncoding: 'buffer' }).buffer.byteLength, 16);
  });

  it('a refused name is refused on every call, not only the first (the name cache)', function () {
    for (const name of ['shake128', 'SHAKE256', 'nope']) {
      for (let i = 0; i < 3; i++) {
        throwsWith(() => hmac(name, 'k', 'x'), TypeError, 'ERR_CRYPTO_INVALID_DIGEST');
      }
    }
    hash('shake128', 'x', { outputLength: 4 });
    throwsWith(() => hmac('shake128', 'k', 'x'), TypeError, 'ERR_CRYPTO_INVALID_DIGEST');
    throwsWith(() => hmac('shake128', 'k', 'x'), TypeError, 'ERR_CRYPTO_INVALID_DIGEST');
    hmac('sha256', 'k', 'x');
    throwsWith(() => hmac('shake128', 'k', 'x'), TypeError, 'ERR_CRYPTO_INVALID_DIGEST');
  });

  // A proxy of a KeyObject that never trips its trap works as the key;
  // otherwise the error is coded.
  it('a key look-alike that revokes itself on any trap: ERR_INVALID_ARG_TYPE or the MAC, never uncoded', function () {
    const { createSecretKey } = require('crypto');
    const want = hmac('sha256', 'k', 'x');
    for (const target of [{}, Buffer.from('k'), createSecretKey(Buffer.from('k'))]) {
      for (const trap of ['get', 'getPrototypeOf', 'has', 'ownKeys', 'getOwnPropertyDescriptor']) {
        const r = Proxy.revocable(target, { [trap](...a) { r.revoke(); return Reflect[trap](...a); } });
        try {
          assert.strictEqual(hmac('sha256', r.proxy, 'x'), want, trap);
        } catch (err) {
          assert.strictEqual(err.code, 'ERR_INVALID_ARG_TYPE', `${trap}: ${err.message}`);
        }
      }
    }
  });

  // A name that only case-folds to one already used (the Kelvin sign K,
  // U+212A, lower-cases to 'k'; the long s, U+017F, and the dotless i,
  // U+0131, upper-case to 'S' and 'I') is no name OpenSSL or node:crypto
  // knows: it is refused after the name it folds to was used, as on a
  // first call, whatever the name caches hold.
  const LOOKALIKES = [['blake2b512', 'bla\u212Ae2b512'], ['sha256', '\u017Fha256'], ['ripemd160', 'r\u0131pemd160']]
    .filter(([name, lookalike]) => require('crypto').getHashes().includes(name) && refusedByRuntime(lookalike));

  it('a name that only case-folds to a cached one is refused: ERR_CRYPTO_INVALID_DIGEST', async function () {
    const { hmacAsync, verifyHmac, createHmacKey, hmacStream } = require('..');
    const calls = [
      ['hmac', (alg) => hmac(alg, 'k', 'd')],
      ['hmac, options', (alg) => hmac(alg, 'k', 'd', 'base64')],
      ['hmac, a Buffer key', (alg) => hmac(alg, Buffer.from('k'), 'd', 'buffer')],
      ['verifyHmac', (alg) => verifyHmac(alg, 'k', 'd', '00')],
      ['createHmacKey', (alg) => createHmacKey(alg, 'k').digest('d')],
    ];
    if (LOOKALIKES.length === 0) this.skip(); // the runtime takes every lookalike (Deno)
    for (const [name, lookalike] of LOOKALIKES) {
      for (const [, call] of calls) {
        throwsWith(() => call(lookalike), TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${lookalike}`);
        for (const [, prime] of calls) {
          prime(name);
          throwsWith(() => call(lookalike), TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${lookalike}`);
        }
      }
      hmac(name, 'k', 'd');
      for (const job of [() => hmacAsync(lookalike, 'k', 'd'), () => hmacStream(lookalike, 'k', ['d'])]) {
        await assert.rejects(job(), { name: 'TypeError', code: 'ERR_CRYPTO_INVALID_DIGEST' });
      }
    }
  });

  // Buffer.from() of a short string is a slice of Buffer's shared pool,
  // which any pooled Buffer's .buffer reaches: a string key must not be
  // encoded there. The pool is made fresh first and zeroed (a new pool is
  // uninitialised memory, which may hold what freed memory held), so that
  // the call's own allocations land in the one scanned after it; the key
  // bytes looked for are made outside the pool.
  it("a string key's bytes are not left in Buffer's shared pool", function () {
    const { verifyHmac } = require('..');
    const key = 'a string key that must stay out of the pool';
    const bytes = new TextEncoder().encode(key);
    const calls = [
      ['hmac', () => hmac('sha256', key, 'm')],
      ['hmac again (the cached name)', () => hmac('sha256', key, 'm')],
      ['hmac, buffer', () => hmac('sha512', key, 'm', 'buffer')],
      ['verifyHmac', () => verifyHmac('sha256', key, 'm', '00')],
    ];
    for (const [what, call] of calls) {
      freshSharedPool();
      call();
      assert.strictEqual(sharedPool().indexOf(bytes), -1, what);
    }
  });
});
