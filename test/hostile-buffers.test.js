'use strict';
// Hostile bytes in every position that takes binary data: detached,
// resizable (shrunk, grown, tracked) and growable shared buffers, views
// whose own properties and methods throw, and data that an options getter
// detaches, shrinks or replaces between the argument checks and the digest.
// Each call gives the digest of the bytes JS sees (or, where the bytes are
// gone, a coded error), never a crash.
const fh = require('..');
const { bytes: prng } = require('./common');
const { hostileTest } = require('./hostile/harness');
const { show, Ctx } = require('./hostile/judge');
const { visibleBytes } = require('./hostile/oracle');
const {
  H, HM, EMPTY, tableKey, newTable, runTable,
} = require('./hostile/table');
const { detach, NAMED } = require('./fixtures/hostile-values');

// Where a hostile binary value can go, and what the call gives for given bytes.
const POSITIONS = [
  ['hash data', (v) => fh.hash('sha256', v), (b) => H('sha256', b)],
  ['hash data (shake256, 40 bytes, base64)', (v) => fh.hash('shake256', v, { outputLength: 40, outputEncoding: 'base64' }), (b) => H('shake256', b, 'base64', 40)],
  ['hash data (sha3-256, buffer)', (v) => fh.hash('sha3-256', v, 'buffer'), (b) => H('sha3-256', b, 'buffer')],
  ['hmac key', (v) => fh.hmac('sha512', v, 'message'), (b) => HM('sha512', b, 'message')],
  ['hmac data', (v) => fh.hmac('blake2b512', 'key', v, 'base64url'), (b) => HM('blake2b512', 'key', b, 'base64url')],
  ['verifyHmac key', (v) => fh.verifyHmac('sha256', v, 'm', HM('sha256', EMPTY, 'm')), (b) => HM('sha256', b, 'm') === HM('sha256', EMPTY, 'm')],
  ['verifyHmac data', (v) => fh.verifyHmac('sha1', 'k', v, HM('sha1', 'k', EMPTY)), (b) => HM('sha1', 'k', b) === HM('sha1', 'k', EMPTY)],
  ['verifyHmac mac', (v) => fh.verifyHmac('md5', 'k', 'm', v), (b) => b.equals(HM('md5', 'k', 'm', 'buffer'))],
  ['hashMany element', (v) => fh.hashMany('md5', ['a', v, Buffer.from('b')]), (b) => [H('md5', 'a'), H('md5', b), H('md5', 'b')]],
  ['hashMany element (buffer output)', (v) => fh.hashMany('sha1', [v, v], 'buffer'), (b) => [H('sha1', b, 'buffer'), H('sha1', b, 'buffer')]],
  ['createHmacKey key', (v) => fh.createHmacKey('sha384', v).digest('m'), (b) => HM('sha384', b, 'm')],
  ['HmacKey#digest data', (v) => tableKey().digest(v), (b) => HM('sha256', 'table key', b)],
  ['HmacKey#verify mac', (v) => tableKey().verify('m', v), (b) => b.equals(HM('sha256', 'table key', 'm', 'buffer'))],
  ['hashAsync data', (v) => fh.hashAsync('sha512', v), (b) => H('sha512', b), true],
  ['hmacAsync key', (v) => fh.hmacAsync('sha256', v, 'x'), (b) => HM('sha256', b, 'x'), true],
  ['hmacAsync data', (v) => fh.hmacAsync('sha256', 'x', v, 'buffer'), (b) => HM('sha256', 'x', b, 'buffer'), true],
];
// Hostile bytes: factory -> [value, the bytes JS sees, strict]. Strict:
// the result must be the digest of those bytes; otherwise a coded error
// is allowed too.
const rab = (n, max) => {
  const b = new ArrayBuffer(n, { maxByteLength: max });
  new Uint8Array(b).set(prng(n, n));
  return b;
};
const BINARIES = [
  ['detached ArrayBuffer (structuredClone transfer)', () => { const ab = new ArrayBuffer(16); detach(ab, 'structuredClone'); return ab; }, false],
  ['detached ArrayBuffer (MessagePort transfer)', () => { const ab = new ArrayBuffer(16); detach(ab, 'port'); return ab; }, false],
  ['Uint8Array over a detached ArrayBuffer', () => { const ab = new ArrayBuffer(16); const u = new Uint8Array(ab, 4); detach(ab); return u; }, false],
  ['Buffer over a detached ArrayBuffer', () => { const ab = new ArrayBuffer(16); const u = Buffer.from(ab, 2, 8); detach(ab); return u; }, false],
  ['DataView over a detached ArrayBuffer', () => { const ab = new ArrayBuffer(16); const u = new DataView(ab, 3); detach(ab); return u; }, false],
  ['Float64Array over a detached ArrayBuffer', () => { const ab = new ArrayBuffer(16); const u = new Float64Array(ab); detach(ab); return u; }, false],
  ['resizable ArrayBuffer, shrunk', () => { const b = rab(40, 64); b.resize(13); return b; }, true],
  ['resizable ArrayBuffer, grown', () => { const b = rab(8, 64); b.resize(50); return b; }, true],
  ['length-tracking Uint8Array, buffer shrunk after', () => { const b = rab(40, 64); const u = new Uint8Array(b, 5); b.resize(20); return u; }, true],
  ['length-tracking Uint8Array, buffer grown after', () => { const b = rab(10, 64); const u = new Uint8Array(b, 5); b.resize(60); return u; }, true],
  ['length-tracking Uint8Array, shrunk below its offset', () => { const b = rab(40, 64); const u = new Uint8Array(b, 30); b.resize(20); return u; }, false],
  ['fixed Uint8Array, buffer shrunk under it', () => { const b = rab(40, 64); const u = new Uint8Array(b, 4, 30); b.resize(20); return u; }, false],
  ['fixed Uint8Array, buffer shrunk then grown back', () => { const b = rab(40, 64); const u = new Uint8Array(b, 4, 30); b.resize(10); b.resize(64); return u; }, true],
  ['length-tracking DataView, buffer shrunk after', () => { const b = rab(40, 64); const u = new DataView(b, 3); b.resize(17); return u; }, true],
  ['fixed DataView, buffer shrunk under it', () => { const b = rab(40, 64); const u = new DataView(b, 3, 30); b.resize(17); return u; }, false],
  ['fixed DataView over 16 MiB, buffer shrunk to 0 (pages decommitted)', () => { const b = new ArrayBuffer(16 << 20, { maxByteLength: 64 << 20 }); const u = new DataView(b, 0, 16 << 20); b.resize(0); return u; }, false],
  ['length-tracking Float64Array, length not a multiple of 8', () => { const b = rab(40, 64); const u = new Float64Array(b); b.resize(21); return u; }, true],
  ['resizable ArrayBuffer resized to 0', () => { const b = rab(40, 64); b.resize(0); return b; }, true],
  ['growable SharedArrayBuffer, grown', () => { const g = new SharedArrayBuffer(8, { maxByteLength: 64 }); new Uint8Array(g).fill(1); g.grow(40); return g; }, true],
  ['length-tracking view of a growable SharedArrayBuffer, grown after', () => { const g = new SharedArrayBuffer(8, { maxByteLength: 64 }); const u = new Uint8Array(g, 2); g.grow(33); new Uint8Array(g).fill(9); return u; }, true],
  ['Uint8Array whose own properties and methods throw', () => NAMED.viewWithThrowingProps(new Ctx()), true],
  ['Buffer whose own properties and methods throw', () => NAMED.bufferWithThrowingProps(new Ctx()), true],
  ['DataView whose own properties throw', () => NAMED.dataViewWithThrowingProps(new Ctx()), true],
  ['Uint8Array subclass whose getters throw', () => NAMED.evilSubclassView(), true],
  ['Buffer with a null prototype', () => NAMED.nullProtoBuffer(), true],
  ['empty Uint8Array over an empty ArrayBuffer', () => new Uint8Array(0), true],
  ['BigUint64Array at an offset', () => new BigUint64Array(new Uint8Array(prng(72, 3)).buffer, 8, 7), true],
];

