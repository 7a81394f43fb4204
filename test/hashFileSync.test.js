'use strict';
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const { hashFileSync, hash } = require('..');
const { makeFiles, throwsWith, slowFifo } = require('./common');

describe('hashFileSync()', function () {
  let fixture;
  before(() => { fixture = makeFiles(); });
  after(() => fixture.cleanup());

  it('equals hash(readFileSync()) for every file and algorithm', function () {
    this.timeout(60000);
    for (const [name, file] of Object.entries(fixture.files)) {
      const content = fs.readFileSync(file);
      const algs = name === 'big' ? ['sha256', 'sha1', 'blake2s256'] : crypto.getHashes();
      for (const alg of algs) assert.strictEqual(hashFileSync(alg, file), hash(alg, content), `${alg} ${name}`);
    }
  });

  it('takes string, Buffer and URL paths and every encoding', function () {
    const file = fixture.files.odd;
    const content = fs.readFileSync(file);
    for (const p of [file, Buffer.from(file), pathToFileURL(file)]) {
      for (const enc of ['hex', 'buffer', 'base64url', 'utf8']) {
        assert.deepStrictEqual(hashFileSync('md5', p, enc), hash('md5', content, enc));
      }
    }
    assert.strictEqual(hashFileSync('shake256', file, { outputLength: 100 }),
      hash('shake256', content, { outputLength: 100 }));
  });

  it('throws fs errors with code, errno, syscall and path', function () {
    const missing = path.join(fixture.dir, 'nope');
    const err = throwsWith(() => hashFileSync('sha256', missing), Error, 'ENOENT',
      `ENOENT: no such file or directory, open '${missing}'`);
    assert.strictEqual(err.syscall, 'open');
    assert.strictEqual(err.path, missing);
    assert.strictEqual(typeof err.errno, 'number');
    const dirErr = throwsWith(() => hashFileSync('sha256', fixture.dir), Error, 'EISDIR');
    assert.strictEqual(dirErr.syscall, 'read');
    assert.strictEqual(dirErr.path, fixture.dir);
    // A file's name as a directory: ENOTDIR on POSIX; Windows reports the
    // path as not found (ERROR_PATH_NOT_FOUND), which libuv and fs give as ENOENT.
    const notDir = throwsWith(() => hashFileSync('sha256', path.join(fixture.files.small, 'x')), Error,
      process.platform === 'win32' ? 'ENOENT' : 'ENOTDIR');
    assert.strictEqual(notDir.syscall, 'open');
  });

  it('throws argument errors', function () {
    throwsWith(() => hashFileSync('sha256', 'a\0b'), TypeError, 'ERR_INVALID_ARG_VALUE', /null bytes/);
    throwsWith(() => hashFileSync('sha256', {}), TypeError, 'ERR_INVALID_ARG_TYPE', /"path" argument/);
    throwsWith(() => hashFileSync('nope', fixture.files.small), TypeError, 'ERR_CRYPTO_INVALID_DIGEST');
    throwsWith(() => hashFileSync('sha256', fixture.files.small, { outputLength: 3 }), Error,
      'ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH');
    assert.strictEqual(hashFileSync('sha256', fixture.files.empty), hash('sha256', ''));
  });

  // Short reads are not the end of the file: only a read of 0 bytes is.
  it('reads a FIFO delivered in several writes to its end', function () {
    this.timeout(30000);
    const { fifo, data, writer } = slowFifo(fixture.dir, [3, 70000, 1, 5000]);
    assert.strictEqual(hashFileSync('sha256', fifo), hash('sha256', data));
    writer.kill();
  });
});
