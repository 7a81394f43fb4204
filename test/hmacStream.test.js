'use strict';
// hmacStream(algorithm, key, source[, ...]) and hmacKey.digestStream(source
// [, ...]): the HMAC of everything the source yields, equal to hmac() and
// hmacKey.digest() of the concatenation; key and algorithm errors reject
// before the source is read; the message, a secret too, never lands in
// Buffer's shared pool.
const assert = require('assert');
const crypto = require('crypto');
const { Readable } = require('stream');
const { hmacStream, hmac, createHmacKey, implementation } = require('..');
const binding = require('../lib/binding');
const { bytes, keyInputs, sharedPool, freshSharedPool } = require('./common');
const { SOURCES } = require('./fixtures/stream-sources');

const live = () => (implementation === 'native' ? binding.hasherStoreStats().live : 0);
const untouched = () => {
  const seen = { read: false };
  return { seen, source: { [Symbol.iterator]: () => ({ next: () => { seen.read = true; return { done: true }; } }) } };
};

async function rejection(promise) {
  assert.ok(promise instanceof Promise, 'returns a promise, does not throw');
  return promise.then(() => assert.fail('resolved'), (err) => err);
}

describe('hmacStream() and hmacKey.digestStream()', function () {
  this.timeout(60000);
  const data = bytes(200 * 1024 + 3, 21);
  const parts = [];
  for (let at = 0; at < data.length; at += 9000) parts.push(data.subarray(at, at + 9000));

  describe('equal hmac() of the concatenation, for every kind of source', function () {
    for (const [label, make] of SOURCES) {
      it(label, async function () {
        assert.strictEqual(await hmacStream('sha256', 'key', make(parts)), hmac('sha256', 'key', data));
        const key = createHmacKey('sha512', 'key');
        assert.strictEqual(await key.digestStream(make(parts)), key.digest(data));
      });
    }
  });

  // Long strings are encoded into memory of their own, wiped once hashed:
  // not before, when they wait for a batch (both being hashed).
  it('long strings from an array: equal hmac() of the concatenation', async function () {
    const texts = Array.from({ length: 600 }, (_, i) => `${i} ${'\u00e9x'.repeat(10000)}`);
    assert.strictEqual(await hmacStream('sha256', 'key', texts), hmac('sha256', 'key', texts.join('')));
  });

  describe('take every kind of key', function () {
    for (const [label, key, raw] of keyInputs(100)) {
      it(label, async function () {
        assert.strictEqual(await hmacStream('sha1', key, parts), crypto.createHmac('sha1', raw).update(data).digest('hex'));
      });
    }
  });

  it('output encodings as hmac() takes them; outputLength is ignored, as createHmac ignores it', async function () {
    for (const options of ['base64', 'buffer', { outputEncoding: 'latin1' }, { outputLength: 5 }]) {
      assert.deepStrictEqual(await hmacStream('sha384', 'k', parts, options), hmac('sha384', 'k', data, options));
      assert.deepStrictEqual(await createHmacKey('sha384', 'k').digestStream(parts, options),
        hmac('sha384', 'k', data, options));
    }
  });

  describe('failures', function () {
    const cases = [
      ['an XOF', ['shake128', 'k'], TypeError, 'ERR_CRYPTO_INVALID_DIGEST'],
      ['an unknown algorithm', ['sha257', 'k'], TypeError, 'ERR_CRYPTO_INVALID_DIGEST'],
      ['a key that is not one', ['sha256', 5], TypeError, 'ERR_INVALID_ARG_TYPE'],
      ['a public KeyObject', ['sha256', crypto.generateKeyPairSync('ed25519').publicKey], TypeError,
        'ERR_CRYPTO_INVALID_KEY_OBJECT_TYPE'],
      ['an encoding that is not one', ['sha256', 'k', 'SRC', 'hax'], TypeError, 'ERR_INVALID_ARG_VALUE'],
    ];
    for (const [what, args, Class, code] of cases) {
      it(`${what}: ${code}, before the source is read`, async function () {
        const { seen, source } = untouched();
        const full = args.length > 2 ? args.map((a) => (a === 'SRC' ? source : a)) : [...args, source];
        const err = await rejection(hmacStream(...full));
        assert.ok(err instanceof Class && err.code === code, `${err.code}: ${err.message}`);
        assert.strictEqual(seen.read, false);
      });
    }

    it('digestStream of a destroyed key: ERR_INVALID_STATE; taken off its key: ERR_INVALID_THIS', async function () {
      const key = createHmacKey('sha256', 'k');
      key.destroy();
      assert.strictEqual((await rejection(key.digestStream(parts))).code, 'ERR_INVALID_STATE');
      const { digestStream } = createHmacKey('sha256', 'k');
      assert.strictEqual((await rejection(digestStream(parts))).code, 'ERR_INVALID_THIS');
    });

    it('a key destroyed while its digestStream reads: the stream is unaffected', async function () {
      const key = createHmacKey('sha256', 'k');
      const running = key.digestStream(Readable.from(parts));
      key.destroy();
      assert.strictEqual(await running, hmac('sha256', 'k', data));
    });

    it('an abort mid-stream frees the state', async function () {
      const before = live();
      const source = new Readable({ read() { this.push(Buffer.alloc(65536, 3)); } });
      const err = await rejection(hmacStream('sha256', 'k', source, { signal: AbortSignal.timeout(50) }));
      assert.strictEqual(err.code, 'ABORT_ERR');
      assert.strictEqual(live(), before);
    });
  });

  it("the message is never in Buffer's shared pool", async function () {
    const secret = Buffer.alloc(40);
    for (let i = 0; i < secret.length; i++) secret[i] = (i * 53 + 7) & 0xff;
    // The test's own copies are made outside the pool too.
    // Past 1024 characters (encoded apart), below 4 KiB (where Buffer.from pools).
    const text = 'ß'.repeat(1100) + secret.toString('latin1');
    const textTail = Buffer.from(new TextEncoder().encode(text).buffer).subarray(-60);
    const pooled = () => Buffer.from(Buffer.from('x').buffer);
    const shapes = [
      ['short Buffers', [secret, secret]],
      ['a short and a long string', [secret.toString('latin1'), text]],
    ];
    for (const [what, chunks] of shapes) {
      const want = chunks.reduce((h, c) => h.update(c), crypto.createHmac('sha256', 'k')).digest();
      const mac = await hmacStream('sha256', 'k', chunks, 'buffer');
      assert.deepStrictEqual(mac, want, what);
      assert.strictEqual(mac.buffer.byteLength, mac.length, `${what}: the MAC is a pool slice`);
      for (const piece of [secret, textTail]) {
        assert.strictEqual(pooled().indexOf(piece), -1, `${what}: message bytes in the pool`);
      }
    }
  });

  // A long string chunk (past 1024 characters, encoded apart from the
  // batch) is encoded into memory of the digest's own, never Buffer's
  // shared pool, which any pooled Buffer's .buffer reaches, not even for
  // the while it is pending. The pool is made fresh and zeroed first (a new
  // pool is uninitialised memory, which may hold what freed memory held),
  // then scanned while the digest holds the chunk: a sync source's chunk
  // is taken before the call returns; an async one's once the source waits
  // on its gate, after yielding it.
  it("a long string chunk's bytes are not in Buffer's shared pool while the digest is pending", async function () {
    const marker = 'a message that must stay out of the pool: 7f3a9c';
    // Below 4 KiB encoded, where Buffer.from() pools.
    const text = `${'\u00df'.repeat(1100)}${marker}`;
    const markerBytes = new TextEncoder().encode(marker);
    const want = hmac('sha256', 'k', text);
    const gated = () => {
      let open;
      let reached;
      const gate = new Promise((resolve) => { open = resolve; });
      const waiting = new Promise((resolve) => { reached = resolve; });
      async function* source() {
        yield text;
        reached();
        await gate;
      }
      return { source: source(), waiting, open };
    };
    const digests = [
      ['hmacStream', (source) => hmacStream('sha256', 'k', source)],
      ['digestStream', (source) => createHmacKey('sha256', 'k').digestStream(source)],
    ];
    for (const [what, digest] of digests) {
      freshSharedPool();
      const running = digest([text]);
      assert.strictEqual(sharedPool().indexOf(markerBytes), -1, `${what}, an array: the message is in the pool`);
      assert.strictEqual(await running, want, what);
      const { source, waiting, open } = gated();
      freshSharedPool();
      const pending = digest(source);
      await waiting;
      assert.strictEqual(sharedPool().indexOf(markerBytes), -1, `${what}, an async source: the message is in the pool`);
      open();
      assert.strictEqual(await pending, want, what);
    }
  });
});
