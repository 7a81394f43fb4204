'use strict';
// Per-call cost of fast-hash HMAC vs createHmac, in one process, interleaved:
//   hmac                        fastHash.hmac(alg, key, data)
//   HmacKey#digest              hmacKey.digest(data)     (createHmacKey made once, untimed)
//   createHmac                  crypto.createHmac(alg, key).update(data).digest('hex')
//   verifyHmac                  fastHash.verifyHmac(alg, key, data, macHex)
//   createHmac+timingSafeEqual  crypto.timingSafeEqual(createHmac(alg, key).update(data).digest(), macBuffer)
// Key: 32-byte Buffer; data: Buffer; output: hex. The verify peers are timed
// with the right MAC (both compare in constant time, so a wrong one costs the same).
//
// Usage: node benchmark/hmac.js [--quick] [--alg sha256,sha512] [--size 16,64]
//          [--rounds 7] [--batch-ms 75] [--warmup-ms 200] [--json out.json]
//
// A benchmark, not a test: it never fails on speed, only on a wrong result.
// The harness (timing, tables, options, --json) is in ./common.js.

const crypto = require('crypto');
const fastHash = require('..');
const bench = require('./common');

const FULL = {
  alg: ['sha256', 'sha512'], size: [16, 64, 1024, 16384], rounds: 7, batchMs: 75, warmupMs: 200, json: null,
};
const QUICK = { ...FULL, alg: ['sha256'], size: [16, 64], rounds: 3, batchMs: 25, warmupMs: 100 };
const KEY_SIZE = 32;

// ---- peers --------------------------------------------------------------------
// `one(c, mac)` makes a single call for the result check; verify peers take
// the MAC to compare against (hex for fast-hash, a Buffer for Node's).
const { tag } = bench;
const PEERS = [
  {
    name: 'hmac',
    one: (c) => fastHash.hmac(c.alg, c.key, c.data),
    loop(c, n) {
      const { alg, key, data } = c;
      let s = 0;
      for (let i = 0; i < n; i++) s ^= tag(fastHash.hmac(alg, key, data));
      return s;
    },
  },
  {
    name: 'HmacKey#digest',
    one: (c) => c.hmacKey.digest(c.data),
    loop(c, n) {
      const { hmacKey, data } = c;
      let s = 0;
      for (let i = 0; i < n; i++) s ^= tag(hmacKey.digest(data));
      return s;
    },
  },
  {
    name: 'createHmac',
    one: (c) => crypto.createHmac(c.alg, c.key).update(c.data).digest('hex'),
    loop(c, n) {
      const { alg, key, data } = c;
      let s = 0;
      for (let i = 0; i < n; i++) s ^= tag(crypto.createHmac(alg, key).update(data).digest('hex'));
      return s;
    },
  },
  {
    name: 'verifyHmac',
    verify: true,
    one: (c, mac) => fastHash.verifyHmac(c.alg, c.key, c.data, mac.hex),
    loop(c, n) {
      const { alg, key, data } = c, macHex = c.mac.hex;
      let s = 0;
      for (let i = 0; i < n; i++) s += fastHash.verifyHmac(alg, key, data, macHex) ? 1 : 0;
      return s;
    },
  },
  {
    name: 'createHmac+timingSafeEqual',
    verify: true,
    one: (c, mac) => crypto.timingSafeEqual(crypto.createHmac(c.alg, c.key).update(c.data).digest(), mac.buf),
    loop(c, n) {
      const { alg, key, data } = c, macBuf = c.mac.buf;
      let s = 0;
      for (let i = 0; i < n; i++) {
        s += crypto.timingSafeEqual(crypto.createHmac(alg, key).update(data).digest(), macBuf) ? 1 : 0;
      }
      return s;
    },
  },
];
const NAMES = PEERS.map((p) => p.name);

