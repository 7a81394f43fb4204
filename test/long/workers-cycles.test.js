'use strict';
// 200 worker_threads create/terminate cycles (most terminated while busy:
// in sync and async hashes, HmacKeys, hashFile) leave RSS flat: a leak of a
// cycle's environment, jobs or keys would grow it. The case runs as a child
// of test/workers.test.js (its 'cycles' case, with the workers' code there);
// this is its test, in npm run test:long for its time (about 30 s).
const assert = require('assert');
const path = require('path');
const { childResult } = require('../child');
const { FIXED_MMAP_ENV } = require('../common');

const WORKERS = path.join(__dirname, '..', 'workers.test.js');

describe('worker_threads cycles', function () {
  // 40 MB: far below what any leak of a cycle's environment, jobs or keys adds, far above the noise (benchmark/README.md, "Worker cycles").
  it('200 create/terminate cycles (most terminated while busy) leave RSS flat (< 40 MB from cycle 20 to 200)', function () {
    // Not under AddressSanitizer: its allocator keeps per-thread caches and
    // shadow memory for every thread it has seen, so 200 worker threads
    // grow RSS by over 100 MB with or without fast-hash (the uninstrumented
    // run and valgrind's leak check cover this).
    if (/libasan/.test(process.env.LD_PRELOAD || '')) this.skip();
    this.timeout(180000);
    const started = Date.now();
    const { report, errors, bad } = childResult(WORKERS, ['cycles'], { timeout: 170000, env: FIXED_MMAP_ENV });
    console.log(`      [cycles] ${Date.now() - started} ms: ${JSON.stringify(report)}`);
    assert.deepStrictEqual(errors.slice(0, 3), [], `${errors.length} worker errors`);
    assert.deepStrictEqual(bad, [], 'wrong results in workers');
    assert.strictEqual(report.cycles, 200);
    assert.ok(report.growthMB < 40, `RSS grew ${report.growthMB} MB from cycle 20 to 200`);
  });
});
