'use strict';
// The questions the suite answers. Each is a list of tables (one per
// algorithm and variant); a table's rows are input sizes, and row(size)
// builds that cell: its inputs (made once, before any timing), its peers,
// and the result node:crypto gives, which every peer must match.

const { peer, ceiling, callFloor, nativeLoop, wasmHasher, nobleFn, crypto, fastHash, binding } = require('./peers');
const { bytes, ascii, nonAscii } = require('./inputs');
const bun = require('./bun');

const ALGS = ['sha256', 'sha512', 'md5', 'sha1', 'sha3-256', 'blake2b512'];
const SIZES = [16, 64, 256, 1024, 16384, 1 << 20];
const HAS_CRYPTO_HASH = typeof crypto.hash === 'function';

// ---- (a), (b), (c): hash() and its peers on one input and output encoding ------
// hash-wasm and noble give hex or raw bytes only: they sit out base64 tables.
// noble takes bytes only: a string goes through its own utf8ToBytes, as its
// documentation says to.
async function digestRow(libs, alg, data, enc) {
  const hex = enc === 'hex', str = typeof data === 'string';
  const s = { hash: fastHash.hash, crypto, alg, data, enc };
  const peers = [
    peer('fast-hash', hex ? 'hash(alg, data)' : 'hash(alg, data, enc)', s),
    HAS_CRYPTO_HASH && peer('crypto.hash', hex ? 'crypto.hash(alg, data)' : 'crypto.hash(alg, data, enc)', s),
    peer('createHash', `crypto.createHash(alg).update(data).digest(${enc === 'buffer' ? '' : 'enc'})`, s),
  ];
  const h = (hex || enc === 'buffer') && (await wasmHasher(libs, alg));
  if (h) peers.push(peer('hash-wasm', `h.init().update(data).digest('${hex ? 'hex' : 'binary'}')`, { h, data }));
  const fn = (hex || enc === 'buffer') && nobleFn(libs, alg);
  if (fn) {
    const n = libs.noble, input = str ? 'fn(utf8(data))' : 'fn(data)';
    peers.push(peer('noble', hex ? `hex(${input})` : input, { fn, data, hex: n.hex, utf8: n.utf8 }));
  }
  // 'buffer' beside the hex output of the same digest (what the Buffer
  // costs over the string), the floor of any Node-API call that returns new
  // bytes, and Bun's bytes output (in a Bun child).
  const row = { external: [] };
  if (enc === 'buffer') {
    const hexPeer = peer('hex output', 'hash(alg, data)', s);
    hexPeer.expected = crypto.createHash(alg).update(data).digest('hex');
    peers.push(hexPeer, !str && callFloor(alg, data));
    if (!str) row.external.push(bun.cryptoHasherBytes(alg, data.length));
  }
  // The ceiling digests the very same memory when it can: a copy of 1 MiB
  // elsewhere can digest slower or faster (benchmark/README.md, "Times and
  // scatter measured on this VM").
  peers.push(ceiling(alg, [str ? Buffer.from(data) : data]));
  const expected = crypto.createHash(alg).update(data).digest(enc === 'buffer' ? undefined : enc);
  return { ...row, peers: peers.filter(Boolean), expected, bytes: Buffer.byteLength(data) };
}

// ---- (d): HMAC ----------------------------------------------------------------
// The ceiling of an HMAC is its two plain digests, H(key block || message)
// and H(key block || inner digest), each as benchCeiling runs it. HmacKey
// keeps the keyed states, so it skips a block of each and can beat it.
// 'C hmac' and 'C HmacKey' are the C work of hmac() and of HmacKey#digest
// (key schedule per call; precomputed keyed states) in a native loop, wipes
// included: what each call costs above them is its JS and Node-API cost.
// HmacKey#verify's result is its MAC when the verdict is true.
const KEY = bytes(32, 73, 11);
async function hmacRow(libs, alg, data) {
  const key = KEY, hk = fastHash.createHmacKey(alg, key);
  const mac = crypto.createHmac(alg, key).update(data).digest('hex');
  const s = { hmac: fastHash.hmac, crypto, alg, key, data, hk, mac };
  const peers = [
    peer('hmac', 'hmac(alg, key, data)', s),
    peer('HmacKey#digest', 'hk.digest(data)', s),
    peer('HmacKey#verify', "hk.verify(data, mac) ? mac : ''", s),
    peer('createHmac', "crypto.createHmac(alg, key).update(data).digest('hex')", s),
  ];
  // The id and the HmacKey are the ceiling addon's own (a module instance
  // apart from the one fast-hash runs on, which would refuse them).
  peers.push(nativeLoop('C hmac', (addon) => {
    const { id } = addon.resolve(alg);
    return (n) => addon.benchHmac(id, key, data, n);
  }), nativeLoop('C HmacKey', (addon) => {
    const handle = addon.hmacKeyNew(addon.resolve(alg).id, key);
    return (n) => addon.benchHmacKey(handle, data, n);
  }));
  const inner = wasmHasher(libs, alg); // a promise: createHMAC takes one
  if (inner) {
    const h = await libs.wasm.createHMAC(inner, key);
    peers.push(peer('hash-wasm', "h.init().update(data).digest('hex')", { h, data }));
  }
  const fn = nobleFn(libs, alg);
  const n = libs.noble;
  if (fn) peers.push(peer('noble', 'hex(mac(fn, key, data))', { fn, key, data, mac: n.hmac, hex: n.hex }));
  const { block, size } = binding.resolve(alg);
  peers.push(ceiling(alg, [bytes(block + data.length), bytes(block + size)]));
  const expected = crypto.createHmac(alg, key).update(data).digest('hex');
  return { peers: peers.filter(Boolean), expected, bytes: data.length, cleanup: () => hk.destroy() };
}

