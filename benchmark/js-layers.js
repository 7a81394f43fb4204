'use strict';
// Where the time of the js implementation goes: for each case (digests,
// HMAC, a hasher over two parts), the call a user would write instead
// (node:crypto), the js binding called directly (lib/binding/js/: algorithm and
// encoding from their ids, then node:crypto; and where the binding has
// them, binding.shot / binding.macShot, the runtime's call that hash() and
// hmac() make themselves), and the whole fast-hash call
// (lib/index.js's or lib/hasher/'s checks, then the binding), timed
// interleaved in the same rounds as the suite times its cells. The steps
// between the rows are the cost of each layer. The user's call is timed
// twice, as two peers: how far the two copies differ is how far apart two
// identical calls read here, the smallest difference worth reading.
//
// Usage: FAST_HASH_IMPLEMENTATION=js node benchmark/js-layers.js [--size 16,64] [--budget-ms 1200]
//        (Bun picks the js implementation on its own: bun benchmark/js-layers.js)
// Prints one table per case, then headline lines of the ratios to node:crypto.

const crypto = require('crypto');
const util = require('util');
const bench = require('./common');
const { peer } = require('./suite/peers');
const fh = require('..');
const binding = require('../lib/binding');

function parseArgs(argv) {
  const opts = { sizes: [16, 64], budgetMs: 1200, batchMs: 2, warmupMs: 100, minRounds: 15 };
  const usage = (msg) => {
    console.error(`${msg ? `${msg}\n` : ''}usage: node benchmark/js-layers.js [--size 16,64] [--budget-ms N]`);
    process.exit(2);
  };
  let values;
  try {
    ({ values } = util.parseArgs({ args: argv, options: { size: { type: 'string' }, 'budget-ms': { type: 'string' } } }));
  } catch (err) {
    usage(err.message);
  }
  if (values.size !== undefined) {
    if (!values.size) usage();
    opts.sizes = values.size.split(',').map(Number);
  }
  if (values['budget-ms'] !== undefined) {
    if (!(+values['budget-ms'] > 0)) usage();
    opts.budgetMs = +values['budget-ms'];
  }
  return opts;
}

function bytes(size, mul = 31, add = 7) {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * mul + add) & 255;
  return b;
}

// ---- cases ----------------------------------------------------------------------
// Each: a title, the expected result, and peers in layer order (outermost
// last). `id` and `encId` are what lib/index.js passes the binding for this call.
const KEY = bytes(32, 73, 11);
const HAS_CRYPTO_HASH = typeof crypto.hash === 'function';

// A 'buffer' result: the binding fills the Buffer its caller made, as
// lib/index.js's hashBytes() does.
const INTO = 'const into = (out) => { bhash(id, encId, data, 32, out); return out; };';

function digestCase(size, enc) {
  const data = bytes(size), alg = 'sha256';
  const id = binding.resolve(alg).id, encId = binding.encodings[enc];
  const digestEnc = enc === 'buffer' ? undefined : enc; // createHash's digest() gives a Buffer
  const shotName = binding.resolve(alg).shot;
  const s = { crypto, hash: fh.hash, bhash: binding.hash, bshot: binding.shot, shotName, alg, data, enc, digestEnc, id, encId };
  const arg = enc === 'hex' ? '' : ', enc';
  const user = HAS_CRYPTO_HASH ? `crypto.hash(alg, data${arg})` : 'crypto.createHash(alg).update(data).digest(digestEnc)';
  return {
    title: `sha256 ${size} B, ${enc} output`,
    expected: crypto.createHash(alg).update(data).digest(digestEnc),
    peers: [
      HAS_CRYPTO_HASH && peer('crypto.hash', user, s),
      peer('createHash', 'crypto.createHash(alg).update(data).digest(digestEnc)', s),
      peer('control: the user\'s call again', user, s),
      enc === 'buffer' ? peer('binding.hash', 'into(Buffer.allocUnsafe(32))', s, { prelude: INTO }) :
        peer('binding.hash', 'bhash(id, encId, data, 32)', s),
      // hash()'s own path for text where the binding has one (shot).
      enc !== 'buffer' && shotName !== undefined && peer('binding.shot', 'bshot(shotName, encId, data, 32)', s),
      peer('fast-hash hash', `hash(alg, data${arg})`, s),
    ].filter(Boolean),
  };
}

