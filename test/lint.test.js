'use strict';
// npm run lint inside npm test: ESLint over the JavaScript and the
// clang-format check of src/ (scripts/lint.js) pass on the tree as it is.
const assert = require('assert');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.join(__dirname, '..');

describe('lint', function () {
  this.timeout(120000);

  it('ESLint and clang-format --dry-run --Werror find nothing (npm run lint)', function () {
    const res = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'lint.js')], { cwd: ROOT, encoding: 'utf8' });
    assert.strictEqual(res.status, 0, `scripts/lint.js exited ${res.status}\n${res.stdout}${res.stderr}`);
  });
});
