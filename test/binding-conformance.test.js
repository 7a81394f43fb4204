'use strict';
// The binding's two implementations (lib/binding/native.js, lib/binding/js/) have one
// shape: the functions of lib/binding/interface.js, the same arguments, the same
// results, `out` filled the same way. Every row of ROWS runs on both, with
// the IDs each learns from its own resolve() and encodings.
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { INTERFACE, NATIVE_ONLY, JS_ONLY } = require('../lib/binding/interface');
const { refusedByRuntime } = require('./common');

const implementations = [['js', () => require('../lib/binding/js'), true]];
let nativeError;
try {
  implementations.unshift(['native', () => require('../lib/binding/native'), true]);
  require('../lib/binding/native');
} catch (err) {
  nativeError = err;
  implementations.shift();
}

const digest = (alg, data, encoding, length) =>
  crypto.createHash(alg, length === undefined ? undefined : { outputLength: length }).update(data).digest(encoding);
const mac = (alg, key, data, encoding) => crypto.createHmac(alg, key).update(data).digest(encoding);
const FOX = 'The quick brown fox jumps over the lazy dog';
const file = path.join(os.tmpdir(), `fast-hash-conformance-${process.pid}`);

// Each row: what it calls, and the answer node:crypto gives. `run(b, ids)`
// gets the implementation and ids(alg) -> its algorithm ID, enc(name) -> its
// encoding ID.
const ROWS = [
  ['hash hex', (b, id, enc) => b.hash(id('sha256'), enc('hex'), 'abc', 32), digest('sha256', 'abc', 'hex')],
  ['hash base64', (b, id, enc) => b.hash(id('sha1'), enc('base64'), FOX, 20), digest('sha1', FOX, 'base64')],
  ['hash base64url', (b, id, enc) => b.hash(id('md5'), enc('base64url'), '', 16), digest('md5', '', 'base64url')],
  ['hash latin1', (b, id, enc) => b.hash(id('sha512'), enc('latin1'), FOX, 64), digest('sha512', FOX, 'latin1')],
  ['hash of a view', (b, id, enc) => b.hash(id('sha384'), enc('hex'), new Uint16Array([1, 2, 3]), 48),
    digest('sha384', Buffer.from(new Uint16Array([1, 2, 3]).buffer), 'hex')],
  ['hash into out', (b, id, enc) => filled(32, (out) => b.hash(id('sha256'), enc('buffer'), FOX, 32, out)),
    digest('sha256', FOX)],
  ['hash: XOF text past 64 bytes', (b, id, enc) => b.hash(id('shake256'), enc('hex'), FOX, 100),
    digest('shake256', FOX, 'hex', 100)],
  ['hash: XOF of length 0', (b, id, enc) => b.hash(id('shake128'), enc('hex'), FOX, 0), ''],
  ['hash: a digest of another provider', (b, id, enc) => b.hash(id('sha3-256'), enc('hex'), FOX, 32),
    digest('sha3-256', FOX, 'hex')],
  ['hashPrefix', (b, id, enc) => b.hashPrefix(id('sha1'), enc('hex'), Buffer.from('abcdef'), 3, 20),
    digest('sha1', 'abc', 'hex')],
  ['hashPrefix of a view other than Uint8Array: its bytes', (b, id, enc) =>
    b.hashPrefix(id('sha1'), enc('hex'), new Uint16Array([0x6261, 0x6463, 0x6665]), 5, 20),
  digest('sha1', 'abcde', 'hex')],
  ['hashPrefix of a DataView', (b, id, enc) =>
    b.hashPrefix(id('sha1'), enc('hex'), new DataView(new TextEncoder().encode('xabcdef').buffer, 1, 6), 2, 20),
  digest('sha1', 'ab', 'hex')],
  ['hashPrefix into out', (b, id, enc) =>
    filled(64, (out) => b.hashPrefix(id('shake128'), enc('buffer'), Buffer.from('abcdef'), 4, 64, out)),
  digest('shake128', 'abcd', undefined, 64)],
  ['hashMany text', (b, id, enc) => b.hashMany(id('sha256'), enc('hex'), 32, undefined, 'a', Buffer.from('b')),
    digest('sha256', 'a', 'hex') + digest('sha256', 'b', 'hex')],
  ['hashMany text past 64 bytes', (b, id, enc) => b.hashMany(id('shake256'), enc('base64'), 70, undefined, 'a'),
    digest('shake256', 'a', 'base64', 70)],
  ['hashMany into', (b, id, enc) => filled(40, (out) => b.hashMany(id('sha1'), enc('buffer'), 20, out, 'a', 'b')),
    Buffer.concat([digest('sha1', 'a'), digest('sha1', 'b')])],
  ['hmac', (b, id, enc) => b.hmac(id('sha256'), enc('hex'), 'key', FOX), mac('sha256', 'key', FOX, 'hex')],
  ['hmac, key longer than a block', (b, id, enc) => b.hmac(id('sha512'), enc('base64'), 'k'.repeat(200), FOX),
    mac('sha512', 'k'.repeat(200), FOX, 'base64')],
  ['hmac into out', (b, id, enc) => filled(32, (out) => b.hmac(id('sha3-256'), enc('buffer'), 'key', FOX, out)),
    mac('sha3-256', 'key', FOX)],
  ['hmacVerify, equal', (b, id, enc) => b.hmacVerify(id('sha1'), enc('hex'), 'key', FOX, mac('sha1', 'key', FOX, 'hex')),
    true],
  ['hmacVerify, other bytes', (b, id, enc) => b.hmacVerify(id('sha1'), enc('hex'), 'key', FOX, Buffer.alloc(20)), false],
  ['hmacKeyDigest', (b, id, enc) => b.hmacKeyDigest(b.hmacKeyNew(id('md5'), 'key'), enc('hex'), FOX),
    mac('md5', 'key', FOX, 'hex')],
  ['hmacKeyDigest into out', (b, id, enc) =>
    filled(28, (out) => b.hmacKeyDigest(b.hmacKeyNew(id('sha224'), 'key'), enc('buffer'), FOX, out)),
  mac('sha224', 'key', FOX)],
  ['hmacKeyVerify', (b, id, enc) =>
    b.hmacKeyVerify(b.hmacKeyNew(id('sha256'), 'key'), enc('base64'), FOX, mac('sha256', 'key', FOX, 'base64')), true],
  ['hasher: update, update, digest with a tail', (b, id, enc) => {
    const h = b.hasherNew(id('sha256'), 32);
    b.hasherUpdate(h, 'The quick ');
    b.hasherUpdate(h, Buffer.from('brown fox jumps over!!'), 20);
    return b.hasherDigest(h, enc('hex'), Buffer.from(' the lazy dog!'), 13);
  }, digest('sha256', 'The quick brown fox jumps over the lazy dog', 'hex')],
  ['hasher: copy with its own XOF length', (b, id, enc) => {
    const h = b.hasherNew(id('shake128'), 16);
    b.hasherUpdate(h, FOX);
    const c = b.hasherCopy(h, 80);
    b.hasherFree(h);
    return b.hasherDigest(c, enc('hex'), Buffer.alloc(0), 0);
  }, digest('shake128', FOX, 'hex', 80)],
  ['hasher: HMAC from a key, into out', (b, id, enc) => {
    const h = b.hmacKeyHasher(b.hmacKeyNew(id('sha384'), 'key'));
    b.hasherUpdate(h, FOX);
    return filled(48, (out) => b.hasherDigest(h, enc('buffer'), Buffer.alloc(0), 0, out));
  }, mac('sha384', 'key', FOX)],
  ['hasherUpdateAsync, then digest', async (b, id, enc) => {
    const h = b.hasherNew(id('sha512'), 64);
    b.hasherUpdate(h, 'The quick ');
    assert.strictEqual(await b.hasherUpdateAsync(h, Buffer.from('brown fox jumps over the lazy dog!!'), 33), undefined);
    return b.hasherDigest(h, enc('hex'), Buffer.alloc(0), 0);
  }, digest('sha512', FOX, 'hex')],
  ['hasherUpdateAsync of an HMAC hasher', async (b, id, enc) => {
    const h = b.hmacKeyHasher(b.hmacKeyNew(id('sha256'), 'key'));
    await b.hasherUpdateAsync(h, Buffer.from(FOX), FOX.length);
    return b.hasherDigest(h, enc('base64'), Buffer.alloc(0), 0);
  }, mac('sha256', 'key', FOX, 'base64')],
  ['two hasherUpdateAsync queued at once, absorbed in order', async (b, id, enc) => {
    const h = b.hasherNew(id('sha256'), 32);
    const parts = [Buffer.alloc(3 << 20, 1), Buffer.from(' and then')];
    await Promise.all(parts.map((p) => b.hasherUpdateAsync(h, p, p.length)));
    return b.hasherDigest(h, enc('hex'), Buffer.alloc(0), 0);
  }, digest('sha256', Buffer.concat([Buffer.alloc(3 << 20, 1), Buffer.from(' and then')]), 'hex')],
  ['hasherFree during hasherUpdateAsync: finished once it settles', async (b, id, enc) => {
    const h = b.hasherNew(id('sha256'), 32);
    const job = b.hasherUpdateAsync(h, Buffer.alloc(1 << 20), 1 << 20);
    b.hasherFree(h);
    await job;
    try {
      b.hasherDigest(h, enc('hex'), Buffer.alloc(0), 0);
    } catch (err) {
      return err.code;
    }
    return 'not finished';
  }, 'ERR_CRYPTO_HASH_FINALIZED'],
  ['hashFileSync', (b, id, enc) => b.hashFileSync(id('sha256'), enc('hex'), file, 32), digest('sha256', FOX, 'hex')],
  ['hashFileSync into out', (b, id, enc) => filled(20, (out) => b.hashFileSync(id('sha1'), enc('buffer'), file, 20, out)),
    digest('sha1', FOX)],
  ['hashAsync', (b, id, enc) => b.hashAsync(id('sha256'), enc('base64url'), FOX, 32), digest('sha256', FOX, 'base64url')],
  ['hashAsync, bytes', (b, id, enc) => b.hashAsync(id('shake256'), enc('buffer'), FOX, 100), digest('shake256', FOX, undefined, 100)],
  ['hmacAsync', (b, id, enc) => b.hmacAsync(id('sha512'), enc('hex'), 'key', FOX), mac('sha512', 'key', FOX, 'hex')],
  ['hashFile', (b, id, enc) => b.hashFile(id('md5'), enc('latin1'), file, 16), digest('md5', FOX, 'latin1')],
  ['hashFile with a cancel cell left unset', (b, id, enc) =>
    b.hashFile(id('sha1'), enc('hex'), file, 20, new Int32Array(new ArrayBuffer(4))), digest('sha1', FOX, 'hex')],
  ['hashFile with its cancel cell set: rejects with ABORT_ERR', (b, id, enc) => {
    const cancel = new Int32Array(new ArrayBuffer(4));
    Atomics.store(cancel, 0, 1);
    return b.hashFile(id('sha1'), enc('hex'), file, 20, cancel).then(() => 'resolved', (err) => err.code);
  }, 'ABORT_ERR'],
  ['encodedLength', (b, id, enc) => ['hex', 'base64', 'base64url', 'latin1'].map((e) => b.encodedLength(enc(e), 32)),
    [64, 44, 43, 32]],
];

