'use strict';
// Wiping in the JavaScript implementation (lib/binding/js/): every copy of key
// material it makes, and every MAC it turns into text, is zeroed before it
// is let go. node:crypto's own objects (KeyObject, Hash, Hmac) cannot be
// wiped from JavaScript; what lib/binding/js/ makes itself can. The copies are
// caught by wrapping the node:crypto functions it hands them to, and each
// must be all zeros once the call has returned.
const assert = require('assert');
const crypto = require('crypto');
const path = require('path');
const { spawnSync } = require('child_process');
const js = require('../lib/binding/js');
const { sharedPool, freshSharedPool } = require('./common');

const zero = (buf) => buf.every((b) => b === 0);

// Runs fn with node:crypto's `name` wrapped: `spy(result, args)` sees each
// call. Restores it whatever happens.
function watching(name, spy, fn) {
  const original = crypto[name];
  crypto[name] = function (...args) {
    const result = original.apply(this, args);
    spy(result, args);
    return result;
  };
  try {
    return fn();
  } finally {
    crypto[name] = original;
  }
}

// Wraps a Hash's update() and digest() so that the Buffers given to it and
// made by it are seen.
function watchHash(h, seen) {
  const update = h.update;
  const digest = h.digest;
  h.update = function (data, ...rest) {
    if (Buffer.isBuffer(data)) seen.push(['update', data]);
    return update.call(this, data, ...rest);
  };
  h.digest = function (...args) {
    const out = digest.apply(this, args);
    if (Buffer.isBuffer(out)) seen.push(['digest', out]);
    return out;
  };
  h.copy = function (...args) {
    return watchHash(crypto.Hash.prototype.copy.apply(this, args), seen);
  };
  return h;
}

