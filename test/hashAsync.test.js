'use strict';
const assert = require('assert');
const crypto = require('crypto');
const { hashAsync, hash } = require('..');
const { bytes, binaryInputs, stringInputs, rejectsWith } = require('./common');


describe('hashAsync()', function () {
  it('equals hash() for every algorithm, input type and encoding', async function () {
    const jobs = [];
    for (const alg of crypto.getHashes()) {
      const inputs = [...binaryInputs(bytes(129, 5)), ...stringInputs(129)];
      for (const [label, data] of inputs) {
        for (const enc of [undefined, 'base64', 'buffer', 'latin1', 'utf16le']) {
          jobs.push(hashAsync(alg, data, enc).then((got) => {
            assert.deepStrictEqual(got, hash(alg, data, enc), `${alg} ${label} ${enc}`);
          }));
        }
      }
      jobs.push(hashAsync(alg, 'x', {}).then((got) => assert.strictEqual(got, hash(alg, 'x'))));
    }
    await Promise.all(jobs);
  });

  it('hashes inputs up to 4 KiB at once, larger ones (and the other views) on the pool, with the same results', async function () {
    const binding = require('../lib/binding');
    const { hmacAsync, hmac } = require('..');
    const original = { hashAsync: binding.hashAsync, hmacAsync: binding.hmacAsync };
    const jobs = [];
    const dataAt = { hashAsync: 2, hmacAsync: 3 };
    for (const name of Object.keys(original)) {
      binding[name] = (...args) => {
        const data = args[dataAt[name]];
        jobs.push(data.length ?? data.byteLength);
        return original[name](...args);
      };
    }
    try {
      const cases = [bytes(64), bytes(4096, 2), 'x'.repeat(1365), 'x'.repeat(1366), bytes(4097, 3), new DataView(new ArrayBuffer(64))];
      for (const data of cases) {
        const pending = hashAsync('sha256', data);
        const mac = hmacAsync('sha256', 'k', data, 'base64');
        assert.ok(pending instanceof Promise);
        assert.strictEqual(await pending, hash('sha256', data));
        assert.strictEqual(await mac, hmac('sha256', 'k', data, 'base64'));
      }
      assert.deepStrictEqual(jobs, [1366, 1366, 4097, 4097, 64, 64]);
    } finally {
      Object.assign(binding, original);
    }
  });

  it('XOF lengths, short and long', async function () {
    for (const outputLength of [0, 1, 32, 64, 65, 1000]) {
      const options = { outputLength, outputEncoding: 'hex' };
      assert.strictEqual(await hashAsync('shake128', 'x', options), hash('shake128', 'x', options));
      assert.deepStrictEqual(await hashAsync('shake256', 'x', { outputLength, outputEncoding: 'buffer' }),
        hash('shake256', 'x', { outputLength, outputEncoding: 'buffer' }));
    }
  });

  it('captures the input when called: later changes do not count', async function () {
    const data = bytes(1 << 20, 9);
    const want = hash('sha256', data);
    const pending = hashAsync('sha256', data);
    data.fill(0);
    const view = new Uint8Array(bytes(100));
    const wantView = hash('sha3-256', view);
    const pendingView = hashAsync('sha3-256', view.buffer);
    view.fill(1);
    assert.strictEqual(await pending, want);
    assert.strictEqual(await pendingView, wantView);
  });

  it('64 concurrent calls all resolve to the right digests', async function () {
    const inputs = Array.from({ length: 64 }, (_, i) => bytes(1000 + i * 100, i + 1));
    const results = await Promise.all(inputs.map((d, i) => hashAsync(i % 2 ? 'sha512' : 'blake2b512', d)));
    results.forEach((r, i) => assert.strictEqual(r, hash(i % 2 ? 'sha512' : 'blake2b512', inputs[i])));
  });

  // Long enough (a quarter second and more) that a loaded machine, which
  // can starve the main thread for a while, still shows the loop turning.
  it('a 256 MiB hash does not block the event loop', async function () {
    this.timeout(60000);
    const data = Buffer.alloc(256 << 20, 7);
    const want = crypto.createHash('sha256').update(data).digest('hex');
    let ticks = 0;
    const timer = setInterval(() => { ticks++; }, 1);
    const started = process.hrtime.bigint();
    const got = await hashAsync('sha256', data);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    clearInterval(timer);
    assert.strictEqual(got, want);
    // The interval ran while OpenSSL hashed on the pool (at least a few
    // times: the hash takes tens of milliseconds).
    assert.ok(ticks >= 3, `only ${ticks} ticks in ${ms.toFixed(1)} ms`);
  });

  describe('errors reject, they do not throw', function () {
    it('argument type and value errors', async function () {
      await rejectsWith(hashAsync(1, 'x'), TypeError, 'ERR_INVALID_ARG_TYPE');
      await rejectsWith(hashAsync('nope', 'x'), TypeError, 'ERR_CRYPTO_INVALID_DIGEST');
      await rejectsWith(hashAsync('sha256', 1), TypeError, 'ERR_INVALID_ARG_TYPE');
      await rejectsWith(hashAsync('sha256', null), TypeError, 'ERR_INVALID_ARG_TYPE');
      await rejectsWith(hashAsync('sha256', 'x', 'nope'), TypeError, 'ERR_INVALID_ARG_VALUE');
      await rejectsWith(hashAsync('sha256', 'x', { outputLength: 5 }), Error, 'ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH');
      await rejectsWith(hashAsync('shake128', 'x', { outputLength: -1 }), RangeError, 'ERR_OUT_OF_RANGE');
    });

    it('a getter that throws rejects with its own error', async function () {
      const boom = new Error('boom');
      await assert.rejects(hashAsync('sha256', 'x', { get outputEncoding() { throw boom; } }), (err) => err === boom);
    });
  });

  // With every thread of the pool busy, the job surely runs after the
  // caller's change: only a copy made at the call gives the right digest.
  it('captures the input when called, even when the job runs much later (pool held busy)', async function () {
    this.timeout(120000);
    const { hmacAsync, hmac } = require('..');
    const big = bytes(64 << 20, 3);
    const busy = Array.from({ length: 8 }, () => hashAsync('sha512', big));
    const data = bytes(4096, 5);
    const key = bytes(64, 6);
    const want = hash('sha256', data);
    const wantMac = hmac('sha256', key, data);
    const pending = hashAsync('sha256', data);
    const pendingMac = hmacAsync('sha256', key, data);
    data.fill(0);
    key.fill(0);
    assert.strictEqual(await pending, want);
    assert.strictEqual(await pendingMac, wantMac);
    await Promise.all(busy);
  });
});
