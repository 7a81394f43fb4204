'use strict';
// @native-only: reads the addon's memory for its wipes (test/wipes-js.test.js is the JS implementation's)
// Wiping, for streaming HMAC: the keyed states an HMAC hasher uses are in
// memory while it lives and gone after digest() and after it is collected
// unfinished, and so are the message bytes it stages. A child reads its own memory through /proc/self/mem
// (Linux; the scanner is test/fixtures/memory-scan.js, shared with
// test/wipes.test.js); the live state is found first, so the scan can see
// what it looks for, and without the store's wipe the collected hasher's
// states are found. (A check of the native stack after digest() found
// nothing even with its wipes taken out, so it is not here: it could not
// fail.)
const assert = require('assert');
const fs = require('fs');
const { occurrences, sha256Block } = require('./fixtures/memory-scan');
const { childOutput, childEntry } = require('./child');

// ---- the child side --------------------------------------------------------

const KEY = Buffer.alloc(32, 0x5b);
const pad = (byte) => Buffer.concat([Buffer.alloc(32, 0x5b ^ byte), Buffer.alloc(32, byte)]);
const MESSAGE = Buffer.from('a message shorter than a block');

async function childStates() {
  const { setImmediate: tick } = require('timers/promises');
  const f = require('..');
  const states = () => [sha256Block(pad(0x36)), sha256Block(pad(0x5c))];
  const count = () => states().map((s) => occurrences(s));
  // The key is destroyed at once: from then on only the hasher holds them.
  // An empty DataView is not staged: it gives the hasher a state of its own
  // (a copy of the key's, MESSAGE in its inner one's unfinished block), which
  // a destroyed key's hasher needs to carry on.
  const made = () => {
    const key = f.createHmacKey('sha256', KEY);
    const h = key.createHasher().update(MESSAGE).update(new DataView(new ArrayBuffer(0)));
    key.destroy();
    return h;
  };
  const h = made();
  const live = count();
  h.digest();
  const digested = count();
  let dropped = made();
  await tick(); // the end of the job: dropped is registered
  const live2 = count();
  dropped = null;
  for (let i = 0; i < 10; i++) { global.gc(); await tick(); }
  return { live, digested, live2, collected: count(), dropped, staged: stagedMessage(f) };
}

// A message the hasher stages: in its stage while unfinished, wiped once
// digested or once sent on to a native state. The caller's own copy is
// zeroed after update(), so only the hasher's can be found. That copy is
// over an ArrayBuffer of its own, off V8's heap: a typed array of 64 bytes
// or fewer made by length lives on the heap, and a scavenge between its
// writing and its zeroing can leave a copy there for the scan to find.
function stagedMessage(f) {
  const words = Array.from({ length: 12 }, (_, i) => (0x9e3779b1 * (i + 1)) >>> 0);
  const message = () => {
    const m = Buffer.from(new ArrayBuffer(4 * words.length));
    words.forEach((w, i) => m.writeUInt32LE(w, 4 * i));
    return m;
  };
  const key = f.createHmacKey('sha256', KEY);
  const take = (h) => {
    const m = message();
    h.update(m);
    m.fill(0);
    return h;
  };
  const h = take(key.createHasher());
  const live = occurrences(words);
  h.digest();
  const digested = occurrences(words);
  take(key.createHasher()).update(Buffer.alloc(300, 1));
  return { live, digested, sent: occurrences(words) };
}

// ---- the mocha side --------------------------------------------------------

const child = () => JSON.parse(childOutput(__filename));

function defineTests() {
  const { describeNative } = require('./common');
  // Not under AddressSanitizer: its quarantine holds freed blocks.
  const linux = process.platform === 'linux' && fs.existsSync('/proc/self/mem') &&
    !/libasan/.test(process.env.LD_PRELOAD || '');
  (linux ? describeNative : describe.skip)('hmacKey.createHasher(): wiping (memory read through /proc/self/mem)', function () {
    this.timeout(120000);

    it('the hasher\'s keyed states are in memory while it lives, gone after digest() and after collection', function () {
      const r = child();
      assert.ok(r.live.every((n) => n > 0), `the scan finds a live hasher's states: ${r.live}`);
      assert.deepStrictEqual(r.digested, [0, 0]);
      assert.ok(r.live2.every((n) => n > 0));
      assert.deepStrictEqual(r.collected, [0, 0]);
    });

    it('staged message bytes are in the hasher\'s stage while it lives, wiped after digest() and once sent on', function () {
      const { staged } = child();
      assert.ok(staged.live > 0, `the scan finds the staged message: ${JSON.stringify(staged)}`);
      assert.strictEqual(staged.digested, 0);
      assert.strictEqual(staged.sent, 0);
    });
  });
}

childEntry(module, () => childStates().then((r) => console.log(JSON.stringify(r))), defineTests);