describe('the JavaScript implementation wipes what it copies', function () {
  const sha256 = js.resolve('sha256').id;
  // Where a keyed Bun.CryptoHasher holds the key (Bun), the key goes to it
  // as the caller gave it: this side makes no copy, and Bun's own cannot be
  // wiped from JavaScript (README, "Wiping"). Its MACs are not made by
  // createHmac, which these tests watch.
  const keyedByBun = js.runtimeCalls(sha256).hmacKey.startsWith('Bun');
  const keyObjects = function () {
    if (keyedByBun) this.skip();
  };

  it("hmacKeyNew: a string key's UTF-8 copy, given to createSecretKey", function () {
    keyObjects.call(this);
    const copies = [];
    watching('createSecretKey', (key, [bytes]) => copies.push(bytes), () => js.hmacKeyNew(sha256, 'a secret key'));
    assert.strictEqual(copies.length, 1);
    assert.ok(zero(copies[0]), 'the UTF-8 copy of the key is not wiped');
  });

  it('hmacKeyHasher: the exported key and the padded key block it keys the states with', function () {
    keyObjects.call(this);
    const handle = js.hmacKeyNew(sha256, Buffer.alloc(40, 0x61));
    const seen = [];
    const exported = [];
    const realExport = handle.key.export;
    handle.key.export = function (...args) {
      const out = realExport.apply(this, args);
      exported.push(out);
      return out;
    };
    watching('createHash', (h) => watchHash(h, seen), () => js.hmacKeyHasher(handle));
    assert.strictEqual(exported.length, 1);
    assert.ok(zero(exported[0]), 'the exported key is not wiped');
    const blocks = seen.filter(([what, b]) => what === 'update' && b.length === 64);
    assert.strictEqual(blocks.length, 2, 'K0 ^ ipad and K0 ^ opad');
    for (const [, block] of blocks) assert.ok(zero(block), 'the padded key block is not wiped');
  });

  it("an HMAC hasher's digest: the inner digest, and the MAC bytes it gives into a Buffer", function () {
    keyObjects.call(this);
    for (const [encoding, bytes] of [['hex', 1], ['base64', 1], ['buffer', 2]]) {
      const handle = js.hmacKeyNew(sha256, 'k');
      const seen = [];
      const h = watching('createHash', (x) => watchHash(x, seen), () => js.hmacKeyHasher(handle));
      js.hasherUpdate(h, 'message');
      const out = encoding === 'buffer' ? Buffer.alloc(32) : undefined;
      const text = js.hasherDigest(h, js.encodings[encoding], new Uint8Array(0), 0, out);
      const want = crypto.createHmac('sha256', 'k').update('message').digest(encoding);
      assert.deepStrictEqual(out ?? text, want);
      // Text is made by the runtime from the outer state: no Buffer of the
      // MAC exists here.
      const digests = seen.filter(([what]) => what === 'digest').map(([, b]) => b);
      assert.strictEqual(digests.length, bytes, bytes === 1 ? 'the inner digest' : 'the inner digest and the MAC');
      for (const d of digests) assert.ok(zero(d), `${encoding}: a digest Buffer is not wiped`);
    }
  });

  // Where HMAC hashers finish with one crypto.hash over K0 ^ opad and the
  // inner digest (Node), those bytes are the key's states' own: `pad` is
  // them, or undefined elsewhere.
  const padOf = (handle) => handle.states?.outer?.bytes;
  const block = (pad) => pad.subarray(0, 64);
  const room = (pad) => pad.subarray(64);

  it("HMAC hashers' outer pad: the inner digest's room after each digest, the pad once the key is destroyed and no hasher is left", function () {
    keyObjects.call(this);
    const handle = js.hmacKeyNew(sha256, 'k');
    const [a, b, c] = [0, 1, 2].map(() => js.hmacKeyHasher(handle));
    const pad = padOf(handle);
    if (pad === undefined) this.skip();
    const want = crypto.createHmac('sha256', 'k').update('m').digest('hex');
    js.hasherUpdate(a, 'm');
    assert.strictEqual(js.hasherDigest(a, js.encodings.hex, new Uint8Array(0), 0), want);
    assert.ok(zero(room(pad)), "the inner digest's room is not wiped");
    assert.ok(!zero(block(pad)), 'the pad is wiped while the key and two hashers live');
    js.hmacKeyDestroy(handle);
    js.hasherFree(b);
    assert.ok(!zero(block(pad)), 'the pad is wiped while a hasher lives');
    js.hasherUpdate(c, 'm');
    assert.strictEqual(js.hasherDigest(c, js.encodings.hex, new Uint8Array(0), 0), want);
    assert.ok(zero(pad), 'the pad is not wiped once the key and every hasher are finished');
  });

  it("HMAC hashers' outer pad: wiped when the key and a hasher left unfinished are collected (child process)", function () {
    keyObjects.call(this);
    const handle = js.hmacKeyNew(sha256, 'k');
    js.hmacKeyHasher(handle);
    if (padOf(handle) === undefined) this.skip();
    const src = `const js = require(${JSON.stringify(path.join(__dirname, '..', 'lib', 'binding', 'js'))});
      let handle = js.hmacKeyNew(js.resolve('sha256').id, 'k');
      let h = js.hmacKeyHasher(handle);
      const pad = handle.states.outer.bytes;
      handle = h = undefined;
      (async () => {
        for (let i = 0; i < 20 && pad.some((x) => x !== 0); i++) {
          globalThis.gc();
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        console.log(pad.every((x) => x === 0) ? 'wiped' : 'kept');
      })();`;
    const res = spawnSync(process.execPath, ['--expose-gc', '-e', src], { encoding: 'utf8', timeout: 60000 });
    assert.strictEqual(res.status, 0, res.stderr);
    assert.strictEqual(res.stdout, 'wiped\n', res.stderr);
  });

  it('hmacVerify: the MAC it computed to compare', function () {
    // Where hmac() is not createHmac's (Bun's keyed hasher, Deno's keyed
    // states), runtimeCalls.test.js checks the MAC; its bytes are wiped by
    // the same verdict() this test watches here.
    if (js.runtimeCalls(sha256).hmac !== 'createHmac') this.skip();
    const macs = [];
    const realHmac = crypto.createHmac;
    crypto.createHmac = function (...args) {
      const h = realHmac.apply(this, args);
      const digest = h.digest;
      h.digest = function (...rest) {
        const out = digest.apply(this, rest);
        if (Buffer.isBuffer(out)) macs.push(out);
        return out;
      };
      return h;
    };
    try {
      const mac = realHmac('sha256', 'k').update('m').digest();
      assert.strictEqual(js.hmacVerify(sha256, js.encodings.buffer, 'k', 'm', mac), true);
    } finally {
      crypto.createHmac = realHmac;
    }
    assert.strictEqual(macs.length, 1);
    assert.ok(zero(macs[0]), 'the computed MAC is not wiped');
  });

  // Buffer.from() of a short string is a slice of Buffer's shared pool
  // (createHmac encodes a string key so), which any pooled Buffer's .buffer
  // reaches. The pool is made fresh first (filled until Buffer.allocUnsafe
  // hands out another) and zeroed (a new pool is uninitialised memory,
  // which may hold what freed memory held), so the call's own allocations
  // land in the one scanned after it. The key bytes
  // looked for are the test's own copy, made outside the pool, and each MAC
  // to compare is made before.
  it("hmac, hmacVerify and macShot: a string key's bytes are not left in Buffer's shared pool", function () {
    const keys = ['a string key, short', 'k\u00e9y \ud800 '.repeat(3), 'a long string key '.repeat(12)];
    for (const key of keys) {
      const bytes = new TextEncoder().encode(key);
      const want = crypto.createHmac('sha256', key).update('m').digest();
      const calls = [
        ['hmac, hex', () => js.hmac(sha256, js.encodings.hex, key, 'm'), want.toString('hex')],
        ['hmac, into a Buffer', () => { const out = Buffer.alloc(32); js.hmac(sha256, js.encodings.buffer, key, 'm', out); return out; }, want],
        ['hmacVerify', () => js.hmacVerify(sha256, js.encodings.hex, key, 'm', want.toString('hex')), true],
      ];
      const token = js.resolve('sha256').macShot;
      if (token !== undefined) {
        calls.push(['macShot', () => js.macShot(token, js.encodings.hex, key, 'm'), want.toString('hex')]);
      }
      for (const [what, call, expected] of calls) {
        freshSharedPool();
        const got = call();
        assert.strictEqual(sharedPool().indexOf(bytes), -1, `${what}, key of ${key.length} characters: the key is in the pool`);
        assert.deepStrictEqual(got, expected, what);
      }
    }
  });
});
