'use strict';
// hashStream(algorithm, source[, outputEncoding | options]): the digest of
// everything the source yields equals hash() of the concatenation, for
// every kind of source, every kind of chunk, and lengths that cross the
// batches the native side hashes off the event loop (64 KiB, then growing
// to 4 MiB). Chunk layouts are drawn from a seed: a failure prints it.
const assert = require('assert');
const crypto = require('crypto');
const { Readable } = require('stream');
const { hashStream, hash } = require('..');
const { bytes, binaryInputs, stringInputs } = require('./common');
const { SOURCES, bytesOf } = require('./fixtures/stream-sources');

const KiB = 1024;
const MiB = 1024 * KiB;

// xorshift32 from `seed`: chunk lengths a failure can name again.
function lengths(seed, total, max) {
  let x = seed >>> 0 || 1;
  const out = [];
  for (let left = total; left > 0;) {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    const n = Math.min(left, x % (max + 1));
    out.push(n);
    left -= n;
  }
  return out;
}

// buf in chunks of `size` bytes (the last shorter).
const fixed = (buf, size) => split(buf, Array.from({ length: Math.ceil(buf.length / size) }, () => size));

function split(buf, sizes) {
  const parts = [];
  let at = 0;
  for (const n of sizes) {
    parts.push(buf.subarray(at, at + n));
    at += n;
  }
  return parts;
}

describe('hashStream()', function () {
  this.timeout(120000);

  describe('equals hash() of the concatenation, for every kind of source', function () {
    const data = bytes(300 * KiB + 7, 5);
    const parts = split(data, lengths(0x5eed, data.length, 40 * KiB));
    for (const [label, make] of SOURCES) {
      it(`${label} (seed 0x5eed)`, async function () {
        assert.strictEqual(await hashStream('sha256', make(parts)), hash('sha256', data));
      });
    }
  });

  describe('takes every kind of chunk', function () {
    const data = bytes(1000, 9);
    const chunks = [...binaryInputs(data), ...stringInputs(300)];
    for (const [label, chunk] of chunks) {
      it(`${label}, alone and between Buffers, in an array and a Readable`, async function () {
        const one = bytesOf(chunk);
        assert.strictEqual(await hashStream('sha1', [chunk]), hash('sha1', one));
        const mixed = [Buffer.from('head'), chunk, 'tail', chunk];
        const want = hash('sha1', Buffer.concat(mixed.map(bytesOf)));
        assert.strictEqual(await hashStream('sha1', mixed), want);
        assert.strictEqual(await hashStream('sha1', Readable.from(mixed)), want);
      });
    }
  });

  describe('lengths around the batches', function () {
    const sizes = [0, 1, 64 * KiB - 1, 64 * KiB, 64 * KiB + 1, 320 * KiB, 1344 * KiB + 3, 6 * MiB + 5];
    const big = bytes(6 * MiB + 5, 11);
    for (const n of sizes) {
      it(`${n} bytes, in one chunk, in 64 KiB chunks and in chunks of 1-3 KiB`, async function () {
        const data = big.subarray(0, n);
        const want = hash('sha512', data);
        assert.strictEqual(await hashStream('sha512', [data]), want, 'one chunk');
        assert.strictEqual(await hashStream('sha512', fixed(data, 64 * KiB)), want, '64 KiB chunks');
        assert.strictEqual(await hashStream('sha512', Readable.from(split(data, lengths(n + 2, n, 3 * KiB)))),
          want, 'short chunks');
      });
    }

    it('strings that do not fit what is left of a batch, and long strings', async function () {
      const parts = [];
      for (let i = 0; i < 200; i++) parts.push(i % 3 ? 'é'.repeat(500 + i) : 'x'.repeat(2000 + 37 * i));
      parts.push('漢'.repeat(300000));
      assert.strictEqual(await hashStream('sha256', parts), hash('sha256', parts.join('')));
    });
  });

  describe('empty sources and empty chunks', function () {
    const empty = crypto.createHash('sha256').digest('hex');
    for (const [label, make] of SOURCES) {
      it(`${label}: no chunks, and only 0-byte chunks`, async function () {
        assert.strictEqual(await hashStream('sha256', make([])), empty);
        assert.strictEqual(await hashStream('sha256', make([Buffer.alloc(0), '', new Uint8Array(0)])), empty);
      });
    }
    it('0-byte chunks between others change nothing', async function () {
      const parts = [Buffer.from('a'), Buffer.alloc(0), '', 'b', new ArrayBuffer(0), new DataView(new ArrayBuffer(0))];
      assert.strictEqual(await hashStream('md5', parts), hash('md5', 'ab'));
    });
  });

  describe('output encodings and lengths, as hash() takes them', function () {
    const parts = [Buffer.from('stream '), 'of ', new Uint8Array([1, 2, 3])];
    const data = Buffer.concat(parts.map(bytesOf));
    const cases = [
      [undefined], ['hex'], ['base64'], ['base64url'], ['latin1'], ['buffer'], ['BASE64'], ['ucs2'],
      [{}], [{ outputEncoding: 'base64' }], [{ outputEncoding: 'buffer' }],
    ];
    for (const [options] of cases) {
      it(`sha384, ${JSON.stringify(options)}`, async function () {
        assert.deepStrictEqual(await hashStream('sha384', parts, options), hash('sha384', data, options));
      });
    }
    for (const outputLength of [0, 1, 32, 1000]) {
      it(`shake256 with outputLength ${outputLength}`, async function () {
        const options = { outputLength, outputEncoding: 'hex' };
        assert.strictEqual(await hashStream('shake256', parts, options), hash('shake256', data, options));
      });
    }
    it("a 'buffer' result is a Buffer of its own, not a view of a batch", async function () {
      // Short: its bytes stay in the stream's first batch, which the next stream takes.
      const out = await hashStream('sha256', [Buffer.alloc(1000, 1), 'abc'], 'buffer');
      const kept = Buffer.from(out);
      assert.ok(Buffer.isBuffer(out));
      assert.strictEqual(out.length, 32);
      // Later streams take the batches that are left over: the result must not change.
      for (let i = 0; i < 3; i++) await hashStream('sha256', [Buffer.alloc(70000, 3 + i)]);
      assert.deepStrictEqual(out, kept, 'the digest changed with a later stream');
    });
  });

  describe('every algorithm the runtime lists', function () {
    const data = bytes(70 * KiB, 3);
    const parts = split(data, lengths(77, data.length, 9 * KiB));
    for (const alg of require('..').getHashes()) {
      it(alg, async function () {
        assert.strictEqual(await hashStream(alg, parts), hash(alg, data));
      });
    }
  });
});
