'use strict';
// The JavaScript implementation's fast paths (lib/binding/js/, "the runtime's
// calls": Bun's SHA classes and keyed CryptoHasher, crypto.hash, 'latin1'
// text written into a Buffer, keyed states) against the general path, the
// runtime's own createHash / createHmac chain, for every name the runtime
// takes: a runtime call that ever disagrees with node:crypto fails here, on
// the runtime where it does (the test matrix runs this file everywhere).
const assert = require('assert');
const crypto = require('crypto');
const js = require('../lib/binding/js');

// Inputs as the shim passes them; `bytes` is what they mean.
function inputs() {
  const buf = Buffer.from(Array.from({ length: 1100 }, (_, i) => (i * 31 + 7) & 0xff));
  const detached = [new Uint8Array(16), new DataView(new ArrayBuffer(12)), new Float64Array(4)];
  for (const view of detached) structuredClone(view.buffer, { transfer: [view.buffer] });
  return [
    ['an empty string', '', Buffer.alloc(0)],
    ['an ASCII string', 'abc', Buffer.from('abc')],
    ['a non-ASCII string', 'h\u00e9llo \u{1f600}', Buffer.from('h\u00e9llo \u{1f600}')],
    ...[1, 55, 63, 64, 65, 200, 1100].map((n) => [`a ${n}-byte Buffer`, buf.subarray(0, n), buf.subarray(0, n)]),
    ['a Uint8Array at an offset', new Uint8Array(buf.buffer, buf.byteOffset + 3, 70), buf.subarray(3, 73)],
    ['a DataView', new DataView(buf.buffer, buf.byteOffset + 5, 33), buf.subarray(5, 38)],
    ['a Float64Array', new Float64Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + 80)), buf.subarray(0, 80)],
    ...detached.map((view) => [`a ${view.constructor.name} over a detached ArrayBuffer`, view, Buffer.alloc(0)]),
    ...[null, DataView.prototype, Object.prototype].map((proto) => [`a Uint8Array with ${proto === null ? 'a null' :
      `${proto.constructor.name}'s`} prototype`, Object.setPrototypeOf(new Uint8Array(buf.subarray(9, 50)), proto),
    buf.subarray(9, 50)]),
  ];
}
const TEXT = ['hex', 'base64', 'base64url', 'latin1'];
const KEYS = [['a short string key', 'k'], ['a 200-byte key', Buffer.alloc(200, 0x4b)], ['a DataView key',
  new DataView(Buffer.from('a key in a view').buffer)]];
const keyBytes = (key) => (typeof key === 'string' ? key : Buffer.from(key.buffer, key.byteOffset, key.byteLength));

// Every name the runtime's createHash takes that this implementation does.
function names() {
  return crypto.getHashes().map((name) => [name, js.resolve(name)]).filter(([, r]) => r !== undefined);
}

function digest(name, r, bytes, encoding) {
  return crypto.createHash(name, r.xof ? { outputLength: r.size } : undefined).update(bytes).digest(encoding);
}

// createHmac's MAC, or undefined where the runtime has no HMAC over name.
function mac(name, key, bytes, encoding) {
  try {
    return crypto.createHmac(name, keyBytes(key)).update(bytes).digest(encoding);
  } catch {
    return undefined;
  }
}

// The names whose resolve() entry names a `field` ('shot', 'macShot'):
// none where the binding has no such call (its shot() is hash() itself,
// its macShot() hmac(); the test is then skipped), and at least one where
// it has.
function shotNames(test, field) {
  const shots = names().filter(([, r]) => r[field] !== undefined);
  if (js[field] === (field === 'shot' ? js.hash : js.hmac)) {
    assert.deepStrictEqual(shots, [], `a ${field} named where the binding has no ${field}()`);
    test.skip();
  }
  assert.notDeepStrictEqual(shots, [], `${field}() with no digest that takes it`);
  return shots;
}

