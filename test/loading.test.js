'use strict';
const assert = require('assert');
const path = require('path');
const { spawnSync } = require('child_process');
const fastHash = require('..');

describe('loading', function () {
  it('CommonJS exports exactly the public functions', function () {
    assert.deepStrictEqual(Object.keys(fastHash).sort(),
      ['createHmacKey', 'getHashes', 'hash', 'hashAsync', 'hashFile', 'hashFileSync',
        'hashMany', 'hmac', 'hmacAsync', 'implementation', 'verifyHmac']);
  });

  it('ESM import gives the same function objects as require()', async function () {
    const esm = await import(path.join(__dirname, '..', 'lib', 'index.mjs'));
    for (const name of Object.keys(fastHash)) assert.strictEqual(esm[name], fastHash[name], name);
    assert.strictEqual(esm.default, fastHash);
  });

  it('the package name resolves to both entries (exports map)', function () {
    const root = path.join(__dirname, '..');
    const src = `import { hash } from 'fast-hash'; import cjs from 'fast-hash';
      if (hash !== cjs.hash) process.exit(2);
      console.log(hash('sha256', 'abc'), require('fast-hash').hash === hash);`;
    const res = spawnSync(process.execPath,
      ['--input-type=module', '-e', `import { createRequire } from 'module'; const require = createRequire(${JSON.stringify(path.join(root, 'x.js'))}); ${src}`],
      { cwd: root, encoding: 'utf8' });
    assert.strictEqual(res.status, 0, res.stderr);
    assert.strictEqual(res.stdout.trim(),
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad true');
  });
});
