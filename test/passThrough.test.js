'use strict';
// hasher.passThrough(): a Transform that hands every chunk on unchanged and
// updates the hasher with it, so data can be hashed on its way elsewhere.
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { Readable, Writable } = require('stream');
const { pipeline } = require('stream/promises');
const { createHasher, createHmacKey, hash } = require('..');
const { bytes, binaryInputs, throwsWith } = require('./common');
const { bytesOf } = require('./fixtures/stream-sources');

// A Writable that keeps what it is given.
function collector() {
  const got = [];
  const sink = new Writable({ write(chunk, enc, cb) { got.push(Buffer.from(chunk)); cb(); } });
  return { got, sink };
}

describe('hasher.passThrough()', function () {
  this.timeout(30000);
  const data = bytes(300000, 13);
  const parts = [];
  for (let at = 0; at < data.length; at += 7000) parts.push(data.subarray(at, at + 7000));

  it('hands the bytes on unchanged while the hasher digests them', async function () {
    const hasher = createHasher('sha256');
    const { got, sink } = collector();
    await pipeline(Readable.from(parts), hasher.passThrough(), sink);
    assert.deepStrictEqual(Buffer.concat(got), data);
    assert.strictEqual(hasher.digest('hex'), hash('sha256', data));
  });

  it('into a file, as the README shows: the file and the digest both right', async function () {
    const file = path.join(os.tmpdir(), `fast-hash-pass-${process.pid}.bin`);
    try {
      const hasher = createHmacKey('sha512', 'k').createHasher();
      await pipeline(Readable.from(parts), hasher.passThrough(), fs.createWriteStream(file));
      assert.deepStrictEqual(fs.readFileSync(file), data);
      assert.strictEqual(hasher.digest('base64'), crypto.createHmac('sha512', 'k').update(data).digest('base64'));
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('takes every kind of chunk, strings as UTF-8, and hands on the same bytes', async function () {
    const chunks = [...binaryInputs(bytes(64, 3)).map(([, c]) => c), 'é漢😀', '\ud800'];
    const hasher = createHasher('sha1');
    const { got, sink } = collector();
    await pipeline(Readable.from(chunks), hasher.passThrough(), sink);
    const want = Buffer.concat(chunks.map(bytesOf));
    assert.deepStrictEqual(Buffer.concat(got), want);
    assert.strictEqual(hasher.digest('hex'), hash('sha1', want));
  });

  it("a string written with another encoding is hashed and handed on as that encoding's bytes", async function () {
    const hasher = createHasher('md5');
    const pass = hasher.passThrough();
    const { got, sink } = collector();
    const done = pipeline(pass, sink);
    pass.write('68656c6c6f', 'hex');
    pass.end(' there');
    await done;
    assert.strictEqual(Buffer.concat(got).toString(), 'hello there');
    assert.strictEqual(hasher.digest('hex'), hash('md5', 'hello there'));
  });

  it('a bad chunk fails the stream with ERR_INVALID_ARG_TYPE', async function () {
    const hasher = createHasher('sha256');
    await assert.rejects(pipeline(Readable.from(['a', 42]), hasher.passThrough(), collector().sink),
      (err) => err instanceof TypeError && err.code === 'ERR_INVALID_ARG_TYPE');
  });

  it('digest() before the end gives what has passed and finishes the hasher: a later chunk fails the stream',
    async function () {
      const hasher = createHasher('sha256');
      const pass = hasher.passThrough();
      const { sink } = collector();
      const done = pipeline(pass, sink);
      pass.write('first');
      await new Promise((resolve) => setImmediate(resolve));
      assert.strictEqual(hasher.digest('hex'), hash('sha256', 'first'));
      pass.write('second');
      await assert.rejects(done, (err) => err.code === 'ERR_CRYPTO_HASH_FINALIZED');
    });

  it('of a finished hasher, or taken off its hasher: coded errors', function () {
    const hasher = createHasher('sha256');
    hasher.digest();
    throwsWith(() => hasher.passThrough(), Error, 'ERR_CRYPTO_HASH_FINALIZED');
    const { passThrough } = createHasher('sha256');
    throwsWith(() => passThrough(), TypeError, 'ERR_INVALID_THIS');
  });
});
