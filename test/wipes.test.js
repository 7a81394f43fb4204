'use strict';
// @native-only: reads the addon's memory for its wipes (test/wipes-js.test.js is the JS implementation's)
// Wiping: key blocks, keyed states and MACs do not stay behind in memory.
// A child process reads its own memory through /proc/self/mem (Linux) and
// looks for bytes only a missing wipe would leave: the HMAC key block
// (K0 ^ ipad, K0 ^ opad) and the MAC on the native stack after hmac() and
// verifyHmac(); an HmacKey's keyed inner state (SHA-256's chaining words,
// computed here) anywhere in writable memory after destroy() and after the
// key is collected. The live key's state is found first: the scan can see
// what it looks for.
const assert = require('assert');
const { childOutput, childEntry } = require('./child');
const fs = require('fs');
const { occurrences, sha256Block } = require('./fixtures/memory-scan');

// ---- the child side --------------------------------------------------------

const KEY = Buffer.alloc(32, 0xa7);
const pad = (byte) => Buffer.concat([Buffer.alloc(32, 0xa7 ^ byte), Buffer.alloc(32, byte)]);

// Runs fn about `depth` JS frames below here: its native frames then lie
// far below the scan's own, which would otherwise overwrite them.
function deep(depth, fn) {
  return depth === 0 ? fn() : deep(depth - 1, fn);
}

const CHILD = {
  stack() {
    const f = require('..');
    const data = Buffer.from('the message whose MAC must not stay on the stack');
    const mac = () => require('crypto').createHmac('sha256', KEY).update(data).digest();
    deep(2000, () => {
      f.hmac('sha256', KEY, data);
      f.verifyHmac('sha256', KEY, data, mac());
      f.createHmacKey('sha256', KEY).digest(data);
    });
    const left = [pad(0x36), pad(0x5c), mac()].map((p) => occurrences(p, true));
    console.log(JSON.stringify({ left }));
  },
  key() {
    const f = require('..');
    const inner = () => sha256Block(pad(0x36));
    const key = f.createHmacKey('sha256', KEY);
    const live = occurrences(inner(), false);
    key.destroy();
    const destroyed = occurrences(inner(), false);
    let dropped = f.createHmacKey('sha256', KEY);
    const live2 = occurrences(inner(), false);
    dropped = null;
    for (let i = 0; i < 5; i++) global.gc();
    setTimeout(() => {
      global.gc();
      console.log(JSON.stringify({ live, destroyed, live2, collected: occurrences(inner(), false), dropped }));
    }, 200);
  },
};

// ---- the mocha side --------------------------------------------------------

const child = (name) => JSON.parse(childOutput(__filename, [name]));

function defineTests() {
  const { describeNative } = require('./common');
  // Under AddressSanitizer (npm run test:sanitize) memory is ASan's: its
  // quarantine holds freed blocks and its shadow spans terabytes.
  const linux = process.platform === 'linux' && fs.existsSync('/proc/self/mem') &&
    !/libasan/.test(process.env.LD_PRELOAD || '');
  (linux ? describeNative : describe.skip)('wiping (native memory read through /proc/self/mem)', function () {
    this.timeout(120000);

    it('hmac, verifyHmac and HmacKey#digest leave no key block or MAC on the stack', function () {
      assert.deepStrictEqual(child('stack').left, [0, 0, 0]);
    });

    it('an HmacKey\'s keyed state is in memory while live, gone after destroy() and after collection', function () {
      const r = child('key');
      assert.ok(r.live > 0, 'the scan finds a live key\'s state');
      assert.strictEqual(r.destroyed, 0);
      assert.ok(r.live2 > 0);
      assert.strictEqual(r.collected, 0);
    });
  });
}

childEntry(module, ([name]) => { CHILD[name](); }, defineTests);
