'use strict';
// Random hostile values (fast-check) in every argument position of the
// asynchronous exports (hashAsync, hmacAsync, hashFile): each must return a
// promise (never throw) that settles as the synchronous function's result
// or error would. The generated values and the oracle: test/hostile/.
const fc = require('fast-check');
const fh = require('..');
const { hostileTest } = require('./hostile/harness');
const { EXTRA } = require('./hostile/arbitraries');
const { ASYNC, buildArgs, describeCall } = require('./hostile/calls');
const { trace, Ctx, settle, judgeAsync } = require('./hostile/judge');
const { make } = require('./fixtures/hostile-values');

// Calls in flight at once.
const BATCH = 16;

async function runAsyncCall(c) {
  const ctx = new Ctx();
  const args = buildArgs(c.args, ctx);
  const extra = c.extra.map((s) => make(s, ctx));
  const exp = ASYNC[c.fn].expect(args);
  const example = () => describeCall(c.fn, c.args, c.extra);
  trace(example);
  judgeAsync(c.fn, exp, ctx, await settle(() => fh[c.fn](...args, ...extra)), example);
}

hostileTest(module, 'random hostile values in every argument position of hashAsync, hmacAsync and hashFile', async (seed) => {
  const callArb = fc.oneof(...Object.entries(ASYNC).map(([fn, entry]) =>
    fc.record({ fn: fc.constant(fn), args: fc.tuple(...entry.args), extra: EXTRA })));
  const runs = Number(process.env.HOSTILE_ASYNC_RUNS || 6000);
  const samples = fc.sample(callArb, { numRuns: runs, seed });
  for (let i = 0; i < samples.length; i += BATCH) await Promise.all(samples.slice(i, i + BATCH).map(runAsyncCall));
  return `${runs} generated cases`;
});