// ---- (e): hashMany vs loops (after many.js) ---------------------------------------
// One op is a whole list; times are divided down to items. Every peer builds
// the whole array of results, as a caller would keep them; the loops fill a
// preallocated array, so they pay no growth cost that hashMany does not. The
// list holds 1,000 items, or 2 MiB in all for larger items (128 of 16 KiB, 2
// of 1 MiB): small enough to stay in L2 cache (benchmark/README.md, "Times
// and scatter measured on this VM", has the size this was fitted to), as
// the ceiling's one buffer does, so the per-item ceiling compares like with
// like.
async function manyRow(libs, alg, size) {
  const count = Math.max(1, Math.min(1000, Math.floor((2 << 20) / size)));
  const inputs = Array.from({ length: count }, (_, k) => bytes(size, 31, k * 7 + 3));
  const loop = (fn) => `function all(alg, inputs) {
    const m = inputs.length, out = new Array(m);
    for (let i = 0; i < m; i++) out[i] = ${fn}(alg, inputs[i]);
    return out;
  }`;
  const s = { hashMany: fastHash.hashMany, hash: fastHash.hash, crypto, alg, inputs };
  const peers = [
    peer('hashMany', 'hashMany(alg, inputs)', s, { pick: '[0]' }),
    peer('hash() loop', 'all(alg, inputs)', s, { pick: '[0]', prelude: loop('hash') }),
    HAS_CRYPTO_HASH && peer('crypto.hash loop', 'all(alg, inputs)', s, { pick: '[0]', prelude: loop('crypto.hash') }),
    ceiling(alg, [bytes(size)], count),
  ].filter(Boolean);
  const expected = inputs.map((d) => crypto.createHash(alg).update(d).digest('hex'));
  return { peers, expected, bytes: size, perOp: count };
}

// ---- (f): createHasher() and hmacKey.createHasher() (after hasher.js) ----------------
// One part, a long-lived hasher's update(), a message of `size` bytes in two
// halves, and streaming HMAC of two halves; hash-wasm's and noble's own
// incremental APIs beside node:crypto's. Every peer is the fast-hash one
// under the name 'fast-hash', the table's title says which call it is.
async function hasherRow(libs, alg, size, kind) {
  const whole = bytes(size);
  const a = whole.subarray(0, size >> 1), b = whole.subarray(size >> 1);
  const key = KEY, hk = fastHash.createHmacKey(alg, key);
  const s = { fastHash, crypto, alg, data: whole, a, b, key, hk, concat: Buffer.concat };
  const wasm = await wasmHasher(libs, alg);
  const fn = nobleFn(libs, alg);
  const n = libs.noble;
  const peers = [];
  if (kind === 'one') {
    peers.push(peer('fast-hash', "fastHash.createHasher(alg).update(data).digest('hex')", s),
      peer('createHash', "crypto.createHash(alg).update(data).digest('hex')", s),
      HAS_CRYPTO_HASH && peer('crypto.hash', 'crypto.hash(alg, data)', s),
      peer('hash()', 'fastHash.hash(alg, data)', s));
    if (wasm) peers.push(peer('hash-wasm', "h.init().update(data).digest('hex')", { h: wasm, data: whole }));
    if (fn) peers.push(peer('noble', 'hex(fn.create().update(data).digest())', { fn, data: whole, hex: n.hex }));
    peers.push(ceiling(alg, [whole]));
  } else if (kind === 'update') {
    // Results are the hashers themselves: the expression gives 0 to check.
    const live = { ours: fastHash.createHasher(alg), theirs: crypto.createHash(alg) };
    peers.push(peer('fast-hash', 'ours.update(data) && 0', { ...live, data: whole }),
      peer('Hash#update', 'theirs.update(data) && 0', { ...live, data: whole }));
    if (wasm) peers.push(peer('hash-wasm', 'h.update(data) && 0', { h: wasm.init(), data: whole }));
    if (fn) peers.push(peer('noble', 'h.update(data) && 0', { h: fn.create(), data: whole }));
    return { peers: peers.filter(Boolean), expected: 0, bytes: size, cleanup: () => hk.destroy() };
  } else if (kind === 'two') {
    peers.push(peer('fast-hash', "fastHash.createHasher(alg).update(a).update(b).digest('hex')", s),
      HAS_CRYPTO_HASH && peer('crypto.hash(concat)', 'crypto.hash(alg, concat([a, b]))', s),
      peer('createHash', "crypto.createHash(alg).update(a).update(b).digest('hex')", s));
    if (wasm) peers.push(peer('hash-wasm', "h.init().update(a).update(b).digest('hex')", { h: wasm, a, b }));
    if (fn) peers.push(peer('noble', 'hex(fn.create().update(a).update(b).digest())', { fn, a, b, hex: n.hex }));
    peers.push(ceiling(alg, [whole]));
  } else {
    peers.push(peer('fast-hash', "hk.createHasher().update(a).update(b).digest('hex')", s),
      peer('createHmac', "crypto.createHmac(alg, key).update(a).update(b).digest('hex')", s),
      peer('HmacKey#digest(concat)', 'hk.digest(concat([a, b]))', s));
    if (wasm) {
      const h = await libs.wasm.createHMAC(wasmHasher(libs, alg), key);
      peers.push(peer('hash-wasm', "h.init().update(a).update(b).digest('hex')", { h, a, b }));
    }
    if (fn) peers.push(peer('noble', 'hex(mac.create(fn, key).update(a).update(b).digest())', { fn, key, a, b, mac: n.hmac, hex: n.hex }));
    const { block, size: digestSize } = binding.resolve(alg);
    peers.push(ceiling(alg, [bytes(block + size), bytes(block + digestSize)]));
    const expected = crypto.createHmac(alg, key).update(whole).digest('hex');
    return { peers: peers.filter(Boolean), expected, bytes: size, cleanup: () => hk.destroy() };
  }
  const expected = crypto.createHash(alg).update(whole).digest('hex');
  return { peers: peers.filter(Boolean), expected, bytes: size, cleanup: () => hk.destroy() };
}

