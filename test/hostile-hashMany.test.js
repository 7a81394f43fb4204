'use strict';
// hashMany's array argument: holes, element getters (throwing, changing
// their answer between the check and the digest), proxies, its own
// iterator, slice() and species (never used: the elements are read by
// index), arrays that contain themselves, are huge, sparse or frozen.
const fh = require('..');
const { constants: { MAX_LENGTH } } = require('buffer');
const { bytes: prng } = require('./common');
const { hostileTest } = require('./hostile/harness');
const { show, Ctx } = require('./hostile/judge');
const { visibleBytes } = require('./hostile/oracle');
const { H, newTable, runTable } = require('./hostile/table');
const { container, CONTAINERS } = require('./fixtures/hostile-values');

// hashMany's array: holes, getters, proxies, iterators, species.
function arrayCases(add) {
  const ctx = new Ctx();
  const s = ctx.sentinel();
  const items = ['a', Buffer.from('b'), new ArrayBuffer(2)];
  const want = [H('sha256', 'a'), H('sha256', 'b'), H('sha256', Buffer.alloc(2))];
  add('hashMany: a hole', () => fh.hashMany('sha256', ['a', , 'c']), { code: 'ERR_INVALID_ARG_TYPE' }); // eslint-disable-line no-sparse-arrays
  add('hashMany: an element getter that throws', () => fh.hashMany('sha256', Object.defineProperty(['a', 'b'], 1, { get() { throw s; } })), { sentinel: s });
  add('hashMany: an element getter that throws, past the first chunk', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `x${i}`);
    Object.defineProperty(a, 2500, { get() { throw s; } });
    return fh.hashMany('sha256', a);
  }, { sentinel: s });
  add('hashMany: an element getter returning a constant', () => fh.hashMany('sha256', Object.defineProperty([...items], 0, { get: () => 'a' })), { value: want });
  add('hashMany: a transparent Proxy of the array', () => fh.hashMany('sha256', new Proxy([...items], {})), { value: want });
  add('hashMany: a Proxy whose get trap throws', () => fh.hashMany('sha256', new Proxy([...items], { get() { throw s; } })), { sentinel: s });
  add('hashMany: an element that is "a" at the check, a Symbol afterwards', () => {
    let n = 0;
    return fh.hashMany('sha256', Object.defineProperty(['x'], 0, { get: () => (n++ === 0 ? 'a' : Symbol('later')) }));
  }, { check: (got) => (Array.isArray(got) && got.length === 1) || `got ${show(got)}`, orCoded: true });
  add('hashMany: an element that is a string at the check, an ArrayBuffer afterwards', () => {
    let n = 0;
    return fh.hashMany('sha256', Object.defineProperty(['x'], 0, { get: () => (n++ === 0 ? 'a' : new ArrayBuffer(4)) }));
  }, { check: (got) => (Array.isArray(got) && got.length === 1) || `got ${show(got)}`, orCoded: true });
  add('hashMany: an own Symbol.iterator that yields other values', () => {
    const a = [...items];
    a[Symbol.iterator] = function* () { yield 'evil'; yield 'evil'; yield 'evil'; };
    return fh.hashMany('sha256', a);
  }, { value: want });
  add('hashMany: an own Symbol.iterator that yields nothing', () => {
    const a = ['a', 'b'];
    a[Symbol.iterator] = function* () {};
    return fh.hashMany('sha256', a);
  }, { value: [H('sha256', 'a'), H('sha256', 'b')] });
  add('hashMany: an own Symbol.iterator that throws', () => {
    const a = ['a', 'b'];
    a[Symbol.iterator] = () => { throw s; };
    return fh.hashMany('sha256', a);
  }, { value: [H('sha256', 'a'), H('sha256', 'b')], orSentinel: ctx });
  add('hashMany: an Array subclass with its own iterator', () => {
    class Odd extends Array { * [Symbol.iterator]() { yield 'odd'; } }
    return fh.hashMany('sha256', Odd.from(['a']));
  }, { value: [H('sha256', 'a')] });
  add('hashMany: Array.prototype[Symbol.iterator] replaced', () => {
    const saved = Array.prototype[Symbol.iterator];
    // eslint-disable-next-line no-extend-native
    Array.prototype[Symbol.iterator] = function* () { yield 'patched'; };
    try {
      return fh.hashMany('sha256', ['a', 'b']);
    } finally {
      // eslint-disable-next-line no-extend-native
      Array.prototype[Symbol.iterator] = saved;
    }
  }, { value: [H('sha256', 'a'), H('sha256', 'b')] });
  add('hashMany: a Symbol.species that makes a non-iterable copy', () => {
    const a = ['a', new ArrayBuffer(2)];
    a.constructor = { [Symbol.species]: function Plain() { return {}; } };
    return fh.hashMany('sha256', a);
  }, { value: [H('sha256', 'a'), H('sha256', Buffer.alloc(2))] });
  add('hashMany: an own slice() that returns other values', () => {
    const a = ['a', new ArrayBuffer(2)];
    a.slice = () => ['evil', 'evil'];
    return fh.hashMany('sha256', a);
  }, { value: [H('sha256', 'a'), H('sha256', Buffer.alloc(2))] });
  add('hashMany: an array that contains itself', () => { const a = ['a']; a.push(a); return fh.hashMany('sha256', a); }, { code: 'ERR_INVALID_ARG_TYPE' });
  add('hashMany: a sparse array of length 2**32-1', () => { const a = []; a.length = 2 ** 32 - 1; return fh.hashMany('sha256', a); }, { code: 'ERR_INVALID_ARG_TYPE' });
  add('hashMany: 5000 mixed elements', () => fh.hashMany('sha3-256', Array.from({ length: 5000 }, (_, i) => (i % 2 ? `s${i}` : container(prng(i % 70, i), CONTAINERS[i % CONTAINERS.length], i % 4)))),
    { check: (got) => (Array.isArray(got) && got.length === 5000 && got.every((g, i) => g === H('sha3-256', i % 2 ? `s${i}` : visibleBytes(container(prng(i % 70, i), CONTAINERS[i % CONTAINERS.length], i % 4))))) || 'wrong results' });
  // (Node 22+ makes Buffers of 2^53 - 1 bytes: there it is only large.)
  if (3 * 2 ** 31 > MAX_LENGTH) add('hashMany: shake128 with outputLength 2**31 for three inputs (too large a Buffer)', () => fh.hashMany('shake128', ['a', 'b', 'c'], { outputLength: 2 ** 31, outputEncoding: 'buffer' }), { coded: true });
  add('hashMany: a frozen array', () => fh.hashMany('sha256', Object.freeze([...items])), { value: want });
}

hostileTest(module, 'hashMany: holes, getters, proxies, iterators and species in its array', () => {
  const { cases, add } = newTable();
  arrayCases(add);
  return runTable(cases);
});
