'use strict';
// hmacKey.createHasher(): streaming HMAC from the key's precomputed states,
// equal to createHmac fed the same parts, for every HMAC algorithm and key
// length, with copies; what the key's life does to its hashers.
const assert = require('assert');
const crypto = require('crypto');
const { createHmacKey } = require('..');
const binding = require('../lib/binding');
const { throwsWith, bytes, hmacAlgorithms, keyInputs, sweep, MAC_STAGE: STAGE } = require('./common');

const ALGORITHMS = hmacAlgorithms();

function prng(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x % n;
  };
}

describe('hmacKey.createHasher()', function () {
  it('equals createHmac fed the same parts: every algorithm, key lengths about the block, random splits', function () {
    this.timeout(600000);
    const pick = prng(0x4a3c);
    const cases = [];
    for (const alg of ALGORITHMS) {
      const { block } = binding.resolve(alg);
      for (const keyLen of [0, 1, block - 1, block, block + 1, 1000]) {
        const rawKey = bytes(keyLen, keyLen + 5);
        const key = createHmacKey(alg, rawKey);
        for (const n of [0, 1, 55, 64, 65, 127, 128, block, block + 1, 255, 256, 257, 700]) {
          const msg = bytes(n, n + 11);
          const cuts = [0, ...Array.from({ length: pick(5) }, () => pick(n + 1)).sort((a, b) => a - b), n];
          const parts = cuts.slice(1).map((end, i) => msg.subarray(cuts[i], end))
            .map((p, i) => (i % 3 === 1 ? p.toString('hex') : i % 3 === 2 ? new DataView(p.buffer, p.byteOffset, p.length) : p));
          const ref = crypto.createHmac(alg, rawKey);
          const ours = key.createHasher();
          for (const p of parts) {
            if (typeof p === 'string') { ref.update(p, 'hex'); ours.update(p, 'hex'); } else { ref.update(p); ours.update(p); }
          }
          const out = ['hex', undefined, 'base64', { outputEncoding: 'latin1' }][pick(4)];
          cases.push([`${alg} key ${keyLen} msg ${n} in ${parts.length}`, () => ours.digest(out),
            ref.digest(typeof out === 'object' ? out.outputEncoding : out)]);
        }
      }
    }
    assert.ok(sweep(cases) > 1000);
  });

  it('takes every key type createHmacKey takes', function () {
    for (const [label, key, source] of keyInputs(70)) {
      const h = createHmacKey('sha256', key).createHasher().update('part one, ').update(Buffer.from('part two'));
      assert.strictEqual(h.digest('hex'), crypto.createHmac('sha256', source).update('part one, part two').digest('hex'), label);
    }
  });

  it('copies (and copies of copies) carry on apart', function () {
    const cases = [];
    for (const alg of ['sha256', 'sha1', 'md5', 'sha512', 'sha3-256', 'blake2b512'].filter((a) => ALGORITHMS.includes(a))) {
      const key = createHmacKey(alg, 'copied key');
      const mac = (...parts) => parts.reduce((h, p) => h.update(p), crypto.createHmac(alg, 'copied key')).digest('hex');
      const head = bytes(100);
      const h = key.createHasher().update(head);
      const c1 = h.copy().update('one');
      const c2 = c1.copy().update(Buffer.alloc(STAGE + 44, 9));
      const c3 = c2.copy().copy({ outputLength: 5 }).update('three');
      h.update('zero');
      cases.push([`${alg} original`, () => h.digest('hex'), mac(head, 'zero')]);
      cases.push([`${alg} copy`, () => c1.digest('hex'), mac(head, 'one')]);
      cases.push([`${alg} copy of copy`, () => c2.digest('hex'), mac(head, 'one', Buffer.alloc(STAGE + 44, 9))]);
      cases.push([`${alg} copy of a copy of a copy (outputLength ignored)`, () => c3.digest('hex'),
        mac(head, 'one', Buffer.alloc(STAGE + 44, 9), 'three')]);
    }
    sweep(cases);
  });

  it('the algorithm is the key\'s, lower-cased; digest ignores outputLength, as createHmac does', function () {
    const key = createHmacKey('SHA512', 'k');
    const h = key.createHasher();
    assert.strictEqual(h.algorithm, 'sha512');
    assert.strictEqual(h.update('m').digest({ outputLength: 7, outputEncoding: 'hex' }),
      crypto.createHmac('sha512', 'k').update('m').digest('hex'));
  });

  it('destroying the key: a hasher with a state of its own lives on; one without refuses use (ERR_INVALID_STATE)', function () {
    const key = createHmacKey('sha256', 'k');
    const long = Buffer.alloc(STAGE + 44, 3);
    const h = key.createHasher().update(long);
    const c = h.copy();
    const text = key.createHasher().update('a');
    const fresh = key.createHasher();
    key.destroy();
    const want = crypto.createHmac('sha256', 'k').update(long).update('b').digest('hex');
    assert.strictEqual(h.update('b').digest('hex'), want);
    assert.strictEqual(c.update('b').digest('hex'), want);
    const gone = [() => text.update('b'), () => text.digest('hex'), () => text.copy(), () => fresh.digest(),
      () => fresh.update(long), () => fresh.copy(), () => key.createHasher()];
    for (const call of gone) throwsWith(call, Error, 'ERR_INVALID_STATE', 'Invalid state: the HmacKey has been destroyed');
  });

  it('finalisation and a foreign this, as for createHasher()', function () {
    const key = createHmacKey('sha256', 'k');
    const h = key.createHasher().update('a');
    h.digest();
    throwsWith(() => h.update('b'), Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    throwsWith(() => h.digest(), Error, 'ERR_CRYPTO_HASH_FINALIZED');
    throwsWith(() => h.copy(), Error, 'ERR_CRYPTO_HASH_FINALIZED');
    for (const self of [undefined, {}, 1, h]) {
      throwsWith(() => key.createHasher.call(self), TypeError, 'ERR_INVALID_THIS');
    }
    throwsWith(() => key.createHasher().update(5), TypeError, 'ERR_INVALID_ARG_TYPE');
  });

  it('a MAC as a Buffer is not a slice of the shared Buffer pool (a secret: any pooled Buffer reaches the pool)', function () {
    for (const alg of ['sha256', 'sha512', 'sha3-256']) {
      const mac = createHmacKey(alg, 'k').createHasher().update('m').digest();
      assert.strictEqual(mac.buffer.byteLength, mac.length, alg);
      assert.deepStrictEqual(mac, crypto.createHmac(alg, 'k').update('m').digest());
    }
  });

  // The message of a MAC is a secret too: its staged bytes are not in the
  // shared pool, and once absorbed they are wiped.
  it('staged message bytes are not left in the shared Buffer pool', function () {
    const key = createHmacKey('sha256', 'k');
    const secret = Buffer.alloc(24);
    for (let i = 0; i < secret.length; i++) secret[i] = (i * 37 + 11) & 0xff;
    const pooled = () => Buffer.from(Buffer.from('x').buffer);
    const cases = [
      ['digested', (h) => h.update(secret).digest()],
      ['copied, then both digested', (h) => { h.update(secret); h.copy().digest(); h.digest(); }],
      ['sent on by a longer part', (h) => { h.update(secret).update(Buffer.alloc(STAGE + 44, 1)); return h.digest(); }],
      ['sent on, then more staged', (h) => { h.update(Buffer.alloc(STAGE + 44, 1)).update(secret).update(Buffer.alloc(STAGE - 6, 2)); return h.digest(); }],
    ];
    for (const [what, use] of cases) {
      use(key.createHasher());
      assert.strictEqual(pooled().indexOf(secret), -1, what);
    }
    const dropped = key.createHasher().update(secret);
    assert.strictEqual(pooled().indexOf(secret), -1, 'staged, unfinished');
    assert.deepStrictEqual(dropped.digest(), crypto.createHmac('sha256', 'k').update(secret).digest());
  });

  it('a key destroyed while its hashers stage: those with a state of their own finish, the others and the key refuse at once', function () {
    const key = createHmacKey('sha256', 'k');
    const parts = [Buffer.alloc(10, 1), 'text', Buffer.alloc(2 * STAGE + 88, 2)];
    // A Buffer longer than the stage gives its hasher a state of its own; a
    // string or a short Buffer is kept (staged) without one.
    const own = (p) => typeof p !== 'string' && p.length > binding.macStageBytes;
    const hashers = parts.map((p) => key.createHasher().update(p));
    const copies = hashers.map((h) => h.copy());
    key.destroy();
    for (const call of [() => key.digest('m'), () => key.verify('m', '00'), () => key.createHasher()]) {
      throwsWith(call, Error, 'ERR_INVALID_STATE', 'Invalid state: the HmacKey has been destroyed');
    }
    assert.ok(parts.some(own) && !parts.every(own));
    parts.forEach((p, i) => {
      const want = crypto.createHmac('sha256', 'k').update(p).update('z').digest('hex');
      for (const [what, h] of [['part', hashers[i]], ['copy of part', copies[i]]]) {
        if (own(p)) assert.strictEqual(h.update('z').digest('hex'), want, `${what} ${i}`);
        else throwsWith(() => h.update('z').digest('hex'), Error, 'ERR_INVALID_STATE', /destroyed/);
      }
    });
  });

  it('HMAC keys and hashers interleaved across algorithms stay apart', function () {
    const live = ALGORITHMS.map((alg) => [alg, createHmacKey(alg, `key ${alg}`).createHasher(), crypto.createHmac(alg, `key ${alg}`)]);
    for (let round = 0; round < 20; round++) {
      for (const [, ours, ref] of live) {
        const part = bytes(round * 13, round);
        ours.update(part);
        ref.update(part);
      }
    }
    for (const [alg, ours, ref] of live) assert.strictEqual(ours.digest('hex'), ref.digest('hex'), alg);
  });
});
