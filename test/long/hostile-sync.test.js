'use strict';
// Random hostile values (fast-check) in every argument position of the
// synchronous exports (hash, hmac, verifyHmac, hashMany, hashFileSync,
// getHashes), and HmacKeys made from random arguments and then used,
// destroyed, collected and called with a foreign `this`. The generated
// values and what each call must do: test/hostile/.
const crypto = require('crypto');
const fc = require('fast-check');
const fh = require('../..');
const { hostileTest } = require('../hostile/harness');
const { ALG, KEY, EXTRA, KEY_OPS } = require('../hostile/arbitraries');
const { SYNC, macFor, buildArgs, runOne } = require('../hostile/calls');
const { fmt, trace, Ctx, judge } = require('../hostile/judge');
const {
  call, getterOf, algRef, optionsRef, dataRef, keyRef, macRef, macEncRef, macMatches, hmacOut, expectFrom,
} = require('../hostile/oracle');
const { make, fmtSpec } = require('../fixtures/hostile-values');

const protoOf = (k) => Object.getPrototypeOf(k);

// What createHmacKey(alg, key) must do: an HmacKey for alg, or the error.
function createHmacKeyExpect(a) {
  const A = algRef(a[0], true);
  const K = keyRef(a[1]);
  if (!expectFrom([A, K], () => null).ok) return expectFrom([A, K], () => null);
  return {
    ok: true,
    check: (k) => (k !== null && typeof k === 'object' && typeof k.digest === 'function' && k.algorithm === a[0].toLowerCase()) ||
      `not an HmacKey for ${fmt(a[0])}: ${fmt(k)}`,
  };
}

// One operation `o` on HmacKey k (made from keyArgs): what it must do and
// the call, or null for a garbage collection.
function keyOp(o, k, keyArgs, destroyed, ctx) {
  const A = algRef(keyArgs[0], true);
  const K = keyRef(keyArgs[1]);
  const state = destroyed ? { bad: 'ERR_INVALID_STATE' } : { ok: true };
  switch (o.op) {
    case 'digest': {
      const [data, opts] = [make(o.data, ctx), make(o.opts, ctx)];
      const D = dataRef(data);
      const O = optionsRef(opts, false);
      return { exp: expectFrom([D, O, state], () => hmacOut(A.ok, K.ok, D.ok, O.ok.enc)), thunk: () => k.digest(data, opts) };
    }
    case 'verify': {
      const data = make(o.data, ctx);
      let mac;
      let macEnc = make(o.macEnc, ctx);
      const D = dataRef(data);
      const right = 'ok' in D ? crypto.createHmac(A.ok.name, K.ok).update(D.ok).digest() : Buffer.alloc(A.ok.size);
      if (o.mac.k === 'rightMac') {
        mac = macFor(o.mac, right);
        if (o.mac.asBytes === null) macEnc = o.mac.enc;
      } else {
        mac = make(o.mac, ctx);
      }
      const E = macEncRef(macEnc);
      const M = macRef(mac);
      return { exp: expectFrom([D, E, M, state], () => macMatches(M.ok, E.ok, right)), thunk: () => k.verify(data, mac, macEnc) };
    }
    case 'destroy': {
      const extra = o.extra.map((s) => make(s, ctx));
      return { exp: { ok: true, value: undefined }, thunk: () => k.destroy(...extra) };
    }
    case 'algorithm':
      return { exp: { ok: true, value: keyArgs[0].toLowerCase() }, thunk: () => k.algorithm };
    case 'foreignThis': {
      const self = make(o.self, ctx);
      // another HmacKey is a fine `this`; anything else is ERR_INVALID_THIS
      const exp = o.self.k === 'named' && o.self.v === 'hmacKeyInstance' ? { any: true } : { ok: false, code: 'ERR_INVALID_THIS' };
      const thunk = o.method === 'algorithm' ? () => call(getterOf(protoOf(k), 'algorithm'), self) :
        () => Reflect.apply(protoOf(k)[o.method], self, ['data', 'mac']);
      return { exp, thunk };
    }
    default:
      return null;
  }
}

// createHmacKey(...specs), then the operations `ops` on the key it made.
function runHmacKey(specs, ops) {
  const outcome = runOne('createHmacKey', { run: (a) => fh.createHmacKey(...a), expect: createHmacKeyExpect }, specs, []);
  if (!('value' in outcome) || typeof outcome.value !== 'object' || outcome.value === null) return;
  const k = outcome.value;
  const keyArgs = buildArgs(specs, new Ctx());
  let destroyed = false;
  for (const o of ops) {
    const ctx = new Ctx();
    const example = () => `createHmacKey(${specs.map(fmtSpec).join(', ')}) then ${fmtSpec(o)}${destroyed ? ' (destroyed)' : ''}`;
    const op = keyOp(o, k, keyArgs, destroyed, ctx);
    if (op === null) {
      global.gc();
      continue;
    }
    trace(example);
    let out;
    try {
      out = { value: op.thunk() };
    } catch (e) {
      out = { threw: e };
    }
    judge(`HmacKey#${o.op === 'foreignThis' ? `${o.method} with a foreign this` : o.op}`, op.exp, ctx, out, example);
    if (o.op === 'destroy' && 'value' in out) destroyed = true;
  }
}

hostileTest(module, 'random hostile values in every argument position of the sync functions', async (seed) => {
  const callArb = fc.oneof(
    ...Object.entries(SYNC).map(([fn, entry]) => ({
      weight: fn === 'getHashes' ? 1 : 6,
      arbitrary: fc.record({ fn: fc.constant(fn), args: fc.tuple(...entry.args), extra: EXTRA }),
    })),
    { weight: 5, arbitrary: fc.record({ fn: fc.constant('createHmacKey'), args: fc.tuple(ALG, KEY), ops: KEY_OPS }) },
  );
  const runs = Number(process.env.HOSTILE_RUNS || 15000);
  for (const c of fc.sample(callArb, { numRuns: runs, seed })) {
    if (c.fn === 'createHmacKey') runHmacKey(c.args, c.ops);
    else runOne(c.fn, SYNC[c.fn], c.args, c.extra);
  }
  return `${runs} generated cases`;
});
