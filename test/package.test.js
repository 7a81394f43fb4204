'use strict';
// @native-only: packs and installs the package with this machine's prebuild
const assert = require('assert');
const path = require('path');
const { spawnSync } = require('child_process');

describe('the published package', function () {
  it("packs this machine's prebuild, installs two packages into empty projects (with and without compiling) and works there", function () {
    this.timeout(600000);
    const res = spawnSync(process.execPath, [path.join(__dirname, '..', 'scripts', 'package-test.js')],
      { encoding: 'utf8', maxBuffer: 64 << 20 });
    assert.strictEqual(res.status, 0, `${res.stdout}\n${res.stderr}`);
    const host = `prebuilds/${process.platform}-${process.arch}/fast-hash.glibc.node`;
    const re = (text) => new RegExp(text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
    assert.match(res.stdout, /No problems found/); // attw
    assert.match(res.stdout, /ok - installs 2 packages: fast-hash, node-gyp-build\n/);
    assert.match(res.stdout, re(`ok - the tarball holds exactly ${host}\n`));
    assert.match(res.stdout, re(`ok - ${host}: ${process.arch}, stripped, needs GLIBC_`));
    assert.match(res.stdout, re(`ok - ${host} loads on node ${process.version}:`));
    assert.match(res.stdout, /ok - require\(\) hashes[\s\S]*ok - types check as module/);
    assert.match(res.stdout, /ok - npm rebuild fast-hash: npm's node-gyp/);
    assert.match(res.stdout, /ok - npm install, FAST_HASH_FORCE_BUILD=1: npm's node-gyp/);
    assert.match(res.stdout, /package test passed/);
  });
});
