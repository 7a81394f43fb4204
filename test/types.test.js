'use strict';
// @native-only: type-checks index.d.ts, which is the same whichever implementation runs
const assert = require('assert');
const path = require('path');
const { spawnSync } = require('child_process');

describe('index.d.ts', function () {
  it('type-checks the overloads (string, Buffer, options) and refuses wrong arguments', function () {
    this.timeout(60000);
    const tsc = require.resolve('typescript/bin/tsc');
    const res = spawnSync(process.execPath, [tsc, '-p', path.join(__dirname, 'types')], { encoding: 'utf8' });
    assert.strictEqual(res.status, 0, res.stdout + res.stderr);
  });
});
