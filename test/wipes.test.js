'use strict';
// Wiping: key blocks, keyed states and MACs do not stay behind in memory.
// A child process reads its own memory through /proc/self/mem (Linux) and
// looks for bytes only a missing wipe would leave: the HMAC key block
// (K0 ^ ipad, K0 ^ opad) and the MAC on the native stack after hmac() and
// verifyHmac(); an HmacKey's keyed inner state (SHA-256's chaining words,
// computed here) anywhere in writable memory after destroy() and after the
// key is collected. The live key's state is found first: the scan can see
// what it looks for.
const assert = require('assert');
const { spawnSync } = require('child_process');
const fs = require('fs');

// ---- the child side --------------------------------------------------------

// Writable mappings of this process: the main thread's stack, or all.
function mappings(stackOnly) {
  return fs.readFileSync('/proc/self/maps', 'latin1').split('\n').filter(Boolean).map((line) => {
    const [range, perms, , , , name = ''] = line.trim().split(/\s+/);
    const [start, end] = range.split('-').map((h) => BigInt(`0x${h}`));
    return { start, end, perms, name };
  }).filter((m) => m.perms.startsWith('rw') && (stackOnly ? m.name === '[stack]' : !m.name.startsWith('[v')));
}

// Where `pattern` occurs in those mappings, 4-byte aligned (a count; 0 is
// clean). The pattern is held as numbers, never as bytes, and each chunk
// read is zeroed after its search: neither is a copy for the scan to find.
function occurrences(pattern, stackOnly) {
  const words = Array.isArray(pattern) ? pattern : [];
  if (!Array.isArray(pattern)) {
    for (let i = 0; i < pattern.length; i += 4) words.push(pattern.readUInt32LE(i));
    pattern.fill(0);
  }
  const fd = fs.openSync('/proc/self/mem', 'r');
  const chunk = Buffer.alloc(1 << 22);
  let found = 0;
  try {
    for (const m of mappings(stackOnly)) {
      for (let at = m.start; at < m.end; at += BigInt(chunk.length)) {
        const len = Number(m.end - at < BigInt(chunk.length) ? m.end - at : BigInt(chunk.length));
        let n = 0;
        try {
          n = fs.readSync(fd, chunk, 0, len, at);
        } catch {
          break;
        }
        found += countWords(chunk, n, words);
        chunk.fill(0);
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return found;
}

function countWords(chunk, n, words) {
  let found = 0;
  for (let i = 0; i + 4 * words.length <= n; i += 4) {
    if (chunk.readUInt32LE(i) !== words[0]) continue;
    let j = 1;
    while (j < words.length && chunk.readUInt32LE(i + 4 * j) === words[j]) j++;
    if (j === words.length) found++;
  }
  return found;
}

// SHA-256's chaining value after one block, as OpenSSL's SHA256_CTX holds
// it (h[0..7], host byte order), as the numbers occurrences() looks for:
// never as bytes on V8's heap, whose scavenger can leave copies behind.
function sha256Block(block) {
  const K = [];
  const frac = (x) => Math.floor((x - Math.floor(x)) * 2 ** 32) >>> 0;
  for (let n = 2; K.length < 64; n++) if ([...Array(n).keys()].slice(2).every((d) => n % d)) K.push(frac(Math.cbrt(n)));
  const H = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  const rotr = (x, r) => (x >>> r) | (x << (32 - r));
  const w = [];
  for (let i = 0; i < 64; i++) {
    if (i < 16) w[i] = block.readUInt32BE(4 * i);
    else {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
  }
  let [a, b, c, d, e, f, g, h] = H;
  for (let i = 0; i < 64; i++) {
    const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
    [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
  }
  const le = require('os').endianness() === 'LE';
  const swap = (x) => (((x & 0xff) << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | (x >>> 24)) >>> 0;
  // occurrences() reads memory as little-endian words.
  return [a, b, c, d, e, f, g, h].map((x, i) => (le ? (x + H[i]) >>> 0 : swap((x + H[i]) >>> 0)));
}

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

function child(name) {
  const res = spawnSync(process.execPath, ['--expose-gc', __filename, name], { encoding: 'utf8', timeout: 120000 });
  assert.strictEqual(res.status, 0, res.stderr);
  return JSON.parse(res.stdout);
}

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

if (require.main === module) CHILD[process.argv[2]]();
else defineTests();