// hash() and hmac() as the shim calls them for text: by the binding's
// shortest call (shot, macShot) where the digest's entry names a token,
// else hash() and hmac() themselves; the same cases as the rows above.
function shotOf(b, name, enc, data, length) {
  const entry = b.resolve(name);
  if (entry.shot === undefined) return b.hash(entry.id, enc, data, length);
  return b.shot(entry.shot, enc, data, length);
}
function macShotOf(b, name, enc, key, data) {
  const entry = b.resolve(name);
  if (entry.macShot === undefined) return b.hmac(entry.id, enc, key, data);
  return b.macShot(entry.macShot, enc, key, data);
}
ROWS.push(
  ['shot hex', (b, id, enc) => shotOf(b, 'sha256', enc('hex'), 'abc', 32), digest('sha256', 'abc', 'hex')],
  ['shot base64', (b, id, enc) => shotOf(b, 'sha1', enc('base64'), FOX, 20), digest('sha1', FOX, 'base64')],
  ['shot base64url', (b, id, enc) => shotOf(b, 'md5', enc('base64url'), '', 16), digest('md5', '', 'base64url')],
  ['shot latin1', (b, id, enc) => shotOf(b, 'sha512', enc('latin1'), FOX, 64), digest('sha512', FOX, 'latin1')],
  ['shot of a view', (b, id, enc) => shotOf(b, 'sha384', enc('hex'), new Uint16Array([1, 2, 3]), 48),
    digest('sha384', Buffer.from(new Uint16Array([1, 2, 3]).buffer), 'hex')],
  ['shot of a DataView', (b, id, enc) => shotOf(b, 'sha256', enc('hex'), new DataView(new TextEncoder().encode(FOX).buffer), 32),
    digest('sha256', FOX, 'hex')],
  ['shot: a digest of another provider', (b, id, enc) => shotOf(b, 'sha3-256', enc('hex'), FOX, 32),
    digest('sha3-256', FOX, 'hex')],
  ['macShot', (b, id, enc) => macShotOf(b, 'sha256', enc('hex'), 'key', FOX), mac('sha256', 'key', FOX, 'hex')],
  ['macShot, key longer than a block', (b, id, enc) => macShotOf(b, 'sha512', enc('base64'), 'k'.repeat(200), FOX),
    mac('sha512', 'k'.repeat(200), FOX, 'base64')],
  ['macShot of views', (b, id, enc) => macShotOf(b, 'sha1', enc('latin1'), new Uint16Array([1, 2]), new DataView(new TextEncoder().encode(FOX).buffer)),
    mac('sha1', Buffer.from(new Uint16Array([1, 2]).buffer), FOX, 'latin1')],
  ['macShot: a digest of another provider', (b, id, enc) => macShotOf(b, 'sha3-256', enc('hex'), 'key', FOX),
    mac('sha3-256', 'key', FOX, 'hex')],
);

