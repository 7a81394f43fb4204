'use strict';
// Wiping, for streaming HMAC: an HMAC hasher's copies of the keyed states
// are in memory while it lives and gone after digest() and after it is
// collected unfinished. A child reads its own memory through /proc/self/mem
// (Linux), as test/wipes.test.js does for HmacKey (whose scanner this
// repeats in brief); the live state is found first, so the scan can see
// what it looks for, and without the store's wipe the collected hasher's
// states are found. (A check of the native stack after digest() found
// nothing even with its wipes taken out, so it is not here: it could not
// fail.)
const assert = require('assert');
const fs = require('fs');
const { spawnSync } = require('child_process');

// ---- the child side --------------------------------------------------------

// The process's writable mappings.
function mappings() {
  return fs.readFileSync('/proc/self/maps', 'latin1').split('\n').filter(Boolean).map((line) => {
    const [range, perms, , , , name = ''] = line.trim().split(/\s+/);
    const [start, end] = range.split('-').map((h) => BigInt(`0x${h}`));
    return { start, end, perms, name };
  }).filter((m) => m.perms.startsWith('rw') && !m.name.startsWith('[v'));
}

// How often `pattern` occurs there, 4-byte aligned. The pattern is held as
// numbers and every chunk read is zeroed: neither is a copy to be found.
function occurrences(pattern) {
  const words = [];
  for (let i = 0; i < pattern.length; i += 4) words.push(pattern.readUInt32LE(i));
  pattern.fill(0);
  const fd = fs.openSync('/proc/self/mem', 'r');
  const chunk = Buffer.alloc(1 << 22);
  let found = 0;
  try {
    for (const m of mappings()) {
      for (let at = m.start; at < m.end; at += BigInt(chunk.length)) {
        const len = Number(m.end - at < BigInt(chunk.length) ? m.end - at : BigInt(chunk.length));
        let n = 0;
        try { n = fs.readSync(fd, chunk, 0, len, at); } catch { break; }
        for (let i = 0; i + 4 * words.length <= n; i += 4) {
          let j = 0;
          while (j < words.length && chunk.readUInt32LE(i + 4 * j) === words[j]) j++;
          if (j === words.length) found++;
        }
        chunk.fill(0);
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return found;
}

// SHA-256's chaining value after one block, as SHA256_CTX holds it (h[0..7]
// in host byte order).
function sha256Block(block) {
  const K = [];
  const frac = (x) => Math.floor((x - Math.floor(x)) * 2 ** 32) >>> 0;
  for (let n = 2; K.length < 64; n++) if ([...Array(n).keys()].slice(2).every((d) => n % d)) K.push(frac(Math.cbrt(n)));
  const H = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  const rotr = (x, r) => (x >>> r) | (x << (32 - r));
  const w = [];
  for (let i = 0; i < 64; i++) {
    if (i < 16) { w[i] = block.readUInt32BE(4 * i); continue; }
    const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
    const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
  }
  let [a, b, c, d, e, f, g, h] = H;
  for (let i = 0; i < 64; i++) {
    const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
    [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
  }
  // Off V8's heap (past its 64-byte limit for in-heap typed arrays): the
  // scavenger copies in-heap objects and leaves their old bytes behind,
  // where the scan would find this very pattern.
  const out = Buffer.alloc(256).subarray(0, 32);
  const le = require('os').endianness() === 'LE';
  [a, b, c, d, e, f, g, h].forEach((x, i) => (le ? out.writeUInt32LE((x + H[i]) >>> 0, 4 * i) :
    out.writeUInt32BE((x + H[i]) >>> 0, 4 * i)));
  return out;
}

const KEY = Buffer.alloc(32, 0x5b);
const pad = (byte) => Buffer.concat([Buffer.alloc(32, 0x5b ^ byte), Buffer.alloc(32, byte)]);
const MESSAGE = Buffer.from('a message shorter than a block');

async function childStates() {
  const { setImmediate: tick } = require('timers/promises');
  const f = require('..');
  const states = () => [sha256Block(pad(0x36)), sha256Block(pad(0x5c))];
  const count = () => states().map((s) => occurrences(s));
  // The key is destroyed at once: from then on only the hasher holds them.
  const made = () => {
    const key = f.createHmacKey('sha256', KEY);
    const h = key.createHasher().update(MESSAGE);
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
  return { live, digested, live2, collected: count(), dropped };
}

// ---- the mocha side --------------------------------------------------------

function child() {
  const res = spawnSync(process.execPath, ['--expose-gc', __filename], { encoding: 'utf8', timeout: 120000 });
  assert.strictEqual(res.status, 0, res.stderr);
  return JSON.parse(res.stdout);
}

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
  });
}

if (require.main === module) {
  childStates()
    .then((r) => console.log(JSON.stringify(r)), (err) => { console.error(err); process.exitCode = 1; });
} else {
  defineTests();
}