// ---- the questions ----------------------------------------------------------------
// `algs` is the default for each question; --alg replaces it everywhere.
// Every table has a `primary` (the fast-hash call the ratios are taken to).
const QUESTIONS = [
  {
    id: 'a', name: 'digests', algs: ALGS, primary: 'fast-hash',
    tables: (alg) => [
      { title: `${alg}, Buffer input, hex output`, row: (libs, size) => digestRow(libs, alg, bytes(size), 'hex') },
    ],
  },
  {
    id: 'b', name: 'strings', algs: ['sha256'], primary: 'fast-hash',
    tables: (alg) => [
      { title: `${alg}, ASCII string input, hex output`,
        row: (libs, size) => digestRow(libs, alg, ascii(size), 'hex') },
      { title: `${alg}, non-ASCII string input (size in UTF-8 bytes), hex output`,
        row: (libs, size) => digestRow(libs, alg, nonAscii(size), 'hex') },
    ],
  },
  {
    id: 'c', name: 'outputs', algs: ['sha256'], primary: 'fast-hash',
    tables: (alg) => ['buffer', 'base64', 'base64url'].map((enc) =>
      ({ title: `${alg}, Buffer input, '${enc}' output`, enc,
        row: (libs, size) => digestRow(libs, alg, bytes(size), enc) })),
  },
  {
    id: 'd', name: 'hmac', algs: ['sha256', 'sha512'], primary: 'hmac',
    tables: (alg) => [
      { title: `HMAC-${alg}, 32-byte key, Buffer input, hex output`,
        row: (libs, size) => hmacRow(libs, alg, bytes(size)) },
    ],
  },
  {
    id: 'e', name: 'many', algs: ['sha256'], primary: 'hashMany',
    tables: (alg) => [{
      title: `${alg}, hashMany over a list of Buffers (1,000 items, 2 MiB in all above 2 KiB), hex output, per ITEM`,
      row: (libs, size) => manyRow(libs, alg, size),
    }],
  },
  {
    id: 'f', name: 'hasher', algs: ['sha256'], primary: 'fast-hash', quickSizes: [16, 64],
    tables: (alg) => [
      { title: `${alg}, createHasher().update(data).digest('hex'), one Buffer part`,
        row: (libs, size) => hasherRow(libs, alg, size, 'one') },
      { title: `${alg}, update(data) on a long-lived hasher (Hasher#update)`,
        row: (libs, size) => hasherRow(libs, alg, size, 'update') },
      { title: `${alg}, createHasher().update(a).update(b).digest('hex'), two Buffer halves`,
        row: (libs, size) => hasherRow(libs, alg, size, 'two') },
      { title: `HMAC-${alg}, 32-byte key, hmacKey.createHasher().update(a).update(b).digest('hex'), two halves`,
        row: (libs, size) => hasherRow(libs, alg, size, 'hmac') },
    ],
  },
  // Questions that are not tables of sizes (whole files, whole processes,
  // other runtimes): each runs itself, see standalone.js.
  ...require('./standalone'),
];

module.exports = { QUESTIONS, ALGS, SIZES, HAS_CRYPTO_HASH };
