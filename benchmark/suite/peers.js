'use strict';
// The implementations the suite compares, as peers for common.js: { name,
// one(): a single result for the check, loop(c, n): n calls }. The peer
// libraries are loaded once (both are ESM; hash-wasm's hashers are made by
// promises, but are synchronous once made).
//
// fast-hash runs whichever implementation lib/binding/index.js picks
// (FAST_HASH_IMPLEMENTATION=js|native); the ceiling is always the native
// code's, from the benchmarks' own addon (benchmark/ceiling: the shipped
// addon plus its bench.c, compiled on first use), so js rows are measured
// against the same digest alone. Where it cannot load (Bun, Deno, no
// compiler) there is no ceiling.

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const fastHash = require('../..');
const binding = require('../../lib/binding');
const ceilingAddon = require('../ceiling');
const { tag } = require('../common');

// { addon } or { error }: the addon for the ceiling, or why it cannot load.
// Loaded (and compiled if need be) on first use only: a benchmark that
// takes just peer() from here never compiles it. It is a module instance of
// its own: the ids and HmacKeys its bench functions take come from its own
// resolve() and hmacKeyNew().
let loadedNative = null;
const native = () => (loadedNative ||= ceilingAddon.tryLoad());

// What this run measures, for the header, the JSON and the headlines (the
// ceiling's fields are read when first asked for).
const IMPLEMENTATION = {
  fastHash: fastHash.implementation,
  requested: process.env.FAST_HASH_IMPLEMENTATION || null,
  get ceiling() { return native().addon ? 'native addon (benchCeiling)' : null; },
  get ceilingMissing() { return native().addon ? null : native().error; },
};
const LABEL = `fast-hash (${fastHash.implementation} implementation)`;

// Each peer's loop is compiled fresh for each cell, so no call site in it
// ever sees two algorithms, input types or libraries: every peer runs as
// monomorphic as it would in a program that does one thing, and no peer pays
// for feedback another left behind. `scope` holds the cell's constants;
// `prelude` declares helpers (compiled fresh too), `pick` selects the part
// of a result the loop folds into its sink (tag: length ^ first element).
function peer(name, expr, scope, { prelude = '', pick = '' } = {}) {
  const keys = Object.keys(scope), vals = keys.map((k) => scope[k]);
  const one = new Function(...keys, `${prelude}\nreturn () => ${expr};`)(...vals);
  const loop = new Function('tag', ...keys, `${prelude}
    return function loop(c, n) {
      let s = 0;
      for (let i = 0; i < n; i++) s ^= tag((${expr})${pick});
      return s;
    };`)(tag, ...vals);
  return { name, one, loop };
}

// The ceiling: the digest alone (benchCeiling: the very OpenSSL call hash()
// makes, in a native loop). One op digests each of `parts` (HMAC: two
// digests), `repeat` times (hashMany: one per item of the list). Its result
// is what an op would cost with no JS, argument or result work at all.
// null where the addon cannot load (the caller drops it from its peers).
function ceiling(alg, parts, repeat = 1) {
  const addon = native().addon;
  if (!addon) return null;
  const id = addon.resolve(alg).id;
  return {
    name: 'ceiling',
    native: true,
    one: () => null,
    loop(c, n) {
      let s = 0;
      for (const p of parts) s += addon.benchCeiling(id, p, n * repeat);
      return s | 0;
    },
  };
}

// A native loop beside the ceiling: make(addon) returns fn(n), which runs n
// calls' C work in C (benchHmac, benchHmacKey); make takes its ids and keys
// from that addon. Its result is a time, not a digest, so it is not checked;
// null where the addon cannot load.
function nativeLoop(name, make) {
  const addon = native().addon;
  if (!addon) return null;
  const fn = make(addon);
  return { name, native: true, one: () => null, loop: (c, n) => fn(n) | 0 };
}

// The floor of a call that returns a digest as new bytes: Buffer.allocUnsafe
// of the digest's size plus benchCall, a Node-API call that digests `data`
// as hash() does and makes no result. Nothing is checked (its Buffer holds
// no digest); null where the addon cannot load.
function callFloor(alg, data) {
  const addon = native().addon;
  if (!addon) return null;
  const { id, size } = addon.resolve(alg);
  const p = peer('call floor', '(addon.benchCall(id, data), Buffer.allocUnsafe(size))', { addon, id, size, data, Buffer });
  return { ...p, native: true };
}

// ---- peer libraries -------------------------------------------------------------
const version = (name) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'node_modules', name, 'package.json'))).version;
  } catch { return '?'; }
};

// { wasm, noble, versions }; a library that is not installed is null (its
// columns are then left out, with a note), so the suite runs without them.
async function loadLibs() {
  const out = { versions: {} };
  try {
    out.wasm = await import('hash-wasm');
    out.versions['hash-wasm'] = version('hash-wasm');
  } catch { out.wasm = null; }
  try {
    const [sha2, sha3, legacy, blake2, hmac, utils] = await Promise.all(
      ['sha2', 'sha3', 'legacy', 'blake2', 'hmac', 'utils'].map((m) => import(`@noble/hashes/${m}.js`)));
    out.noble = { sha2, sha3, legacy, blake2, hmac: hmac.hmac, hex: utils.bytesToHex, utf8: utils.utf8ToBytes };
    out.versions['@noble/hashes'] = version('@noble/hashes');
  } catch { out.noble = null; }
  return out;
}

// Per algorithm: hash-wasm's hasher factory and noble's hash function.
const WASM = {
  sha256: (w) => w.createSHA256(), sha512: (w) => w.createSHA512(), md5: (w) => w.createMD5(),
  sha1: (w) => w.createSHA1(), 'sha3-256': (w) => w.createSHA3(256), blake2b512: (w) => w.createBLAKE2b(512),
};
const NOBLE = {
  sha256: (n) => n.sha2.sha256, sha512: (n) => n.sha2.sha512, md5: (n) => n.legacy.md5,
  sha1: (n) => n.legacy.sha1, 'sha3-256': (n) => n.sha3.sha3_256, blake2b512: (n) => n.blake2.blake2b,
};
const wasmHasher = (libs, alg) => (libs.wasm && WASM[alg] ? WASM[alg](libs.wasm) : null);
const nobleFn = (libs, alg) => (libs.noble && NOBLE[alg] ? NOBLE[alg](libs.noble) : null);

module.exports = {
  peer, ceiling, callFloor, nativeLoop, loadLibs, wasmHasher, nobleFn, crypto, fastHash, binding, IMPLEMENTATION, LABEL,
};
