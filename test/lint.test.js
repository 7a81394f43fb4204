'use strict';
// @native-only: checks the sources, not an implementation
// npm run lint inside npm test: ESLint over the JavaScript and the
// clang-format check of the C (scripts/lint.js) pass on the tree as it is;
// and no two C files of the addon call each other (scripts/c-calls.js).
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { OBJ_DIR, symbolTables, callGraph, circles, callers } = require('../scripts/c-calls');

const ROOT = path.join(__dirname, '..');

describe('lint', function () {
  this.timeout(120000);

  it('ESLint and clang-format --dry-run --Werror find nothing (npm run lint)', function () {
    const res = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'lint.js')], { cwd: ROOT, encoding: 'utf8' });
    assert.strictEqual(res.status, 0, `scripts/lint.js exited ${res.status}\n${res.stdout}${res.stderr}`);
  });

  // The call graph of the built objects (nm). Skipped without them (a
  // prebuild install, Windows) or without nm.
  describe('C files calling each other (scripts/c-calls.js)', function () {
    let graph;
    before(function () {
      if (!fs.existsSync(OBJ_DIR) || spawnSync('nm', ['--version']).error) this.skip();
      graph = callGraph(symbolTables());
    });

    it('no circle: no C file calls, directly or round others, a file that calls it', function () {
      assert.ok(Object.keys(graph).length > 10, Object.keys(graph).join(' '));
      assert.deepStrictEqual(circles(graph), []);
    });

    it('module.c (the export table) is called by no other file', function () {
      assert.deepStrictEqual(callers(graph, 'module.c'), []);
    });

    it('circles() finds a pair and a longer round, and nothing in a chain', function () {
      assert.deepStrictEqual(circles({ 'a.c': ['b.c'], 'b.c': ['a.c'], 'c.c': [] }), [['a.c', 'b.c']]);
      assert.deepStrictEqual(circles({ 'a.c': ['b.c'], 'b.c': ['c.c'], 'c.c': ['a.c'], 'd.c': ['a.c'] }), [['a.c', 'b.c', 'c.c']]);
      assert.deepStrictEqual(circles({ 'a.c': ['b.c', 'c.c'], 'b.c': ['c.c'], 'c.c': [] }), []);
    });
  });
});