// ---- cells --------------------------------------------------------------------
const bytes = (size, mul, add) => Buffer.from(Array.from({ length: size }, (_, i) => (i * mul + add) & 255));
const KEY = bytes(KEY_SIZE, 73, 11);

function cell(alg, size) {
  const data = bytes(size, 31, 7);
  const buf = crypto.createHmac(alg, KEY).update(data).digest();
  const bad = Buffer.from(buf);
  bad[bad.length >> 1] ^= 1; // one bit flipped
  return {
    alg, size, key: KEY, data, hmacKey: fastHash.createHmacKey(alg, KEY),
    mac: { hex: buf.toString('hex'), buf }, badMac: { hex: bad.toString('hex'), buf: bad },
  };
}
const label = (c) => `${c.alg} ${c.size}B buffer, ${KEY_SIZE}-byte key -> hex`;

function measure(c, opts) {
  for (const p of PEERS) {
    if (p.verify) {
      bench.checkResult(`${p.name} (right MAC)`, label(c), p.one(c, c.mac), true);
      bench.checkResult(`${p.name} (one bit flipped)`, label(c), p.one(c, c.badMac), false);
    } else {
      bench.checkResult(p.name, label(c), p.one(c), c.mac.hex);
    }
  }
  const peers = bench.measure(PEERS, c, opts);
  c.hmacKey.destroy();
  return { alg: c.alg, size: c.size, keySize: KEY_SIZE, input: 'buffer', enc: 'hex', peers };
}

// ---- report -------------------------------------------------------------------
// Five peers and four ratios do not fit one line: digest and verify peers get
// a table each, both from the same interleaved measurement.
const DIGEST = ['hmac', 'HmacKey#digest', 'createHmac'];
const DIGEST_RATIOS = [
  { label: 'hmac vs createHmac', fast: 'hmac', peer: 'createHmac' },
  { label: 'HmacKey#digest vs createHmac', fast: 'HmacKey#digest', peer: 'createHmac' },
  { label: 'HmacKey#digest vs hmac', fast: 'HmacKey#digest', peer: 'hmac' },
];
const VERIFY = ['verifyHmac', 'createHmac+timingSafeEqual'];
const VERIFY_RATIOS = [
  { label: 'verifyHmac vs createHmac+timingSafeEqual', fast: 'verifyHmac', peer: 'createHmac+timingSafeEqual' },
];
const ratio = (res, fast, peer) => bench.fmtRatio(bench.ratio(res, fast, peer));

function main() {
  const opts = bench.parseArgs(process.argv.slice(2), { script: 'hmac.js', full: FULL, quick: QUICK });
  const started = process.hrtime.bigint();
  const env = bench.envInfo();
  bench.printHeader(env, opts, NAMES);

  const results = [];
  for (const alg of opts.alg) {
    const rows = opts.size.map((size) => measure(cell(alg, size), opts));
    results.push(...rows);
    const title = `${alg}, buffer data, ${KEY_SIZE}-byte key, hex output`;
    bench.printTable(`${title}: digest`, rows, DIGEST, DIGEST_RATIOS);
    bench.printTable(`${title}: verify (right MAC)`, rows, VERIFY, VERIFY_RATIOS);
  }

  // Headline cell: taken from the grid when it ran it, else measured now (quick settings).
  const h = results.find((r) => r.alg === 'sha256' && r.size === 64) ||
    { ...measure(cell('sha256', 64), QUICK), dedicated: true };

  bench.finish({ env, opts, started, results, headline: h });
  console.log(`headline hmac sha256 64B: hmac vs createHmac = ${ratio(h, 'hmac', 'createHmac')}`);
  console.log(`headline hmac sha256 64B: HmacKey#digest vs hmac = ${ratio(h, 'HmacKey#digest', 'hmac')}`);
  console.log('headline hmac sha256 64B: verifyHmac vs createHmac+timingSafeEqual = ' +
    ratio(h, 'verifyHmac', 'createHmac+timingSafeEqual'));
}

main();
