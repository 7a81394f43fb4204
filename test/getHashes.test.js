'use strict';
const assert = require('assert');
const crypto = require('crypto');
const { getHashes, hash } = require('..');

describe('getHashes()', function () {
  it('is sorted, without duplicates, and lists every name crypto.getHashes() does', function () {
    const names = getHashes();
    assert.deepStrictEqual(names, [...new Set(names)].sort());
    for (const name of crypto.getHashes()) assert.ok(names.includes(name), name);
  });

  it('names only algorithms hash() accepts, with node:crypto\'s result', function () {
    for (const name of getHashes()) {
      assert.strictEqual(hash(name, 'abc'), crypto.createHash(name).update('abc').digest('hex'), name);
    }
  });

  it('returns a fresh array each time', function () {
    const a = getHashes();
    a.length = 0;
    assert.ok(getHashes().length > 0);
    assert.notStrictEqual(getHashes(), getHashes());
  });
});
