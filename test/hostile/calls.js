'use strict';
// The functions the random hostile-argument tests call: for each, the
// arbitraries of its arguments, how to call it, and what it must do with
// the arguments it was given (the oracle's answer); runOne() makes one
// call from specs and judges it.
const crypto = require('crypto');
const fh = require('../..');
const {
  ALG, DATA, KEY, MAC, MACENC, OPTS, INPUTS, PATH,
} = require('./arbitraries');
const {
  ENC, algRef, optionsRef, lengthRef, dataRef, keyRef, macRef, macEncRef, macMatches, inputsRef, pathRef,
  digestOut, hmacOut, expectFrom,
} = require('./oracle');
const { Ctx, judge, trace } = require('./judge');
const { container, make, fmtSpec } = require('../fixtures/hostile-values');

const hashLike = (A, D, O) => {
  const L = lengthRef(A, O);
  return expectFrom([A, D, O, L], () => digestOut(A.ok, D.ok, O.ok.enc, L.ok));
};
function verifyExpect(a, m) {
  const A = algRef(a[0], true);
  const K = keyRef(a[1]);
  const D = dataRef(a[2]);
  const E = macEncRef(a[4]);
  const M = macRef(a[3]);
  return expectFrom([A, K, D, E, M], () => macMatches(M.ok, E.ok, m !== undefined ? m : crypto.createHmac(A.ok.name, K.ok).update(D.ok).digest()));
}
// The MAC argument a rightMac spec stands for: the right MAC (maybe with a
// bit flipped) in its encoding, or as bytes.
function macFor(spec, right) {
  const mac = Buffer.from(right);
  if (spec.flip && mac.length) mac[(spec.bit >>> 3) % mac.length] ^= 1 << (spec.bit & 7);
  if (spec.asBytes) return container(mac, spec.asBytes, 1);
  const enc = spec.enc === undefined ? 'hex' : ENC.get(spec.enc.toLowerCase());
  let s = mac.toString(enc);
  if (enc === 'hex' && spec.upper) s = s.toUpperCase();
  if (enc === 'base64' && spec.unpadded) s = s.replace(/=+$/, '');
  if (enc === 'base64url' && spec.unpadded) s += '='.repeat((4 - (s.length % 4)) % 4);
  return s;
}
function rightMacOf(a) {
  const A = algRef(a[0], true);
  const K = keyRef(a[1]);
  const D = dataRef(a[2]);
  if ('ok' in A && 'ok' in K && 'ok' in D) return crypto.createHmac(A.ok.name, K.ok).update(D.ok).digest();
  return Buffer.alloc(32, 1);
}

const SYNC = {
  hash: {
    args: [ALG, DATA, OPTS],
    run: (a, x) => fh.hash(...a, ...x),
    expect: (a) => hashLike(algRef(a[0], false), dataRef(a[1]), optionsRef(a[2], true)),
  },
  hmac: {
    args: [ALG, KEY, DATA, OPTS],
    run: (a, x) => fh.hmac(...a, ...x),
    expect: (a) => {
      const A = algRef(a[0], true);
      const K = keyRef(a[1]);
      const D = dataRef(a[2]);
      const O = optionsRef(a[3], false);
      return expectFrom([A, K, D, O], () => hmacOut(A.ok, K.ok, D.ok, O.ok.enc));
    },
  },
  verifyHmac: {
    args: [ALG, KEY, DATA, MAC, MACENC],
    run: (a, x) => fh.verifyHmac(...a, ...x),
    expect: (a) => verifyExpect(a),
  },
  hashMany: {
    args: [ALG, INPUTS, OPTS],
    run: (a, x) => fh.hashMany(...a, ...x),
    expect: (a) => {
      const A = algRef(a[0], false);
      const I = inputsRef(a[1]);
      const O = optionsRef(a[2], true);
      const L = lengthRef(A, O);
      return expectFrom([A, I, O, L], () => I.ok.map((d) => digestOut(A.ok, d, O.ok.enc, L.ok)));
    },
  },
  hashFileSync: {
    args: [ALG, PATH, OPTS],
    run: (a, x) => fh.hashFileSync(...a, ...x),
    expect: (a) => hashLike(algRef(a[0], false), pathRef(a[1]), optionsRef(a[2], true)),
  },
  getHashes: {
    args: [],
    run: (a, x) => fh.getHashes(...x),
    expect: () => ({ ok: true, value: [...new Set(crypto.getHashes())].sort() }),
  },
};
const ASYNC = {
  hashAsync: SYNC.hash,
  hmacAsync: SYNC.hmac,
  hashFile: SYNC.hashFileSync,
};

// Builds one call's arguments (rightMac specs last: they need the others).
function buildArgs(specs, ctx) {
  const args = specs.map((s) => (s.k === 'rightMac' ? undefined : make(s, ctx)));
  specs.forEach((s, i) => {
    if (s.k !== 'rightMac') return;
    args[i] = macFor(s, rightMacOf(args));
    if (s.asBytes === null) args[4] = s.enc; // the MAC's encoding goes with it
  });
  return args;
}
const describeCall = (fn, specs, extra) => `${fn}(${[...specs, ...extra].map(fmtSpec).join(', ')})`;

function runOne(fn, entry, specs, extraSpecs) {
  const ctx = new Ctx();
  const args = buildArgs(specs, ctx);
  const extra = extraSpecs.map((s) => make(s, ctx));
  const exp = entry.expect(args);
  const example = () => describeCall(fn, specs, extraSpecs);
  trace(example);
  let outcome;
  try {
    outcome = { value: entry.run(args, extra) };
  } catch (e) {
    outcome = { threw: e };
  }
  judge(fn, exp, ctx, outcome, example);
  return outcome;
}


module.exports = { SYNC, ASYNC, macFor, buildArgs, describeCall, runOne };