function hmacCase(size) {
  const data = bytes(size), alg = 'sha256', key = KEY;
  const id = binding.resolve(alg).id, hex = binding.encodings.hex;
  const keyObject = crypto.createSecretKey(key), hk = fh.createHmacKey(alg, key);
  const macShotName = binding.resolve(alg).macShot;
  const s = { crypto, hmac: fh.hmac, bhmac: binding.hmac, bmacShot: binding.macShot, macShotName, alg, key, keyObject,
    hk, data, id, hex };
  return {
    title: `HMAC-sha256 ${size} B, 32-byte key, hex output`,
    expected: crypto.createHmac(alg, key).update(data).digest('hex'),
    peers: [
      peer('createHmac', "crypto.createHmac(alg, key).update(data).digest('hex')", s),
      peer('control: createHmac again', "crypto.createHmac(alg, key).update(data).digest('hex')", s),
      peer('createHmac, digest() then hex', "crypto.createHmac(alg, key).update(data).digest().toString('hex')", s),
      peer('createHmac(KeyObject)', "crypto.createHmac(alg, keyObject).update(data).digest('hex')", s),
      peer('binding.hmac', 'bhmac(id, hex, key, data)', s),
      // hmac()'s own path where the binding has one (macShot).
      macShotName !== undefined && peer('binding.macShot', 'bmacShot(macShotName, hex, key, data)', s),
      peer('fast-hash hmac', 'hmac(alg, key, data)', s),
      peer('fast-hash HmacKey#digest', 'hk.digest(data)', s),
    ].filter(Boolean),
  };
}

// A hasher over two parts (half the size each): the runtime's createHash
// chain, the binding's hasher functions as lib/hasher/hasher.js calls them with
// nothing staged, and createHasher's chain. A staging runtime (Node) folds
// the parts into one one-shot, so there the binding row is not its path.
const CHAIN = 'const chain = () => { const h = bnew(id, 32); bupdate(h, a); bupdate(h, b); return bdigest(h, hex, a, 0); };';

function hasherCase(size) {
  const data = bytes(size), alg = 'sha256';
  const a = data.subarray(0, size / 2), b = data.subarray(size / 2);
  const id = binding.resolve(alg).id, hex = binding.encodings.hex;
  const s = { crypto, fh, alg, a, b, id, hex, bnew: binding.hasherNew, bupdate: binding.hasherUpdate,
    bdigest: binding.hasherDigest };
  const user = "crypto.createHash(alg).update(a).update(b).digest('hex')";
  return {
    title: `sha256 hasher, two ${size / 2} B parts, hex output`,
    expected: crypto.createHash(alg).update(data).digest('hex'),
    peers: [
      peer('createHash', user, s),
      peer('control: the user\'s call again', user, s),
      peer('binding hasher', 'chain()', s, { prelude: CHAIN }),
      peer('fast-hash createHasher', "fh.createHasher(alg).update(a).update(b).digest('hex')", s),
    ],
  };
}

// ---- main -----------------------------------------------------------------------
function run(c, opts) {
  for (const p of c.peers) bench.checkResult(p.name, c.title, p.one(), c.expected);
  const m = bench.measureBudget(c.peers, {}, opts);
  const base = m['crypto.hash'] || m.createHash || m.createHmac;
  const baseName = m['crypto.hash'] ? 'crypto.hash' : m.createHash ? 'createHash' : 'createHmac';
  console.log(`\n${c.title}   (best ns/op, median in parentheses; vs: ${baseName} / this)`);
  for (const p of c.peers) {
    const r = m[p.name];
    console.log(`  ${p.name.padEnd(30)}${bench.fmtNs(r.bestNs).padStart(9)} (${bench.fmtNs(r.medianNs)})`.padEnd(56) +
      `${(base.bestNs / r.bestNs).toFixed(2)}x`.padStart(8));
  }
  return { title: c.title, peers: Object.fromEntries(Object.entries(m).map(([k, r]) =>
    [k, { bestNs: r.bestNs, medianNs: r.medianNs }])) };
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  // The binding is called here as lib/index.js calls the js one (the addon
  // takes a 'buffer' result's Buffer from its caller).
  if (binding.implementation !== 'js') {
    console.error('js-layers: fast-hash runs its native implementation here; set FAST_HASH_IMPLEMENTATION=js');
    process.exit(2);
  }
  bench.printEnv(bench.envInfo());
  console.log(`fast-hash (${fh.implementation} implementation); binding: ${binding.implementation}`);
  const cases = [];
  for (const size of opts.sizes) {
    cases.push(digestCase(size, 'hex'), digestCase(size, 'base64'), digestCase(size, 'buffer'), hmacCase(size),
      hasherCase(size));
  }
  const results = cases.map((c) => run(c, opts));
  console.log('');
  for (const r of results) {
    const p = r.peers, base = p['crypto.hash'] || p.createHash || p.createHmac;
    const mine = p['fast-hash hash'] || p['fast-hash hmac'] || p['fast-hash createHasher'];
    console.log(`headline ${r.title}: ${base === p.createHmac ? 'createHmac' : base === p.createHash ? 'createHash' :
      'crypto.hash'} / fast-hash (${fh.implementation}) ${(base.bestNs / mine.bestNs).toFixed(2)}x`);
  }
}

main();
