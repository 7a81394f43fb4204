'use strict';
// A view over a detached ArrayBuffer (its buffer transferred away) is empty
// input, as node:crypto hashes it, on every function that takes data or a
// key, on either implementation and every runtime (Deno's crypto throws an
// uncoded TypeError for one; lib/binding/js/ reads it as no bytes).
const assert = require('assert');
const crypto = require('crypto');
const { hash, hmac, hashMany, createHmacKey, createHasher, verifyHmac } = require('..');

// One view of each kind over a buffer that is then detached.
function detachedViews() {
  const views = [new Uint8Array(16), new Float64Array(4), new DataView(new ArrayBuffer(12)), Buffer.alloc(40)];
  for (const v of views) structuredClone(v.buffer, { transfer: [v.buffer] });
  return views;
}

const EMPTY = Buffer.alloc(0);
const name = (v) => Object.prototype.toString.call(v).slice(8, -1);

describe('views over a detached ArrayBuffer', function () {
  it('hash, hashMany and createHasher hash them as empty input', function () {
    for (const v of detachedViews()) {
      const want = crypto.createHash('sha256').update(EMPTY).digest('hex');
      assert.strictEqual(hash('sha256', v), want, name(v));
      assert.strictEqual(hash('sha3-256', v), crypto.createHash('sha3-256').update(EMPTY).digest('hex'), name(v));
      assert.deepStrictEqual(hashMany('sha256', [v, 'abc', v]),
        [want, crypto.createHash('sha256').update('abc').digest('hex'), want], name(v));
      assert.strictEqual(createHasher('sha256').update(v).update('x').digest('hex'),
        crypto.createHash('sha256').update('x').digest('hex'), name(v));
    }
  });

  it('hmac, HmacKey and verifyHmac take them as an empty key or message', function () {
    for (const v of detachedViews()) {
      const emptyKey = crypto.createHmac('sha256', EMPTY).update('m').digest('hex');
      assert.strictEqual(hmac('sha256', v, 'm'), emptyKey, `key ${name(v)}`);
      assert.strictEqual(hmac('sha256', 'k', v), crypto.createHmac('sha256', 'k').update(EMPTY).digest('hex'), `data ${name(v)}`);
      assert.strictEqual(createHmacKey('sha256', v).digest('m'), emptyKey, `HmacKey of ${name(v)}`);
      assert.strictEqual(verifyHmac('sha256', v, 'm', emptyKey), true, `verifyHmac key ${name(v)}`);
    }
  });
});
