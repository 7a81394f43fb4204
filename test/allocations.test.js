'use strict';
// @native-only: counts the addon's native allocations (LD_PRELOAD), which the JS implementation has none of
// No native heap allocation per call on the hot paths: hash() with Buffer or
// short string input (the low-level structs and the provider path), hmac(),
// HmacKey#digest and the hashers of createHasher() and hmacKey.createHasher(). Counted by the benchmark's LD_PRELOAD counter
// (benchmark/alloc), in child processes; the controls prove the counter sees
// allocations, so these assertions can fail.
const assert = require('assert');
const { count } = require('../benchmark/alloc/run');
const { describeNative } = require('./common');

describeNative('native allocations per call', function () {
  it('are zero for hash, hmac, HmacKey#digest and hashers, and seen where they happen', function () {
    // Linux only (glibc, LD_PRELOAD); not under the sanitizers, whose malloc
    // must come first in the process (npm run test:sanitize preloads ASan).
    if (process.platform !== 'linux' || /libasan/.test(process.env.LD_PRELOAD || '')) this.skip();
    this.timeout(120000);
    const lines = [];
    const { code, rows } = count(20000, (line) => lines.push(line));
    assert.strictEqual(code, 0, lines.join('\n'));
    const main = (prefix) => {
      const row = rows.find((r) => r.name.startsWith(prefix));
      assert.ok(row, `no row ${prefix}`);
      return row.main;
    };
    for (const prefix of ["hash('sha256', 64B Buffer) -> hex", "hash('sha256', 64-char string)",
      "hash('sha3-256', 64B Buffer)", "hmac('sha256', key, 64B Buffer)", 'HmacKey#digest(64B Buffer)']) {
      assert.ok(main(prefix) < 0.01, `${prefix}: ${main(prefix)} allocations per call`);
    }
    // Hashers of the MD5/SHA-1/SHA-2 family: none per createHasher, update,
    // copy or digest either (states are slots of the addon's store, stages
    // reused from finished hashers); what shows is V8's own bookkeeping,
    // amortised (hash() above shows ~0.004), under 0.02 with room for load.
    for (const prefix of ["createHasher('sha256').update(64B)", "createHasher('sha256').update(300B)",
      'Hasher#update(64B)', 'Hasher#update(300B)', 'Hasher#copy()', 'hmacKey.createHasher()']) {
      assert.ok(main(prefix) < 0.02, `${prefix}: ${main(prefix)} allocations per call`);
    }
    // 'buffer' output: only a new 8 KiB pool now and then.
    assert.ok(main("hash('sha256', 64B Buffer, 'buffer')") < 0.1);
    assert.ok(main('control: new ArrayBuffer(1024)') >= 1);
    assert.ok(main('createHash(') >= 1);
  });
});
