'use strict';
// @native-only: the addon's store of hasher states, seen through binding.hasherStoreStats()
// The addon's store of hasher states (src/hasher_store.c), seen through
// the tokens it hands out and binding.hasherStoreStats(): slots are handed
// out lowest first, also after a run of hashers has grown the store past a
// chunk and been freed; and a hasher dropped unfinished, once collected,
// leaves no state open in its slot (an HMAC hasher has two). Each case runs
// in a child of its own (--expose-gc), so that no other test's hashers are
// in the store.
const assert = require('assert');
const { childResult, childEntry } = require('./child');

// ---- the child side --------------------------------------------------------

const SLOT_BITS = 24; // a token's low bits: its slot's index (hasher_store.c)
const CHUNK = 64; // slots per chunk

const stats = () => require('../lib/binding').hasherStoreStats();

const CASES = {
  // A chunk and one more hasher, all freed: the next hasher takes slot 0
  // again, in the chunk kept, with no second chunk made.
  async reuse() {
    const binding = require('../lib/binding');
    const { createHasher } = require('..');
    const sha256 = binding.resolve('sha256').id;
    const slot = (token) => token % 2 ** SLOT_BITS;
    const tokens = Array.from({ length: CHUNK + 1 }, () => binding.hasherNew(sha256, 32));
    const slots = tokens.map(slot);
    for (const token of tokens) binding.hasherFree(token);
    const freed = stats();
    const next = binding.hasherNew(sha256, 32);
    const nextSlot = slot(next);
    binding.hasherFree(next);
    // The same through the public API: hashers that get a native state.
    const part = Buffer.alloc(300, 1);
    const hashers = Array.from({ length: CHUNK + 1 }, () => createHasher('sha256').update(part));
    const grown = stats();
    for (const h of hashers) h.digest();
    const one = createHasher('sha256').update(part);
    const after = stats();
    one.digest();
    return { slots: [slots[0], slots[CHUNK]], freed, nextSlot, grown, after };
  },
  // Hashers with native states, dropped unfinished, then collected (a
  // collection and a turn of the event loop): a plain one, and HMAC ones
  // (inner and outer state) on a low-level and an EVP digest.
  async dropped() {
    const { setImmediate: tick } = require('timers/promises');
    const { createHasher, createHmacKey } = require('..');
    const part = Buffer.alloc(300, 1);
    const keys = ['sha256', 'sha3-256'].map((alg) => createHmacKey(alg, 'k'));
    const drop = () => {
      createHasher('sha256').update(part);
      for (const key of keys) key.createHasher().update(part);
    };
    drop();
    await tick(); // the end of the job: the dropped hashers are registered
    const held = stats();
    for (let i = 0; i < 6; i++) {
      global.gc();
      await tick();
    }
    return { held, collected: stats() };
  },
};

// ---- the mocha side --------------------------------------------------------

function defineTests() {
  const { describeNative } = require('./common');

  describeNative("createHasher(): the addon's store of hasher states (child processes)", function () {
    this.timeout(60000);

    it('hands out the lowest free slot: after a chunk and one more are freed, the next hasher takes slot 0', function () {
      const r = childResult(__filename, ['reuse']);
      assert.deepStrictEqual(r.slots, [0, CHUNK], 'the first hashers take slots 0 to 64');
      assert.strictEqual(r.freed.live, 0);
      assert.strictEqual(r.nextSlot, 0, `the next hasher after all were freed: ${JSON.stringify(r)}`);
      assert.strictEqual(r.grown.chunks, 2);
      assert.deepStrictEqual([r.after.live, r.after.chunks], [1, 1], `one hasher, in the first chunk: ${JSON.stringify(r)}`);
    });

    it('a hasher dropped unfinished (an HMAC one: both states) leaves no state open once collected', function () {
      const { held, collected } = childResult(__filename, ['dropped']);
      assert.deepStrictEqual([held.live, held.open], [3, 5], `the live hashers: ${JSON.stringify(held)}`);
      assert.deepStrictEqual([collected.live, collected.open], [0, 0], JSON.stringify(collected));
    });
  });
}

childEntry(module, ([name]) => CASES[name](), defineTests);