// Errors both give, by code.
const ERRORS = [
  ["'buffer' without out", (b, id, enc) => b.hash(id('sha256'), enc('buffer'), 'abc', 32), 'ERR_OUT_OF_RANGE'],
  ['out of the wrong length', (b, id, enc) => b.hash(id('sha256'), enc('buffer'), 'abc', 32, Buffer.alloc(31)),
    'ERR_OUT_OF_RANGE'],
  ['a finished hasher', (b, id, enc) => {
    const h = b.hasherNew(id('sha1'), 20);
    b.hasherDigest(h, enc('hex'), Buffer.alloc(0), 0);
    b.hasherUpdate(h, 'more');
  }, 'ERR_CRYPTO_HASH_FINALIZED'],
  ['a destroyed key', (b, id, enc) => {
    const k = b.hmacKeyNew(id('sha256'), 'key');
    b.hmacKeyDestroy(k);
    b.hmacKeyDigest(k, enc('hex'), FOX);
  }, 'ERR_INVALID_STATE'],
  ['a length past the data', (b, id, enc) => b.hashPrefix(id('sha1'), enc('hex'), Buffer.from('ab'), 3, 20),
    'ERR_OUT_OF_RANGE'],
  ['a batch length past the batch', (b, id) => b.hasherUpdateAsync(b.hasherNew(id('sha1'), 20), Buffer.alloc(2), 3),
    'ERR_OUT_OF_RANGE'],
  ...['hasherUpdate', 'hasherDigest', 'hasherCopy', 'hasherUpdateAsync'].map((fn) => [
    `${fn} of a hasher being updated off the event loop (a third hasherUpdateAsync)`, (b, id, enc) => {
      const h = b.hasherNew(id('sha256'), 32);
      b.hasherUpdateAsync(h, Buffer.alloc(64), 64);
      if (fn === 'hasherUpdateAsync') b.hasherUpdateAsync(h, Buffer.alloc(64), 64);
      const args = { hasherUpdate: ['x'], hasherDigest: [enc('hex'), Buffer.alloc(0), 0], hasherCopy: [32],
        hasherUpdateAsync: [Buffer.alloc(1), 1] }[fn];
      b[fn](h, ...args);
    }, 'ERR_INVALID_STATE']),
];

