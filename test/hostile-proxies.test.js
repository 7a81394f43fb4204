'use strict';
// Proxies (revoked, every trap throwing), fake views, URLs and KeyObjects,
// values whose coercions throw, and odd primitives in every argument
// position of every export: each call gives a coded error, the exception of
// the caller's own trap, or (where the value is valid) a result; never an
// uncoded error or a crash.
const fh = require('..');
const { hostileTest } = require('./hostile/harness');
const { Ctx, revokedProxy, throwAllProxy } = require('./hostile/judge');
const { tableKey, newTable, runTable } = require('./hostile/table');
const { NAMED, PROXY_TARGETS } = require('./fixtures/hostile-values');

// Every argument position of every export: [function, a call with x there, async].
const EVERY_POSITION = [
  ['hash', (x) => fh.hash(x, 'd')], ['hash', (x) => fh.hash('sha256', x)], ['hash', (x) => fh.hash('sha256', 'd', x)],
  ['hmac', (x) => fh.hmac(x, 'k', 'd')], ['hmac', (x) => fh.hmac('sha256', x, 'd')], ['hmac', (x) => fh.hmac('sha256', 'k', x)], ['hmac', (x) => fh.hmac('sha256', 'k', 'd', x)],
  ['verifyHmac', (x) => fh.verifyHmac(x, 'k', 'd', 'aa')], ['verifyHmac', (x) => fh.verifyHmac('sha256', x, 'd', 'aa')], ['verifyHmac', (x) => fh.verifyHmac('sha256', 'k', x, 'aa')],
  ['verifyHmac', (x) => fh.verifyHmac('sha256', 'k', 'd', x)], ['verifyHmac', (x) => fh.verifyHmac('sha256', 'k', 'd', 'aa', x)],
  ['createHmacKey', (x) => fh.createHmacKey(x, 'k')], ['createHmacKey', (x) => fh.createHmacKey('sha256', x)],
  ['HmacKey#digest', (x) => tableKey().digest(x)], ['HmacKey#digest', (x) => tableKey().digest('d', x)],
  ['HmacKey#verify', (x) => tableKey().verify(x, 'aa')], ['HmacKey#verify', (x) => tableKey().verify('d', x)], ['HmacKey#verify', (x) => tableKey().verify('d', 'aa', x)],
  ['hashMany', (x) => fh.hashMany(x, ['d'])], ['hashMany', (x) => fh.hashMany('sha256', x)], ['hashMany', (x) => fh.hashMany('sha256', ['d', x])], ['hashMany', (x) => fh.hashMany('sha256', ['d'], x)],
  ['hashFileSync', (x) => fh.hashFileSync(x, 'small.bin')], ['hashFileSync', (x) => fh.hashFileSync('sha256', x)], ['hashFileSync', (x) => fh.hashFileSync('sha256', 'small.bin', x)],
  ['hashAsync', (x) => fh.hashAsync(x, 'd'), true], ['hashAsync', (x) => fh.hashAsync('sha256', x), true], ['hashAsync', (x) => fh.hashAsync('sha256', 'd', x), true],
  ['hmacAsync', (x) => fh.hmacAsync(x, 'k', 'd'), true], ['hmacAsync', (x) => fh.hmacAsync('sha256', x, 'd'), true], ['hmacAsync', (x) => fh.hmacAsync('sha256', 'k', x), true], ['hmacAsync', (x) => fh.hmacAsync('sha256', 'k', 'd', x), true],
  ['hashFile', (x) => fh.hashFile(x, 'small.bin'), true], ['hashFile', (x) => fh.hashFile('sha256', x), true], ['hashFile', (x) => fh.hashFile('sha256', 'small.bin', x), true],
  ['getHashes', (x) => fh.getHashes(x)],
];

// Targets of the proxies, values that pretend or refuse to be something,
// and primitives no position takes (or only barely).
const PROXIED = ['object', 'array', 'func', 'uint8array', 'url', 'keyObject'];
const FAKES = ['fakeUint8Array', 'fakeBuffer', 'fakeURL', 'fakeDataView', 'fakeArrayBuffer', 'fakeKeyObject', 'fakeArray', 'toStringThrows',
  'allCoercionsThrow', 'inspectThrows', 'constructorGetterThrows', 'constructorNameThrows', 'functionNameThrows', 'thenGetterThrows'];
const ODD = [['Symbol()', () => Symbol('s')], ['10n', () => 10n], ['-0', () => -0], ['NaN', () => NaN], ['2**53', () => 2 ** 53],
  ['a 2**24-character string', () => 'x'.repeat(1 << 24)], ['a 2**20-lone-surrogate string', () => '\ud800'.repeat(1 << 20)]];

function proxyCases(add) {
  const argNo = new Map();
  for (const [fn, run, isAsync] of EVERY_POSITION) {
    const n = (argNo.get(fn) || 0) + 1;
    argNo.set(fn, n);
    const where = `${fn} argument ${n}`;
    for (const target of PROXIED) {
      add(`${where}: revoked Proxy of a ${target}`, () => run(revokedProxy(PROXY_TARGETS[target]())), { coded: true, orValue: fn === 'getHashes' }, isAsync);
      const ctx = new Ctx();
      add(`${where}: Proxy of a ${target} whose every trap throws`, () => run(throwAllProxy(PROXY_TARGETS[target](), ctx, false)),
        { coded: true, orSentinel: ctx, orValue: fn === 'getHashes' }, isAsync);
    }
    for (const name of FAKES) {
      const ctx = new Ctx();
      add(`${where}: <${name}>`, () => run(NAMED[name](ctx)), { coded: true, orAnyValue: true, orSentinel: ctx }, isAsync);
    }
    for (const [label, v] of ODD) {
      add(`${where}: ${label}`, () => run(v()), { coded: true, orAnyValue: true }, isAsync);
    }
  }
}

hostileTest(module, 'proxies, fakes and coercions that throw in every argument position of every export', () => {
  const { cases, add } = newTable();
  proxyCases(add);
  return runTable(cases);
});
