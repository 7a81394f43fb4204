'use strict';
// @native-only: checks scripts/test-js.js's selection, not an implementation
// scripts/test-js.js, npm test's run of the test files on the JavaScript
// implementation: every test file is run there, or says why not
// ("// @native-only: <why>" among its first lines), or is one of npm run
// test:long's; a new file cannot be left off in silence.
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { MARKER_LINES, MATRIX_ONLY, specFiles, nativeOnlyReason, jsFiles } = require('../scripts/test-js');

const ROOT = path.join(__dirname, '..');

// Every *.test.js under test/, relative to the root, found by walking the
// folder (not through the spec patterns the script reads).
function testFilesOnDisk(dir = 'test') {
  const found = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) found.push(...testFilesOnDisk(rel));
    else if (entry.name.endsWith('.test.js')) found.push(rel);
  }
  return found.sort();
}

describe('scripts/test-js.js (the test files on the JavaScript implementation)', function () {
  const onDisk = testFilesOnDisk();
  const inJs = jsFiles();
  const long = specFiles('.mocharc.long.json');

  it('finds the test files', function () {
    assert.ok(onDisk.length > 40, onDisk.join(' '));
    assert.ok(inJs.length > 20, inJs.join(' '));
    assert.ok(inJs.includes('test/hash.test.js'), inJs.join(' '));
  });

  it('every test file runs on the JS implementation, is marked @native-only with a reason, or is a test:long or hostile file', function () {
    const neither = onDisk.filter((f) => !inJs.includes(f) && !long.includes(f) && !nativeOnlyReason(f) &&
      !MATRIX_ONLY.test(f));
    assert.deepStrictEqual(neither, [], 'neither run on the JS implementation nor marked "// @native-only: <why>"');
  });

  it('every test file is in npm test\'s spec (.mocharc.json) or npm run test:long\'s (.mocharc.long.json)', function () {
    const specs = [...specFiles('.mocharc.json'), ...long];
    assert.deepStrictEqual(onDisk.filter((f) => !specs.includes(f)), []);
  });

  it('a marker gives its reason, and sits among the first lines, where the script reads it', function () {
    const bad = [];
    for (const f of onDisk) {
      const lines = fs.readFileSync(path.join(ROOT, f), 'utf8').split('\n');
      const at = lines.findIndex((l) => /@native-only\b/.test(l) && l.trim().startsWith('//'));
      if (at >= MARKER_LINES) bad.push(`${f}:${at + 1}: below line ${MARKER_LINES}, not read`);
      else if (at >= 0 && !nativeOnlyReason(f)) bad.push(`${f}:${at + 1}: no reason`);
    }
    assert.deepStrictEqual(bad, []);
  });

  it('the files marked @native-only are not run on the JS implementation', function () {
    const marked = onDisk.filter((f) => nativeOnlyReason(f) !== null);
    assert.ok(marked.length > 0);
    assert.deepStrictEqual(marked.filter((f) => inJs.includes(f)), []);
  });
});
