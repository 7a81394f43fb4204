'use strict';
// hmacKey.destroy() wipes the keyed states at once, whatever the hashers
// made from the key are doing: one dropped before it needed a state of its
// own, one that has its own, one of a stream digest that failed. A child
// reads its own memory through /proc/self/mem (Linux; the scanner is
// test/fixtures/memory-scan.js) for the key's keyed states (SHA-256's
// chaining words after K0 ^ ipad and after K0 ^ opad), and the store of
// hasher states (binding.hasherStoreStats) says which hashers still hold
// theirs. The key itself stays referenced throughout, so only destroy()
// can have wiped its states, not the key's own finalizer.
const assert = require('assert');
const fs = require('fs');
const { Readable } = require('stream');
const { childOutput, childEntry } = require('./child');

// ---- the child side --------------------------------------------------------

const KEY = Buffer.alloc(32, 0x3c);
const pad = (byte) => Buffer.concat([Buffer.alloc(32, 0x3c ^ byte), Buffer.alloc(32, byte)]);

async function collect() {
  const { setImmediate: tick } = require('timers/promises');
  for (let i = 0; i < 5; i++) {
    global.gc();
    await tick();
  }
}

// [inner, outer]: how often each keyed state is in writable memory.
function scan() {
  const { occurrences, sha256Block } = require('./fixtures/memory-scan');
  return [occurrences(sha256Block(pad(0x36))), occurrences(sha256Block(pad(0x5c)))];
}

const live = () => require('../lib/binding').hasherStoreStats().live;

// Each case returns what the scans found: `before` with the key live (the
// scan can see what it looks for), `after` once destroy() returned.
const CASES = {
  // A hasher staged a short part (no state of its own) and was dropped: it
  // never gives its lease back, even once collected.
  async dropped(f) {
    const key = f.createHmacKey('sha256', KEY);
    key.createHasher().update('a short part');
    await collect();
    const before = scan();
    key.destroy();
    const after = scan();
    await collect();
    return { before, after, collected: scan(), live: live(), key: typeof key };
  },
  // A hasher that has a state of its own (a part longer than the stage):
  // its inner state has moved past the key's, its outer state is a copy of
  // the key's, which it keeps until its digest().
  async own(f) {
    const key = f.createHmacKey('sha256', KEY);
    const h = key.createHasher().update(Buffer.alloc(300, 1));
    const before = scan();
    key.destroy();
    const after = scan();
    const held = live();
    h.digest();
    return { before, after, held, digested: scan(), live: live(), key: typeof key };
  },
  // A stream digest that rejects (a bad chunk, a source's error), the key
  // destroyed after the rejection.
  async stream(f) {
    const key = f.createHmacKey('sha256', KEY);
    const before = scan();
    const codes = [];
    const sources = [
      () => [Buffer.alloc(10, 2), 5],
      () => new Readable({ read() { this.destroy(Object.assign(new Error('source failed'), { code: 'ESOURCE' })); } }),
    ];
    for (const source of sources) {
      await key.digestStream(source()).catch((err) => codes.push(err.code));
    }
    key.destroy();
    return { before, codes, after: scan(), live: live(), key: typeof key };
  },
};

// ---- the mocha side --------------------------------------------------------

const child = (name) => JSON.parse(childOutput(__filename, [name]));

function defineTests() {
  const { createHmacKey } = require('..');
  const binding = require('../lib/binding');
  const { describeNative, throwsWith } = require('./common');

  describe('hmacKey.destroy()', function () {
    it('calls into the binding at once though a hasher made from the key was dropped unfinished', function () {
      const destroy = binding.hmacKeyDestroy;
      let calls = 0;
      binding.hmacKeyDestroy = (handle) => {
        calls++;
        return destroy(handle);
      };
      try {
        const key = createHmacKey('sha256', 'k');
        key.createHasher();
        key.createHasher().update('staged');
        key.destroy();
        assert.strictEqual(calls, 1);
      } finally {
        binding.hmacKeyDestroy = destroy;
      }
    });

    it('a hasher made before destroy() with no state of its own then refuses use: ERR_INVALID_STATE', function () {
      const key = createHmacKey('sha256', 'k');
      const h = key.createHasher().update('staged');
      key.destroy();
      for (const call of [() => h.update('more'), () => h.digest('hex'), () => h.copy(), () => h.digest()]) {
        throwsWith(call, Error, 'ERR_INVALID_STATE', 'Invalid state: the HmacKey has been destroyed');
      }
    });
  });

  // Under AddressSanitizer (npm run test:sanitize) memory is ASan's: its
  // quarantine holds freed blocks.
  const linux = process.platform === 'linux' && fs.existsSync('/proc/self/mem') &&
    !/libasan/.test(process.env.LD_PRELOAD || '');
  (linux ? describeNative : describe.skip)('hmacKey.destroy(): wiping (memory read through /proc/self/mem)', function () {
    this.timeout(120000);

    it('wipes the states at once though a hasher made from the key was dropped before it had a state of its own', function () {
      const r = child('dropped');
      assert.ok(r.before.every((n) => n > 0), `the scan finds the live key's states: ${r.before}`);
      assert.deepStrictEqual(r.after, [0, 0], 'the states after destroy()');
      assert.deepStrictEqual(r.collected, [0, 0], 'the states after destroy() and collection');
      assert.strictEqual(r.live, 0);
    });

    it('wipes the states at once while a hasher with a state of its own lives; the hasher keeps its own until digest()', function () {
      const r = child('own');
      assert.ok(r.before.every((n) => n > 0), `the scan finds the live key's states: ${r.before}`);
      assert.strictEqual(r.after[0], 0, "the key's inner state after destroy()");
      assert.ok(r.after[1] > 0, "the hasher's copy of the outer state");
      assert.strictEqual(r.held, 1);
      assert.deepStrictEqual(r.digested, [0, 0]);
      assert.strictEqual(r.live, 0);
    });

    it('wipes the states at once after a digestStream that rejected; its hasher holds nothing', function () {
      const r = child('stream');
      assert.ok(r.before.every((n) => n > 0), `the scan finds the live key's states: ${r.before}`);
      assert.deepStrictEqual(r.codes, ['ERR_INVALID_ARG_TYPE', 'ESOURCE']);
      assert.deepStrictEqual(r.after, [0, 0]);
      assert.strictEqual(r.live, 0);
    });
  });
}

childEntry(module, ([name]) => CASES[name](require('..')).then((r) => console.log(JSON.stringify(r))), defineTests);
