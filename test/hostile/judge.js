'use strict';
// The bookkeeping and the verdicts of the hostile-argument children
// (test/hostile-*.test.js): the caller's own code (sentinels thrown by
// getters and proxy traps, recognised by identity), and judge(), which holds
// an outcome against what the call must do. Every distinct failure is kept
// once, with its shortest example, for report().
const fs = require('fs');
const { types: { isProxy, isUint8Array } } = require('util');

const TRACE = process.env.HOSTILE_TRACE === '1';
// With HOSTILE_TRACE=1 every call is named on stderr before it is made, so
// the last line names the call that crashed.
const trace = (text) => { if (TRACE) fs.writeSync(2, `CALL ${typeof text === 'function' ? text() : text}\n`); };

// ---- bookkeeping ----------------------------------------------------------------
// One child runs one test file's cases: these counts and failures are its.
const tally = { calls: 0, results: 0, coded: 0, passedThrough: 0 };
const failures = new Map();
// Text after ' || ' is detail, left out of the grouping.
const normalize = (s) => String(s).split(' || ')[0].replace(/(operator to search for '[^']*' in ).*$/, '$1…').replace(/"[^"]*"|'[^']*'/g, '"…"').replace(/\b[0-9a-f]{16,}\b/g, '<hex>')
  .replace(/\d+/g, 'N').slice(0, 240);
// Failures are grouped by what went wrong (errors: across functions;
// wrong results: per function), each with its shortest example.
function fail(fn, what, example) {
  const perFunction = /^(wrong result|returned|threw the caller|replaced|threw [A-Z_]+ ?\(|threw [A-Z_]+, expected|threw on valid)/.test(what);
  const sig = perFunction ? `${fn}: ${normalize(what)}` : normalize(what);
  const text = typeof example === 'function' ? example() : example;
  const known = failures.get(sig);
  if (!known) {
    failures.set(sig, { sig, count: 1, fns: new Set([fn]), what: String(what).slice(0, 600), example: text.slice(0, 1500) });
  } else {
    known.count++;
    known.fns.add(fn);
    if (text.length < known.example.length) {
      known.example = text.slice(0, 1500);
      known.what = String(what).slice(0, 600);
    }
  }
}
const report = (note) => ({
  calls: tally.calls, note: `${note}; ${tally.results} results checked, ${tally.coded} coded errors, ${tally.passedThrough} caller exceptions passed through`, failures: [...failures.values()].map((f) => ({ ...f, fns: [...f.fns].join(', ') })),
});

// Formats values and specs for messages, without running user code.
function fmt(v, depth = 0) {
  try {
    if (typeof v === 'string') return v.length > 60 ? `${JSON.stringify(v.slice(0, 40))}…(${v.length} chars)` : JSON.stringify(v);
    if (typeof v === 'bigint') return `${v}n`;
    if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
    if (typeof v === 'symbol') return v.toString();
    if (v === undefined || v === null || typeof v === 'boolean') return String(v);
    if (typeof v === 'function') return `[function ${v.name || 'anonymous'}]`;
    if (isProxy(v)) return '[Proxy]';
    if (Buffer.isBuffer(v)) return `<Buffer ${v.length > 24 ? `${v.subarray(0, 24).toString('hex')}…(${v.length})` : v.toString('hex')}>`;
    if (isUint8Array(v) && Object.getPrototypeOf(v) === Uint8Array.prototype) return `Uint8Array<${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex').slice(0, 48)}${v.length > 24 ? `…(${v.length})` : ''}>`;
    if (Array.isArray(v)) return depth > 3 ? '[…]' : `[${v.slice(0, 8).map((x) => fmt(x, depth + 1)).join(', ')}${v.length > 8 ? `, …(${v.length})` : ''}]`;
    if (Object.getPrototypeOf(v) === Object.prototype && depth <= 3) {
      return `{ ${Object.keys(v).map((k) => `${k}: ${fmt(v[k], depth + 1)}`).join(', ')} }`;
    }
    return `[object ${Object.prototype.toString.call(v).slice(8, -1)}]`;
  } catch {
    return '[unprintable]';
  }
}
function show(v) {
  try {
    if (Buffer.isBuffer(v)) return `<Buffer ${v.toString('hex')}>`;
    if (Array.isArray(v)) return `[${v.map(show).join(', ')}]`;
    if (typeof v === 'string') return JSON.stringify(v);
    if (typeof v === 'object' && v !== null) return `object ${fmt(v)}`;
    return `${typeof v}:${String(v)}`;
  } catch {
    return '[unprintable]';
  }
}
const errText = (e) => {
  try {
    if (e instanceof Error) return `${e.name}${e.code !== undefined ? ` [${fmt(e.code)}]` : ''}: ${e.message}`;
    return `non-Error thrown: ${fmt(e)}`;
  } catch {
    return 'unprintable exception';
  }
};
const isCoded = (e) => e instanceof Error && typeof e.code === 'string';

// ---- user code: sentinels, getters, proxies ----------------------------------------
// Everything the caller's own code throws is a fresh sentinel, recorded per call.
let sentinelKind = 0;
class Ctx {
  constructor() {
    this.sentinels = new Set();
  }

  sentinel() {
    const k = sentinelKind++ % 3;
    const s = k === 0 ? new Error('user sentinel') : k === 1 ? { userSentinel: sentinelKind } : Symbol('user sentinel');
    this.sentinels.add(s);
    return s;
  }
}
const GETTERS = new WeakMap(); // accessor -> { throws } | { returns }
const THROWERS = new WeakMap(); // method -> sentinel it throws
const PROXIES = new WeakMap(); // proxy -> { mode, target, sentinel }
const throwing = (ctx) => {
  const s = ctx.sentinel();
  const f = function () { throw s; };
  GETTERS.set(f, { throws: s });
  THROWERS.set(f, s);
  return f;
};
const returning = (value) => {
  const f = function () { return value; };
  GETTERS.set(f, { returns: value });
  return f;
};
const TRAPS = ['getPrototypeOf', 'setPrototypeOf', 'isExtensible', 'preventExtensions', 'getOwnPropertyDescriptor',
  'defineProperty', 'has', 'get', 'set', 'deleteProperty', 'ownKeys', 'apply', 'construct'];
function throwAllProxy(target, ctx, handlerIsProxy) {
  const s = ctx.sentinel();
  const thrower = () => { throw s; };
  const handler = handlerIsProxy ? new Proxy({}, { get: thrower }) :
    Object.fromEntries(TRAPS.map((t) => [t, thrower]));
  const p = new Proxy(target, handler);
  PROXIES.set(p, { mode: 'throwAll', target, sentinel: s });
  return p;
}
function revokedProxy(target) {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  PROXIES.set(proxy, { mode: 'revoked', target });
  return proxy;
}
function transparentProxy(target) {
  const p = new Proxy(target, {});
  PROXIES.set(p, { mode: 'transparent', target });
  return p;
}

// [[Get]] as the shim performs it, worked out without running user code:
// { value } | { user: sentinel, must: true } | { bad } | { unknown }.
function safeGet(obj, key) {
  let o = obj;
  for (let depth = 0; o !== null && o !== undefined && depth < 64; depth++) {
    if (isProxy(o)) {
      const p = PROXIES.get(o);
      if (!p) return { unknown: true };
      if (p.mode === 'throwAll') return { user: p.sentinel, must: true };
      if (p.mode === 'revoked') return { bad: undefined };
      o = p.target;
      continue;
    }
    const d = Object.getOwnPropertyDescriptor(o, key);
    if (d) {
      if ('value' in d) return { value: d.value };
      if (d.get === undefined) return { value: undefined };
      const g = GETTERS.get(d.get);
      if (!g) return { unknown: true };
      return 'throws' in g ? { user: g.throws, must: true } : { value: g.returns };
    }
    o = Object.getPrototypeOf(o);
  }
  return { value: undefined };
}

// Judges one outcome ({ value } or { threw }) against what was expected.
function judge(fn, exp, ctx, outcome, example) {
  tally.calls++;
  if ('value' in outcome) tally.results++;
  else if (ctx.sentinels.has(outcome.threw)) tally.passedThrough++;
  else if (isCoded(outcome.threw)) tally.coded++;
  if ('value' in outcome) {
    if (exp.any) return;
    if (!exp.ok) {
      fail(fn, `returned a result for an invalid argument (expected a throw${exp.code ? ` with ${exp.code}` : ''}) || ${show(outcome.value).slice(0, 100)}`, example);
      return;
    }
    const want = typeof exp.check === 'function' ? null : show(exp.value);
    const verdict = typeof exp.check === 'function' ? exp.check(outcome.value) : (show(outcome.value) === want || `got ${show(outcome.value).slice(0, 200)}, want ${want.slice(0, 200)}`);
    if (verdict !== true) fail(fn, `wrong result || ${verdict}`, example);
    return;
  }
  const e = outcome.threw;
  if (ctx.sentinels.has(e)) {
    if (exp.ok) fail(fn, 'threw the caller\'s getter/trap exception for valid arguments (read something it must not)', example);
    return;
  }
  if (isCoded(e)) {
    if (exp.ok && !exp.orCoded) {
      fail(fn, `threw on valid arguments: ${errText(e)}`, example);
    } else if (exp.sentinel) {
      fail(fn, `replaced the exception of the caller's getter/trap with ${errText(e)}`, example);
    } else if (exp.code !== undefined && exp.code !== e.code) {
      fail(fn, `threw ${e.code}, expected ${exp.code}: ${e.message.slice(0, 150)}`, example);
    }
    return;
  }
  if (e instanceof Error || typeof e !== 'object' || e === null) {
    fail(fn, `threw without a code: ${errText(e)}`, example);
  } else {
    fail(fn, `threw a foreign value: ${errText(e)}`, example);
  }
}


// Runs an async function: it must return a promise (never throw), which
// must settle.
async function settle(thunk) {
  let p;
  try {
    p = thunk();
  } catch (e) {
    return { sync: e };
  }
  if (!(p instanceof Promise)) return { notPromise: p };
  let timer;
  const timeout = new Promise((resolve) => { timer = setTimeout(() => resolve({ hung: true }), 30000); });
  try {
    return await Promise.race([p.then((value) => ({ value }), (threw) => ({ threw })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
function judgeAsync(fn, exp, ctx, out, example) {
  if ('sync' in out) {
    tally.calls++;
    fail(fn, `threw synchronously instead of rejecting: ${errText(out.sync)}`, example);
  } else if ('notPromise' in out) {
    tally.calls++;
    fail(fn, `returned something that is not a promise || ${show(out.notPromise).slice(0, 60)}`, example);
  } else if (out.hung) {
    tally.calls++;
    fail(fn, 'the promise did not settle in 30 s', example);
  } else {
    judge(fn, exp, ctx, out, example);
  }
}

module.exports = {
  tally, fail, report, fmt, show, errText, isCoded, trace, Ctx, PROXIES, throwing, returning,
  throwAllProxy, revokedProxy, transparentProxy, safeGet, judge, settle, judgeAsync,
};
