'use strict';
const assert = require('assert');
const crypto = require('crypto');
const { hmacAsync, hmac } = require('..');
const { bytes, hmacAlgorithms, keyInputs, rejectsWith } = require('./common');


describe('hmacAsync()', function () {
  it('equals hmac() for every algorithm, key type and encoding', async function () {
    const jobs = [];
    for (const alg of hmacAlgorithms()) {
      for (const [label, key] of keyInputs(150)) {
        for (const enc of [undefined, 'base64', 'buffer', 'ascii']) {
          jobs.push(hmacAsync(alg, key, 'message', enc).then((got) => {
            assert.deepStrictEqual(got, hmac(alg, key, 'message', enc), `${alg} ${label} ${enc}`);
          }));
        }
      }
    }
    await Promise.all(jobs);
  });

  it('captures key and data when called', async function () {
    const key = bytes(40);
    const data = bytes(5000, 3);
    const want = hmac('sha256', key, data);
    const pending = hmacAsync('sha256', key, data);
    key.fill(0);
    data.fill(0);
    assert.strictEqual(await pending, want);
  });

  it('takes secret KeyObjects', async function () {
    const raw = bytes(32);
    assert.strictEqual(await hmacAsync('sha512', crypto.createSecretKey(raw), 'm'),
      crypto.createHmac('sha512', raw).update('m').digest('hex'));
  });

  it('rejects argument errors and XOFs', async function () {
    await rejectsWith(hmacAsync('shake128', 'k', 'm'), TypeError, 'ERR_CRYPTO_INVALID_DIGEST');
    await rejectsWith(hmacAsync('nope', 'k', 'm'), TypeError, 'ERR_CRYPTO_INVALID_DIGEST');
    await rejectsWith(hmacAsync('sha256', 1, 'm'), TypeError, 'ERR_INVALID_ARG_TYPE');
    await rejectsWith(hmacAsync('sha256', 'k', 1), TypeError, 'ERR_INVALID_ARG_TYPE');
    await rejectsWith(hmacAsync('sha256', crypto.generateKeyPairSync('ed25519').privateKey, 'm'),
      TypeError, 'ERR_CRYPTO_INVALID_KEY_OBJECT_TYPE');
    await rejectsWith(hmacAsync('sha256', 'k', 'm', 'nope'), TypeError, 'ERR_INVALID_ARG_VALUE');
  });
});