// Runs fill(out) on a fresh Buffer of n bytes, which it must fill and
// return nothing for; gives the Buffer.
function filled(n, fill) {
  const out = Buffer.alloc(n, 0xee);
  assert.strictEqual(fill(out), undefined, 'a result returned when out was given');
  return out;
}

function idsOf(b) {
  const id = (name) => {
    const found = b.resolve(name);
    assert.ok(found, `${b.implementation} does not resolve ${name}`);
    return found.id;
  };
  const enc = (name) => {
    assert.ok(name in b.encodings, `${b.implementation} has no encoding ${name}`);
    return b.encodings[name];
  };
  return [id, enc];
}

describe('the binding: both implementations have one shape', () => {
  before(() => fs.writeFileSync(file, FOX));
  after(() => fs.rmSync(file, { force: true }));

  it('the addon loads here (or the suite runs on js only, as on Bun and Deno)', function () {
    if (nativeError !== undefined && process.versions.bun === undefined && process.versions.deno === undefined &&
      process.env.FAST_HASH_IMPLEMENTATION !== 'js') {
      throw nativeError;
    }
    if (nativeError !== undefined) this.skip();
  });

  for (const [name, load] of implementations) {
    describe(`lib/binding/${name}`, () => {
      it('exports the functions of lib/binding/interface.js, and nothing else but its own extras', () => {
        const b = load();
        for (const key of Object.keys(INTERFACE)) {
          assert.ok(key in b, `${name} lacks ${key}`);
          if (INTERFACE[key].startsWith('(')) assert.strictEqual(typeof b[key], 'function', key);
        }
        const own = name === 'native' ? NATIVE_ONLY : JS_ONLY;
        const extra = Object.keys(b).filter((k) => !(k in INTERFACE) && !own.includes(k));
        assert.deepStrictEqual(extra, []);
        assert.strictEqual(b.implementation, name);
      });

      it('says by its flags, not its name, what the shim must do for it', () => {
        const b = load();
        assert.strictEqual(typeof b.releasesHandles, 'boolean');
        assert.strictEqual(typeof b.knowsOnlyNodeNames, 'boolean');
        assert.strictEqual(typeof b.shot, 'function');
        assert.strictEqual(typeof b.macShot, 'function');
        // KECCAK-KMAC-128 is an internal digest OpenSSL 3 fetches: an
        // implementation that knows only node:crypto's names takes it where
        // this runtime's node:crypto does (Node 24's), and nowhere else.
        if (b.knowsOnlyNodeNames) {
          assert.strictEqual(b.resolve('KECCAK-KMAC-128') === undefined, refusedByRuntime('KECCAK-KMAC-128'));
        }
        // A handle that must be given back is freed by hasherFree, and only once.
        const h = b.hasherNew(idsOf(b)[0]('sha256'), 32);
        b.hasherFree(h);
        b.hasherFree(h);
        assert.throws(() => b.hasherUpdate(h, 'x'), { code: 'ERR_CRYPTO_HASH_FINALIZED' });
      });

      for (const [what, run, want] of ROWS) {
        it(what, async () => {
          const b = load();
          const got = await run(b, ...idsOf(b));
          assert.deepStrictEqual(got, want);
        });
      }

      for (const [what, run, code] of ERRORS) {
        it(`refuses ${what} (${code})`, () => {
          const b = load();
          assert.throws(() => run(b, ...idsOf(b)), (err) => err.code === code);
        });
      }
    });
  }
});
