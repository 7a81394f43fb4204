'use strict';
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const { hashFile, hash } = require('..');
const { makeFiles, rejectsWith, slowFifo } = require('./common');


describe('hashFile()', function () {
  let fixture;
  before(() => { fixture = makeFiles(); });
  after(() => fixture.cleanup());

  it('equals hash(readFileSync()) for empty, small, 10 MiB and off-chunk sizes, every algorithm', async function () {
    this.timeout(60000);
    for (const [name, file] of Object.entries(fixture.files)) {
      const content = fs.readFileSync(file);
      const algs = name === 'big' ? ['sha256', 'md5', 'sha3-256', 'shake256'] : crypto.getHashes();
      const got = await Promise.all(algs.map((alg) => hashFile(alg, file)));
      algs.forEach((alg, i) => assert.strictEqual(got[i], hash(alg, content), `${alg} ${name}`));
    }
  });

  it('takes string, Buffer and file: URL paths', async function () {
    const file = fixture.files.small;
    const want = hash('sha256', fs.readFileSync(file));
    assert.strictEqual(await hashFile('sha256', file), want);
    assert.strictEqual(await hashFile('sha256', Buffer.from(file)), want);
    assert.strictEqual(await hashFile('sha256', pathToFileURL(file)), want);
    assert.strictEqual(await hashFile('sha256', path.relative(process.cwd(), file)), want);
  });

  it('gives every encoding and XOF length', async function () {
    const file = fixture.files['chunk+1'];
    const content = fs.readFileSync(file);
    for (const enc of ['hex', 'base64', 'buffer', 'latin1', 'ucs2']) {
      assert.deepStrictEqual(await hashFile('sha512', file, enc), hash('sha512', content, enc), enc);
    }
    for (const outputLength of [0, 20, 200]) {
      const options = { outputLength, outputEncoding: 'base64url' };
      assert.strictEqual(await hashFile('shake128', file, options), hash('shake128', content, options));
    }
  });

  it('ENOENT and EISDIR reject with code, errno, syscall and path, as fs has them', async function () {
    const missing = path.join(fixture.dir, 'missing');
    await assert.rejects(hashFile('sha256', missing), (err) => {
      assert.strictEqual(err.code, 'ENOENT');
      assert.strictEqual(err.syscall, 'open');
      assert.strictEqual(err.path, missing);
      assert.strictEqual(err.message, `ENOENT: no such file or directory, open '${missing}'`);
      return true;
    });
    let fsErr;
    try { fs.openSync(missing, 'r'); } catch (e) { fsErr = e; }
    await assert.rejects(hashFile('sha256', missing), (err) => err.errno === fsErr.errno);
    await assert.rejects(hashFile('sha256', fixture.dir), (err) => {
      assert.strictEqual(err.code, 'EISDIR');
      assert.strictEqual(err.syscall, 'read');
      assert.strictEqual(err.path, fixture.dir);
      return true;
    });
  });

  it('EACCES when the file cannot be read', async function () {
    if (process.platform === 'win32' || process.getuid() === 0) this.skip(); // root reads anything
    const file = path.join(fixture.dir, 'locked');
    fs.writeFileSync(file, 'x');
    fs.chmodSync(file, 0);
    await assert.rejects(hashFile('sha256', file), (err) => err.code === 'EACCES' && err.syscall === 'open');
  });

  it('argument errors reject', async function () {
    await rejectsWith(hashFile(1, fixture.files.small), TypeError, 'ERR_INVALID_ARG_TYPE');
    await rejectsWith(hashFile('nope', fixture.files.small), TypeError, 'ERR_CRYPTO_INVALID_DIGEST');
    await rejectsWith(hashFile('sha256', 42), TypeError, 'ERR_INVALID_ARG_TYPE');
    await rejectsWith(hashFile('sha256', `${fixture.files.small}\0x`), TypeError, 'ERR_INVALID_ARG_VALUE');
    await rejectsWith(hashFile('sha256', Buffer.from('a\0b')), TypeError, 'ERR_INVALID_ARG_VALUE');
    await rejectsWith(hashFile('sha256', new URL('http://example.com/x')), TypeError, 'ERR_INVALID_URL_SCHEME');
    await rejectsWith(hashFile('sha256', fixture.files.small, 'nope'), TypeError, 'ERR_INVALID_ARG_VALUE');
  });

  it('many files at once', async function () {
    const files = Object.values(fixture.files);
    const all = await Promise.all(files.concat(files).map((f) => hashFile('sha1', f)));
    all.forEach((got, i) => assert.strictEqual(got, hash('sha1', fs.readFileSync(files[i % files.length]))));
  });

  // Short reads are not the end of the file: only a read of 0 bytes is.
  it('reads a FIFO delivered in several writes to its end', async function () {
    this.timeout(30000);
    const { fifo, data, writer } = slowFifo(fixture.dir, [3, 70000, 1, 5000]);
    assert.strictEqual(await hashFile('sha256', fifo), hash('sha256', data));
    writer.kill();
  });
});