describe('runtimeCalls(): the fast paths give the general path\'s bytes', function () {
  this.timeout(60000);
  const enc = js.encodings;

  it('names the calls it uses for sha256', function () {
    const calls = js.runtimeCalls(js.resolve('sha256').id);
    for (const key of ['text', 'bytes', 'hmac', 'hmacKey']) assert.strictEqual(typeof calls[key], 'string', key);
  });

  it('hash(): text in every encoding and bytes into out, for every name and input', function () {
    for (const [name, r] of names()) {
      for (const [what, data, bytes] of inputs()) {
        for (const e of TEXT) {
          assert.strictEqual(js.hash(r.id, enc[e], data, r.size), digest(name, r, bytes, e), `${name}, ${what}, ${e}`);
        }
        const out = Buffer.alloc(r.size);
        js.hash(r.id, enc.buffer, data, r.size, out);
        assert.deepStrictEqual(out, digest(name, r, bytes), `${name}, ${what}, into out`);
      }
    }
  });

  it('shot(): hash()\'s shortest path gives the text of every name that has one, for every input', function () {
    for (const [name, r] of shotNames(this, 'shot')) {
      for (const [what, data, bytes] of inputs()) {
        for (const e of TEXT) assert.strictEqual(js.shot(r.shot, js.encodings[e], data, r.size), digest(name, r, bytes, e), `${name}, ${what}, ${e}`);
      }
    }
  });

  it('macShot(): hmac()\'s shortest path gives createHmac\'s MAC for every name, key and input', function () {
    const shots = shotNames(this, 'macShot');
    // Keys as well: the detached views and the Uint8Arrays of other prototypes.
    const keys = [...KEYS, ...inputs().slice(-6)];
    for (const [name, r] of shots) {
      for (const [kind, key, bytes] of keys) {
        const want = (data, e) => crypto.createHmac(name, bytes ?? keyBytes(key)).update(data).digest(e);
        for (const [what, data, dataBytes] of inputs()) {
          assert.strictEqual(js.macShot(r.macShot, js.encodings.hex, key, data), want(dataBytes, 'hex'), `${name}, ${kind}, ${what}`);
        }
        for (const e of TEXT) assert.strictEqual(js.macShot(r.macShot, js.encodings[e], key, 'abc'), want('abc', e), `${name}, ${kind}, ${e}`);
      }
    }
  });

  it('hmac() and an HmacKey\'s digest: text and bytes, for every name with an HMAC', function () {
    for (const [name, r] of names()) {
      for (const [kind, key] of KEYS) {
        if (mac(name, key, '') === undefined) continue;
        const handle = js.hmacKeyNew(r.id, key);
        for (const [what, data, bytes] of inputs()) {
          const where = `HMAC-${name}, ${kind}, ${what}`;
          const want = mac(name, key, bytes, 'hex');
          assert.strictEqual(js.hmac(r.id, enc.hex, key, data), want, where);
          assert.strictEqual(js.hmacKeyDigest(handle, enc.hex, data), want, `${where}, HmacKey`);
          const out = Buffer.alloc(r.size);
          js.hmacKeyDigest(handle, enc.buffer, data, out);
          assert.strictEqual(out.toString('hex'), want, `${where}, HmacKey into out`);
          assert.strictEqual(js.hmacKeyVerify(handle, enc.hex, data, want), true, `${where}, verify`);
        }
        js.hmacKeyDestroy(handle);
      }
    }
  });

  it('hashers: parts, copies and digests, plain and keyed, for every name', function () {
    const parts = inputs().slice(1, 6);
    const whole = Buffer.concat(parts.map(([, , bytes]) => bytes));
    for (const [name, r] of names()) {
      const h = js.hasherNew(r.id, r.size);
      for (const [, data] of parts) js.hasherUpdate(h, data);
      const copy = js.hasherCopy(h, r.size);
      assert.strictEqual(js.hasherDigest(h, enc.hex, new Uint8Array(0), 0), digest(name, r, whole, 'hex'), name);
      const out = Buffer.alloc(r.size);
      js.hasherDigest(copy, enc.buffer, new Uint8Array(0), 0, out);
      assert.deepStrictEqual(out, digest(name, r, whole), `${name}, a copy into out`);
      const key = KEYS[1][1];
      if (mac(name, key, '') === undefined) continue;
      const keyed = js.hmacKeyHasher(js.hmacKeyNew(r.id, key));
      for (const [, data] of parts) js.hasherUpdate(keyed, data);
      assert.strictEqual(js.hasherDigest(keyed, enc.base64, new Uint8Array(0), 0), mac(name, key, whole, 'base64'),
        `HMAC-${name} hasher`);
    }
  });
});
