'use strict';
// Named hostile cases (the table tests, test/hostile-*.test.js): each test
// file lists its cases with add(name, thunk, expect[, isAsync]), and
// runTable() makes the calls and judges them. expect is one of
//   { value }                     exactly this result
//   { code }                      a throw with this code
//   { coded }                     a throw with some code
//   { sentinel }                  the caller's own exception, unchanged
//   { oneOf: [values], orCoded }  one of these results (or a coded throw)
//   { check, orCoded }            a result check(result) says true of
// with orValue / orAnyValue / orSentinel / orCoded allowing more.
const fh = require('../..');
const {
  tally, fail, show, errText, isCoded, trace, Ctx, settle, judgeAsync,
} = require('./judge');
const { algRef, digestOut, hmacOut } = require('./oracle');

// node:crypto's digest and HMAC of strings or bytes, as the cases want them.
const H = (alg, data, enc = 'hex', opts) => digestOut(algRef(alg).ok, typeof data === 'string' ? data : Buffer.from(data), enc, opts);
const HM = (alg, key, data, enc = 'hex') => hmacOut(algRef(alg, true).ok, typeof key === 'string' ? key : Buffer.from(key), typeof data === 'string' ? data : Buffer.from(data), enc);
const EMPTY = Buffer.alloc(0);
// An HmacKey made once per child, over 'table key' (sha256).
let key;
const tableKey = () => key || (key = fh.createHmacKey('sha256', 'table key'));

// A list of cases and the add() that fills it.
function newTable() {
  const cases = [];
  const add = (name, thunk, expect, isAsync = false) => cases.push({ name, thunk, expect, isAsync });
  return { cases, add };
}

// Runs the cases one after another; returns the note for the report.
async function runTable(cases) {
  for (const c of cases) {
    const ctx = new Ctx();
    for (const k of ['sentinel', 'orSentinel']) {
      if (c.expect[k] instanceof Ctx) for (const s of c.expect[k].sentinels) ctx.sentinels.add(s);
      else if (k === 'sentinel' && c.expect[k] !== undefined) ctx.sentinels.add(c.expect[k]);
    }
    trace(c.name);
    let out;
    if (c.isAsync) {
      out = await settle(c.thunk);
      if ('sync' in out || 'notPromise' in out || out.hung) {
        judgeAsync(c.name, {}, ctx, out, c.name);
        continue;
      }
    } else {
      try {
        out = { value: c.thunk() };
      } catch (e) {
        out = { threw: e };
      }
    }
    judgeTable(c, ctx, out);
  }
  return `${cases.length} named cases`;
}

function judgeTable(c, ctx, out) {
  tally.calls++;
  if ('value' in out) tally.results++;
  else if (isCoded(out.threw)) tally.coded++;
  else if (out.threw === c.expect.sentinel || (c.expect.orSentinel instanceof Ctx && c.expect.orSentinel.sentinels.has(out.threw))) tally.passedThrough++;
  const x = c.expect;
  const where = c.name.split(/[: ]/)[0];
  if ('value' in out) {
    const got = out.value;
    if (x.orAnyValue || (x.orValue === true)) return;
    if ('value' in x) {
      if (show(got) !== show(x.value)) fail(where, `wrong result: ${c.name} || got ${show(got).slice(0, 160)}, want ${show(x.value).slice(0, 160)}`, c.name);
      return;
    }
    if (x.orValue !== undefined && x.orValue !== false) {
      if (show(got) !== show(x.orValue)) fail(where, `wrong result: ${c.name} || got ${show(got).slice(0, 160)}, want ${show(x.orValue).slice(0, 160)} or a coded error`, c.name);
      return;
    }
    if (x.oneOf) {
      if (!x.oneOf.some((w) => show(w) === show(got))) fail(where, `wrong result: ${c.name} || got ${show(got).slice(0, 160)}, want one of ${x.oneOf.map((w) => show(w).slice(0, 70)).join(' | ')}`, c.name);
      return;
    }
    if (x.check) {
      const verdict = x.check(got);
      if (verdict !== true) fail(where, `wrong result: ${c.name} || ${verdict}`, c.name);
      return;
    }
    fail(where, `returned a result, expected ${x.sentinel !== undefined ? 'the getter\'s exception' : x.code || 'a coded error'}: ${c.name} || ${show(got).slice(0, 100)}`, c.name);
    return;
  }
  const e = out.threw;
  if (x.sentinel !== undefined) {
    if (e !== x.sentinel) fail(where, `replaced the exception of the caller's getter/trap with ${ctx.sentinels.has(e) ? 'another sentinel' : errText(e)}`, c.name);
    return;
  }
  if (x.orSentinel instanceof Ctx && x.orSentinel.sentinels.has(e)) return;
  if (!isCoded(e)) {
    fail(where, `threw without a code: ${errText(e)}`, c.name);
    return;
  }
  if (x.code !== undefined) {
    if (e.code !== x.code) fail(where, `threw ${e.code} (${e.message.slice(0, 100)}), expected ${x.code}`, c.name);
    return;
  }
  if (x.coded || x.orCoded) return;
  fail(where, `threw on valid arguments: ${errText(e).slice(0, 200)}`, c.name);
}

module.exports = { H, HM, EMPTY, tableKey, newTable, runTable };
