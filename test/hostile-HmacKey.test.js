'use strict';
// HmacKey's methods and getter with a foreign `this` (primitives, plain
// objects, proxies, the prototype): ERR_INVALID_THIS; its constructor is
// not for callers; a destroyed key refuses use (ERR_INVALID_STATE), also
// when destroyed by an options getter or after garbage collection.
const fh = require('..');
const { hostileTest } = require('./hostile/harness');
const { revokedProxy } = require('./hostile/judge');
const { call, getterOf } = require('./hostile/oracle');
const {
  HM, tableKey, newTable, runTable,
} = require('./hostile/table');

// HmacKey with a foreign `this`, its constructor, destroy.
function keyCases(add) {
  const K = tableKey();
  const proto = Object.getPrototypeOf(K);
  const algGetter = getterOf(proto, 'algorithm');
  for (const [label, self] of [['undefined', undefined], ['null', null], ['5', 5], ['"str"', 'str'], ['Symbol()', Symbol('t')], ['10n', 10n],
    ['{}', {}], ['Object.create(key)', Object.create(K)], ['a revoked Proxy', revokedProxy({})], ['a Proxy of the key', new Proxy(K, {})], ['the prototype', proto]]) {
    for (const m of ['digest', 'verify', 'destroy']) {
      add(`HmacKey#${m} with this = ${label}`, () => Reflect.apply(proto[m], self, ['d', 'aa']), { code: 'ERR_INVALID_THIS' });
    }
    add(`HmacKey#algorithm with this = ${label}`, () => call(algGetter, self), { code: 'ERR_INVALID_THIS' });
  }
  add('new HmacKey()', () => new K.constructor(), { code: 'ERR_ILLEGAL_CONSTRUCTOR' });
  add('new HmacKey(undefined, {}, {})', () => new K.constructor(undefined, {}, { name: 'x', size: 32 }), { code: 'ERR_ILLEGAL_CONSTRUCTOR' });
  add('class extends HmacKey', () => new (class extends K.constructor {})(), { code: 'ERR_ILLEGAL_CONSTRUCTOR' });
  add('HmacKey: destroy twice, then digest', () => { const k = fh.createHmacKey('md5', 'k'); k.destroy(); k.destroy(); return k.digest('d'); }, { code: 'ERR_INVALID_STATE' });
  add('HmacKey: destroy, then verify', () => { const k = fh.createHmacKey('sha1', 'k'); k.destroy(); return k.verify('d', HM('sha1', 'k', 'd')); }, { code: 'ERR_INVALID_STATE' });
  add('HmacKey: destroy, then algorithm', () => { const k = fh.createHmacKey('SHA256', 'k'); k.destroy(); return k.algorithm; }, { value: 'sha256' });
  add('HmacKey: destroy, gc, digest with bad data', () => { const k = fh.createHmacKey('sha256', 'k'); k.destroy(); global.gc(); return k.digest(Symbol('x')); }, { coded: true });
  add('HmacKey: 2000 keys dropped, gc', () => {
    for (let i = 0; i < 2000; i++) fh.createHmacKey(i % 2 ? 'sha3-256' : 'sha256', `k${i}`).digest('x');
    global.gc();
    return tableKey().digest('after gc');
  }, { value: HM('sha256', 'table key', 'after gc') });
  add('HmacKey#digest: options getter destroys the key (and collects garbage)', () => {
    const k = fh.createHmacKey('sha512', 'k');
    return k.digest('d', { get outputEncoding() { k.destroy(); global.gc(); return 'hex'; } });
  }, { code: 'ERR_INVALID_STATE', orValue: HM('sha512', 'k', 'd') });
  add('HmacKey#verify: after destroy and gc', () => {
    const k = fh.createHmacKey('sha3-512', 'k');
    k.destroy();
    global.gc();
    return k.verify('d', HM('sha3-512', 'k', 'd'));
  }, { code: 'ERR_INVALID_STATE' });
}

hostileTest(module, 'HmacKey with a foreign this, its constructor, and a destroyed key', () => {
  const { cases, add } = newTable();
  keyCases(add);
  return runTable(cases);
});
