'use strict';
// Options getters and proxies: the ones a function has to read (an
// options property, hashMany's elements) throw the caller's exception
// unchanged; options inherited through the prototype count; and a getter
// that calls fast-hash again (re-entrant) does not change the outer call's
// options.
const fs = require('fs');
const fh = require('..');
const { hostileTest } = require('./hostile/harness');
const { show, Ctx } = require('./hostile/judge');
const {
  H, HM, tableKey, newTable, runTable,
} = require('./hostile/table');

function readGetterCases(add) {
  // Getters the functions have to read: their exceptions come out unchanged.
  for (const [fn, run, readsLength, isAsync] of [
    ['hash', (o) => fh.hash('sha256', 'd', o), true],
    ['hmac', (o) => fh.hmac('sha256', 'k', 'd', o), false],
    ['hashMany', (o) => fh.hashMany('sha256', ['d'], o), true],
    ['hashFileSync', (o) => fh.hashFileSync('sha256', 'small.bin', o), true],
    ['HmacKey#digest', (o) => tableKey().digest('d', o), false],
    ['hashAsync', (o) => fh.hashAsync('sha256', 'd', o), true, true],
    ['hmacAsync', (o) => fh.hmacAsync('sha256', 'k', 'd', o), false, true],
    ['hashFile', (o) => fh.hashFile('sha256', 'small.bin', o), true, true],
  ]) {
    const s1 = new Ctx().sentinel();
    add(`${fn}: options.outputEncoding getter throws`, () => run({ get outputEncoding() { throw s1; } }), { sentinel: s1 }, isAsync);
    const s2 = new Ctx().sentinel();
    const want = fn === 'hash' || fn === 'hashAsync' ? H('sha256', 'd') : fn === 'hashMany' ? [H('sha256', 'd')] :
      fn.startsWith('hashFile') ? H('sha256', fs.readFileSync('small.bin')) : fn === 'HmacKey#digest' ? HM('sha256', 'table key', 'd') : HM('sha256', 'k', 'd');
    add(`${fn}: options.outputLength getter throws`, () => run({ outputEncoding: 'hex', get outputLength() { throw s2; } }),
      readsLength ? { sentinel: s2 } : { value: want }, isAsync);
    const s3 = new Ctx().sentinel();
    add(`${fn}: options is a Proxy whose get trap throws`, () => run(new Proxy({}, { get() { throw s3; } })), { sentinel: s3 }, isAsync);
    add(`${fn}: options inherited through the prototype`, () => run(Object.create({ outputEncoding: 'base64' })),
      { check: (got) => { const g = Array.isArray(got) ? got[0] : got; return (typeof g === 'string' && g.length > 0 && Buffer.from(g, 'base64').toString('base64') === g) || `not base64: ${show(got)}`; } }, isAsync);
  }
}

function reentrantCases(add) {
  // Re-entrant getters: the options of the outer call must not change.
  add('hash: outputLength getter calls hash(..., "base64"); the outer result stays hex',
    () => fh.hash('sha256', 'abc', { outputEncoding: 'hex', get outputLength() { fh.hash('md5', 'x', 'base64'); return undefined; } }),
    { value: H('sha256', 'abc') });
  add('hash: outputLength getter calls hash(..., "buffer"); the outer result stays hex',
    () => fh.hash('sha256', 'abc', { get outputLength() { fh.hash('sha1', 'x', { outputEncoding: 'buffer' }); return 32; } }),
    { value: H('sha256', 'abc') });
  add('hash: outputEncoding getter calls hash(shake128, 16 bytes); the outer shake256 keeps its 32 bytes',
    () => fh.hash('shake256', 'abc', { get outputEncoding() { fh.hash('shake128', 'x', { outputLength: 16 }); return 'hex'; } }),
    { value: H('shake256', 'abc', 'hex', 32) });
  add('hashMany: outputLength getter calls hash(..., "latin1"); the outer results stay hex',
    () => fh.hashMany('sha256', ['a', 'b'], { get outputLength() { fh.hash('md5', 'x', 'latin1'); return undefined; } }),
    { value: [H('sha256', 'a'), H('sha256', 'b')] });
  add('hashAsync: outputLength getter calls hash(..., "base64"); the outer result stays hex',
    () => fh.hashAsync('sha256', 'abc', { get outputLength() { fh.hash('md5', 'x', 'base64'); return undefined; } }),
    { value: H('sha256', 'abc') }, true);
  add('hmac: outputEncoding getter calls hmac with other options; the outer result is right',
    () => fh.hmac('sha256', 'k', 'abc', { get outputEncoding() { fh.hmac('md5', 'k', 'x', { outputEncoding: 'buffer' }); return 'base64'; } }),
    { value: HM('sha256', 'k', 'abc', 'base64') });
}

hostileTest(module, 'options getters that throw, inherited options and re-entrant getters', () => {
  const { cases, add } = newTable();
  readGetterCases(add);
  reentrantCases(add);
  return runTable(cases);
});
