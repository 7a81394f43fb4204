'use strict';
const assert = require('assert');
const crypto = require('crypto');
const { hashMany, hash } = require('..');
const { throwsWith, bytes, binaryInputs, stringInputs } = require('./common');

// Every accepted input type, mixed in one array.
function mixedInputs() {
  const inputs = [];
  for (const size of [0, 1, 63, 64, 65, 200, 5000]) {
    for (const [, value] of binaryInputs(bytes(size, size))) inputs.push(value);
    for (const [, value] of stringInputs(size)) inputs.push(value);
  }
  return inputs;
}

describe('hashMany()', function () {
  it('equals inputs.map(hash) over mixed types, for every algorithm and encoding', function () {
    const inputs = mixedInputs();
    for (const alg of crypto.getHashes()) {
      for (const enc of [undefined, 'hex', 'base64', 'latin1', 'buffer', 'utf8', 'ucs2']) {
        const got = hashMany(alg, inputs, enc);
        assert.strictEqual(got.length, inputs.length);
        assert.deepStrictEqual(got, inputs.map((x) => hash(alg, x, enc)), `${alg} ${enc}`);
      }
    }
  });

  it('takes the options object, XOF lengths included (long ones too)', function () {
    const inputs = ['a', Buffer.from('b'), new ArrayBuffer(3)];
    for (const outputLength of [0, 16, 64, 65, 300]) {
      for (const outputEncoding of ['hex', 'buffer', 'base64url']) {
        const options = { outputLength, outputEncoding };
        assert.deepStrictEqual(hashMany('shake256', inputs, options),
          inputs.map((x) => hash('shake256', x, options)), `${outputLength} ${outputEncoding}`);
      }
    }
    assert.deepStrictEqual(hashMany('sha256', inputs, { outputLength: 32 }), inputs.map((x) => hash('sha256', x)));
  });

  it('gives separate results that match node:crypto', function () {
    const inputs = Array.from({ length: 1000 }, (_, i) => bytes(64, i + 1));
    const got = hashMany('sha256', inputs, 'buffer');
    for (let i = 0; i < inputs.length; i++) {
      assert.deepStrictEqual(got[i], crypto.createHash('sha256').update(inputs[i]).digest());
    }
    assert.deepStrictEqual(hashMany('md5', []), []);
    assert.deepStrictEqual(hashMany('md5', [], 'buffer'), []);
  });

  describe('errors', function () {
    it('a bad element throws ERR_INVALID_ARG_TYPE naming its index', function () {
      throwsWith(() => hashMany('sha256', [1, 'a']), TypeError, 'ERR_INVALID_ARG_TYPE', /"inputs\[0\]" argument/);
      throwsWith(() => hashMany('sha256', ['a', 'b', 'c', null, 'e']), TypeError, 'ERR_INVALID_ARG_TYPE',
        /"inputs\[3\]" argument .* Received null/);
      throwsWith(() => hashMany('sha256', ['a', {}]), TypeError, 'ERR_INVALID_ARG_TYPE', /"inputs\[1\]"/);
      // eslint-disable-next-line no-sparse-arrays
      throwsWith(() => hashMany('sha256', ['a', , 'c']), TypeError, 'ERR_INVALID_ARG_TYPE', /"inputs\[1\]".*undefined/);
    });

    it('inputs that are not an array: ERR_INVALID_ARG_TYPE', function () {
      for (const inputs of ['abc', Buffer.from('a'), { length: 1, 0: 'a' }, null, undefined, new Set(['a'])]) {
        throwsWith(() => hashMany('sha256', inputs), TypeError, 'ERR_INVALID_ARG_TYPE', /"inputs" argument/);
      }
    });

    it('algorithm, encoding and length errors as hash() has them', function () {
      throwsWith(() => hashMany(1, []), TypeError, 'ERR_INVALID_ARG_TYPE', /"algorithm"/);
      throwsWith(() => hashMany('nope', ['a']), TypeError, 'ERR_CRYPTO_INVALID_DIGEST', 'Invalid digest: nope');
      throwsWith(() => hashMany('sha256', ['a'], 'nope'), TypeError, 'ERR_INVALID_ARG_VALUE');
      throwsWith(() => hashMany('sha256', ['a'], { outputLength: 5 }), Error, 'ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH');
      throwsWith(() => hashMany('sha256', ['a'], { outputLength: -1 }), RangeError, 'ERR_OUT_OF_RANGE');
      assert.strictEqual(hashMany('sha256', ['abc'])[0], hash('sha256', 'abc'));
    });
  });

  // A Proxy's length is read once and normalised as Array.prototype.map
  // reads it; what no array length can be throws a coded error.
  it('reads inputs.length once, as Array.prototype.map does; odd lengths never leak or throw uncoded', function () {
    const withLength = (length) => new Proxy(['a', 'b'], { get: (t, k) => (k === 'length' ? length : t[k]) });
    const digests = (n) => ['a', 'b'].slice(0, n).map((x) => hash('md5', x));
    for (const [length, n] of [['x', 0], [{}, 0], [null, 0], [undefined, 0], [-1, 0], [NaN, 0],
      [1.5, 1], ['2', 2], [true, 1], [0.5, 0]]) {
      assert.deepStrictEqual(hashMany('md5', withLength(length)), digests(n), String(length));
    }
    throwsWith(() => hashMany('md5', withLength(Symbol('s'))), TypeError, 'ERR_INVALID_ARG_TYPE');
    throwsWith(() => hashMany('md5', withLength(2 ** 32)), RangeError, 'ERR_OUT_OF_RANGE');
    throwsWith(() => hashMany('md5', withLength(Infinity)), RangeError, 'ERR_OUT_OF_RANGE');
    const { proxy, revoke } = Proxy.revocable(['a'], {
      get(t, k) { if (k === 'length') revoke(); return t[k]; },
    });
    throwsWith(() => hashMany('md5', proxy), TypeError, 'ERR_INVALID_ARG_TYPE');
  });
});
