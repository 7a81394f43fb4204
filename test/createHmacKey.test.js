'use strict';
const assert = require('assert');
const crypto = require('crypto');
const path = require('path');
const { spawnSync } = require('child_process');
const { createHmacKey, hmac } = require('..');
const binding = require('../lib/binding');
const { throwsWith, bytes, hmacAlgorithms, keyInputs, runtimeHmacs } = require('./common');

const ALGORITHMS = hmacAlgorithms();
const expected = (alg, key, data, enc = 'hex') =>
  crypto.createHmac(alg, key).update(data).digest(enc.toLowerCase()); // Deno's takes lower case only

describe('createHmacKey()', function () {
  describe('digest()', function () {
    it('equals createHmac for every algorithm, key length and message size, many times over', function () {
      for (const alg of ALGORITHMS) {
        const block = binding.resolve(alg).block;
        for (const keyLen of [0, 1, block - 1, block, block + 1, 1000]) {
          const raw = bytes(keyLen, keyLen);
          const key = createHmacKey(alg, raw);
          for (const size of [0, 1, 55, 56, 64, 65, 128, 129, 1000]) {
            const data = bytes(size, size);
            const want = expected(alg, raw, data);
            // The keyed states are copied, not used up: every call agrees.
            assert.strictEqual(key.digest(data), want, `${alg} key ${keyLen} data ${size}`);
            assert.strictEqual(key.digest(data), want, `${alg} again`);
          }
        }
      }
    });

    it('takes every key type and gives every output encoding', function () {
      for (const [label, key, source] of keyInputs(40)) {
        const k = createHmacKey('sha256', key);
        for (const enc of ['hex', 'base64', 'base64url', 'latin1', 'buffer', 'utf8', 'ucs2', 'ascii', 'BUFFER']) {
          assert.deepStrictEqual(k.digest('msg', enc), expected('sha256', source, 'msg', enc), `${label} ${enc}`);
          assert.deepStrictEqual(k.digest('msg', { outputEncoding: enc }), expected('sha256', source, 'msg', enc));
        }
        assert.strictEqual(k.digest(new ArrayBuffer(3)), expected('sha256', source, Buffer.alloc(3)));
        const view = () => new DataView(new Uint8Array(bytes(9)).buffer, 2, 5); // not the shared pool's bytes
        assert.strictEqual(k.digest(view()), hmac('sha256', key, view()));
      }
    });

    it('keys interleaved across algorithms stay apart', function () {
      const keys = ALGORITHMS.map((alg) => [alg, createHmacKey(alg, `key for ${alg}`)]);
      for (let round = 0; round < 3; round++) {
        for (const [alg, key] of keys) {
          assert.strictEqual(key.digest(`m${round}`), expected(alg, `key for ${alg}`, `m${round}`), alg);
        }
      }
    });
  });

  describe('algorithm', function () {
    it('is the name as given, lower-cased', function () {
      assert.strictEqual(createHmacKey('SHA256', 'k').algorithm, 'sha256');
      if (runtimeHmacs('RSA-SHA512')) { // Deno's HMAC has no RSA-* names
        assert.strictEqual(createHmacKey('RSA-SHA512', 'k').algorithm, 'rsa-sha512');
      }
      assert.strictEqual(createHmacKey('sha3-256', 'k').algorithm, 'sha3-256');
    });
  });

  describe('verify()', function () {
    const key = createHmacKey('sha512', 'secret');
    const mac = expected('sha512', 'secret', 'data', 'buffer');

    it('is true for the MAC as bytes or as a string in its encoding', function () {
      assert.strictEqual(key.verify('data', mac), true);
      assert.strictEqual(key.verify('data', mac.toString('hex')), true);
      assert.strictEqual(key.verify('data', mac.toString('hex').toUpperCase()), true);
      for (const enc of ['hex', 'base64', 'base64url', 'latin1']) {
        assert.strictEqual(key.verify('data', mac.toString(enc), enc), true, enc);
      }
      assert.strictEqual(key.verify('data', new Uint8Array(mac)), true);
      assert.strictEqual(key.verify('data', new DataView(mac.buffer, mac.byteOffset, mac.length)), true);
      assert.strictEqual(key.verify('data', Uint8Array.from(mac).buffer), true);
    });

    it('is false for a flipped bit, a wrong length or an undecodable string', function () {
      const flipped = (i) => {
        const m = Buffer.from(mac);
        m[i] ^= 1;
        return m;
      };
      assert.strictEqual(key.verify('data', flipped(0)), false);
      assert.strictEqual(key.verify('data', flipped(mac.length - 1)), false);
      assert.strictEqual(key.verify('data', mac.subarray(0, 32)), false);
      assert.strictEqual(key.verify('data', Buffer.concat([mac, Buffer.alloc(1)])), false);
      assert.strictEqual(key.verify('data', Buffer.alloc(0)), false);
      assert.strictEqual(key.verify('data', 'not hex at all'), false);
      assert.strictEqual(key.verify('data', mac.toString('hex').slice(1)), false);
      assert.strictEqual(key.verify('other', mac), false);
    });
  });

  describe('destroy()', function () {
    it('wipes the key: later digest() and verify() throw ERR_INVALID_STATE; destroy() again does nothing', function () {
      const key = createHmacKey('sha256', 'k');
      const other = createHmacKey('sha256', 'k');
      const mac = key.digest('m');
      key.destroy();
      throwsWith(() => key.digest('m'), Error, 'ERR_INVALID_STATE', /destroyed/);
      throwsWith(() => key.digest('m', 'buffer'), Error, 'ERR_INVALID_STATE');
      throwsWith(() => key.verify('m', mac), Error, 'ERR_INVALID_STATE');
      throwsWith(() => key.verify('m', 'zz'), Error, 'ERR_INVALID_STATE');
      key.destroy();
      assert.strictEqual(other.digest('m'), mac);
      assert.strictEqual(key.algorithm, 'sha256');
    });

    it('works for EVP-path digests too', function () {
      const key = createHmacKey('sha3-512', 'k');
      assert.strictEqual(key.digest('m'), expected('sha3-512', 'k', 'm'));
      key.destroy();
      throwsWith(() => key.digest('m'), Error, 'ERR_INVALID_STATE');
    });
  });

  describe('errors', function () {
    it('XOF, unknown and non-string algorithms', function () {
      throwsWith(() => createHmacKey('shake256', 'k'), TypeError, 'ERR_CRYPTO_INVALID_DIGEST');
      throwsWith(() => createHmacKey('nope', 'k'), TypeError, 'ERR_CRYPTO_INVALID_DIGEST', 'Invalid digest: nope');
      throwsWith(() => createHmacKey(5, 'k'), TypeError, 'ERR_INVALID_ARG_TYPE');
    });

    it('bad keys, data, encodings and MACs', function () {
      throwsWith(() => createHmacKey('sha256', 5), TypeError, 'ERR_INVALID_ARG_TYPE', /"key"/);
      throwsWith(() => createHmacKey('sha256', crypto.generateKeyPairSync('ed25519').publicKey),
        TypeError, 'ERR_CRYPTO_INVALID_KEY_OBJECT_TYPE');
      const key = createHmacKey('sha256', 'k');
      throwsWith(() => key.digest(5), TypeError, 'ERR_INVALID_ARG_TYPE', /"data"/);
      throwsWith(() => key.digest('m', 'nope'), TypeError, 'ERR_INVALID_ARG_VALUE');
      throwsWith(() => key.verify('m', 5), TypeError, 'ERR_INVALID_ARG_TYPE', /"mac"/);
      throwsWith(() => key.verify('m', 'aa', 'nope'), TypeError, 'ERR_INVALID_ARG_VALUE');
      throwsWith(() => key.verify('m', 'aa', 'buffer'), TypeError, 'ERR_INVALID_ARG_VALUE');
    });

    it('cannot be constructed or called on something else', function () {
      const key = createHmacKey('sha256', 'k');
      const HmacKey = Object.getPrototypeOf(key).constructor;
      throwsWith(() => new HmacKey(), TypeError, 'ERR_ILLEGAL_CONSTRUCTOR');
      throwsWith(() => HmacKey.prototype.digest.call({}, 'm'), TypeError, 'ERR_INVALID_THIS');
      throwsWith(() => HmacKey.prototype.destroy.call(Object.create(HmacKey.prototype)), TypeError, 'ERR_INVALID_THIS');
      throwsWith(() => binding.hmacKeyDigest({}, 0, 'm'), TypeError, 'ERR_INVALID_ARG_TYPE');
    });
  });

  describe('garbage collection', function () {
    it('keys dropped without destroy() are finalized: native memory stays flat', function () {
      this.timeout(120000);
      const script = path.join(__dirname, 'fixtures', 'hmac-key-gc.js');
      const res = spawnSync(process.execPath, ['--expose-gc', script], { encoding: 'utf8' });
      assert.strictEqual(res.status, 0, res.stdout + res.stderr);
      const { growthMiB, keys } = JSON.parse(res.stdout);
      assert.ok(keys >= 1e6, `made ${keys} keys`);
      // 1e6 leaked keys would hold about 500 MiB of keyed states; collected
      // ones leave V8's own growth (under 64 MiB on Node 20, 77 seen on 26).
      assert.ok(growthMiB < 128, `RSS grew ${growthMiB} MiB over ${keys} dropped keys`);
    });
  });

  it("digest(data, 'buffer') is not in the shared Buffer pool", function () {
    const key = createHmacKey('sha512', 'k');
    assert.strictEqual(key.digest('m', 'buffer').buffer.byteLength, 64);
    assert.strictEqual(key.digest('m', { outputEncoding: 'buffer' }).buffer.byteLength, 64);
  });
});
