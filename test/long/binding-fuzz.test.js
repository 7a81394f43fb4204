'use strict';
// @native-only: calls the native binding directly
// The native binding called directly with random arguments of every type
// (20000 calls): no crash, every error coded. The fuzzer is
// test/binding.test.js's child ('fuzz'), seeded: FAST_HASH_FUZZ_SEED=<n>
// replays a run, FAST_HASH_FUZZ_CALLS sets its length. In npm run
// test:long for its time (about 20 s).
const assert = require('assert');
const path = require('path');
const { childOutput } = require('../child');
const { describeNative } = require('../common');

const BINDING = path.join(__dirname, '..', 'binding.test.js');

describeNative('the native binding, called directly', function () {
  this.timeout(600000);

  it('random arguments of every type to every function: no crash, every error coded', function () {
    const seed = Number(process.env.FAST_HASH_FUZZ_SEED) || (Math.random() * 2 ** 32) >>> 0;
    const count = Number(process.env.FAST_HASH_FUZZ_CALLS) || 20000;
    const res = JSON.parse(childOutput(BINDING, ['fuzz', String(seed), String(count)], { flags: [], timeout: 300000 }));
    assert.strictEqual(res.count, 0,
      `${res.count} uncoded errors (FAST_HASH_FUZZ_SEED=${seed} to replay):\n${res.failures.join('\n')}`);
  });
});
