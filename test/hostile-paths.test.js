'use strict';
// Paths for hashFileSync and hashFile: fake and proxied Buffers, URLs and
// views, NUL bytes (also hidden from includes()), URL forms, missing files,
// directories, long and invalid names; a real path gives the file's digest.
const fs = require('fs');
const path = require('path');
const url = require('url');
const fh = require('..');
const { hostileTest } = require('./hostile/harness');
const { Ctx } = require('./hostile/judge');
const {
  H, EMPTY, newTable, runTable,
} = require('./hostile/table');
const { detach, NAMED } = require('./fixtures/hostile-values');

// Paths.
function pathCases(add) {
  const small = fs.readFileSync('small.bin');
  const nulU8 = () => { const u = new Uint8Array(Buffer.from('small.bin\0x')); u.includes = () => false; return u; };
  const ctx = new Ctx();
  const s = ctx.sentinel();
  for (const [fn, isAsync] of [['hashFileSync', false], ['hashFile', true]]) {
    const run = (p, o) => fh[fn]('sha256', p, o);
    add(`${fn}: a fake Uint8Array`, () => run(NAMED.fakeUint8Array()), { coded: true }, isAsync);
    add(`${fn}: a fake Buffer`, () => run(NAMED.fakeBuffer()), { coded: true }, isAsync);
    add(`${fn}: a fake URL`, () => run(NAMED.fakeURL()), { coded: true }, isAsync);
    add(`${fn}: a Proxy of a file: URL`, () => run(new Proxy(url.pathToFileURL(path.resolve('small.bin')), {})), { coded: true, orValue: H('sha256', small) }, isAsync);
    add(`${fn}: a Proxy of a Buffer path`, () => run(new Proxy(Buffer.from('small.bin'), {})), { coded: true, orValue: H('sha256', small) }, isAsync);
    add(`${fn}: a Uint8Array with a NUL byte whose includes() says no`, () => run(nulU8()), { code: 'ERR_INVALID_ARG_VALUE' }, isAsync);
    add(`${fn}: a Buffer path whose includes() throws (never called)`, () => { const b = Buffer.from('small.bin'); b.includes = () => { throw s; }; return run(b); }, { value: H('sha256', small) }, isAsync);
    add(`${fn}: a string with a NUL byte`, () => run('small.bin\0'), { code: 'ERR_INVALID_ARG_VALUE' }, isAsync);
    add(`${fn}: a Buffer with a NUL byte`, () => run(Buffer.from('small.bin\0')), { code: 'ERR_INVALID_ARG_VALUE' }, isAsync);
    add(`${fn}: a file: URL with %00`, () => run(new URL('file:///tmp/a%00b')), { coded: true }, isAsync);
    add(`${fn}: a file: URL with %2F`, () => run(new URL('file:///tmp/a%2Fb')), { coded: true }, isAsync);
    add(`${fn}: a file: URL with a host`, () => run(new URL('file://host/small.bin')), { coded: true }, isAsync);
    add(`${fn}: an https: URL`, () => run(new URL('https://example.com/small.bin')), { code: 'ERR_INVALID_URL_SCHEME' }, isAsync);
    add(`${fn}: a URL string`, () => run('file:///etc/hostname-not-here'), { code: 'ENOENT' }, isAsync);
    add(`${fn}: a directory`, () => run('sub'), { code: 'EISDIR' }, isAsync);
    add(`${fn}: through a file`, () => run('small.bin/x'), { code: 'ENOTDIR' }, isAsync);
    add(`${fn}: an empty path`, () => run(''), { code: 'ENOENT' }, isAsync);
    add(`${fn}: a 100000-character name`, () => run('n'.repeat(100000)), { code: 'ENAMETOOLONG' }, isAsync);
    add(`${fn}: lone surrogates in the name`, () => run('\ud800small.bin'), { code: 'ENOENT' }, isAsync);
    add(`${fn}: a Buffer path of invalid UTF-8`, () => run(Buffer.from([0xff, 0xfe, 0x2f])), { code: 'ENOENT' }, isAsync);
    add(`${fn}: a detached Uint8Array`, () => { const u = new Uint8Array(Buffer.from('small.bin')); detach(u.buffer); return run(u); }, { coded: true }, isAsync);
    add(`${fn}: a Uint8Array over a SharedArrayBuffer`, () => { const u = new Uint8Array(new SharedArrayBuffer(9)); u.set(Buffer.from('small.bin')); return run(u); }, { value: H('sha256', small) }, isAsync);
    add(`${fn}: a Uint8Array subclass`, () => { class P extends Uint8Array {} return run(P.from(Buffer.from('small.bin'))); }, { value: H('sha256', small) }, isAsync);
    add(`${fn}: a file URL`, () => run(url.pathToFileURL(path.resolve('small.bin')), 'base64'), { value: H('sha256', small, 'base64') }, isAsync);
    add(`${fn}: a 1 MiB + 3 file, shake256 100 bytes`, () => fh[fn]('shake256', 'chunk.bin', { outputLength: 100 }), { value: H('shake256', fs.readFileSync('chunk.bin'), 'hex', 100) }, isAsync);
    add(`${fn}: /dev/null`, () => run('/dev/null'), { value: H('sha256', EMPTY), orCoded: true }, isAsync);
  }
}

hostileTest(module, 'hashFileSync and hashFile paths: fakes, proxies, NUL bytes, URLs, missing files and directories', () => {
  const { cases, add } = newTable();
  pathCases(add);
  return runTable(cases);
});