// Every position with every hostile binary value.
function binaryCases(add) {
  for (const [pos, run, want, isAsync] of POSITIONS) {
    for (const [label, factory, strict] of BINARIES) {
      let v;
      let bytes;
      add(`${pos}: ${label}`, () => {
        v = factory();
        bytes = visibleBytes(v);
        return run(v);
      }, { check: (got) => show(got) === show(want(bytes)) || `got ${show(got).slice(0, 140)}, want ${show(want(bytes)).slice(0, 140)}`, orCoded: !strict }, isAsync);
    }
  }
}

// Getters that change the data between the checks and the digest: any
// digest of the old or new bytes, or a coded error; no crash.
function changedDataCases(add) {
  const mk = () => { const ab = new ArrayBuffer(32); new Uint8Array(ab).set(prng(32, 1)); return ab; };
  let ab = mk();
  let u = new Uint8Array(ab, 4);
  const before = Buffer.from(u);
  add('hash: options getter detaches the data\'s buffer', () => { ab = mk(); u = new Uint8Array(ab, 4); return fh.hash('sha256', u, { get outputEncoding() { detach(ab); return 'hex'; } }); },
    { oneOf: [H('sha256', before), H('sha256', EMPTY)], orCoded: true });
  add('hashAsync: options getter detaches the data\'s buffer', () => { ab = mk(); u = new Uint8Array(ab, 4); return fh.hashAsync('sha256', u, { get outputEncoding() { detach(ab); return 'hex'; } }); },
    { oneOf: [H('sha256', before), H('sha256', EMPTY)], orCoded: true }, true);
  add('hmac: options getter detaches the key\'s buffer', () => { ab = mk(); u = new Uint8Array(ab, 4); return fh.hmac('sha256', u, 'd', { get outputEncoding() { detach(ab); return 'hex'; } }); },
    { oneOf: [HM('sha256', before, 'd'), HM('sha256', EMPTY, 'd')], orCoded: true });
  add('hmac: options getter detaches the data (an ArrayBuffer)', () => { ab = mk(); return fh.hmac('sha256', 'k', ab, { get outputEncoding() { detach(ab); return 'hex'; } }); },
    { oneOf: [HM('sha256', 'k', prng(32, 1)), HM('sha256', 'k', EMPTY)], orCoded: true });
  add('hashMany: options getter detaches an element\'s buffer', () => { ab = mk(); return fh.hashMany('sha256', ['a', ab], { get outputEncoding() { detach(ab); return 'hex'; } }); },
    { check: (got) => (Array.isArray(got) && got.length === 2 && got[0] === H('sha256', 'a') && [H('sha256', prng(32, 1)), H('sha256', EMPTY)].includes(got[1])) || `got ${show(got)}`, orCoded: true });
  let r;
  add('hash: options getter shrinks the data\'s resizable buffer to 0', () => {
    r = new ArrayBuffer(1 << 20, { maxByteLength: 8 << 20 });
    return fh.hash('sha256', new DataView(r, 0, 1 << 20), { get outputEncoding() { r.resize(0); return 'hex'; } });
  }, { oneOf: [H('sha256', Buffer.alloc(1 << 20)), H('sha256', EMPTY)], orCoded: true });
  add('hashMany: options getter empties the array', () => {
    const arr = ['a', 'b', 'c'];
    return fh.hashMany('sha256', arr, { get outputEncoding() { arr.length = 0; return 'hex'; } });
  }, { check: (got) => Array.isArray(got) || `got ${show(got)}`, orCoded: true });
  add('hashMany: options getter puts a number in the array', () => {
    const arr = ['a', 'b'];
    return fh.hashMany('sha256', arr, { get outputEncoding() { arr[1] = 5; return 'hex'; } });
  }, { check: (got) => (Array.isArray(got) && got.length === 2 && got[1] === H('sha256', 'b')) || `got ${show(got)}`, orCoded: true });
}

hostileTest(module, 'detached, resizable and shared buffers in every binary position, and data changed by getters', () => {
  const { cases, add } = newTable();
  binaryCases(add);
  changedDataCases(add);
  return runTable(cases);
});
