'use strict';
// resolve(): what node:crypto makes of a digest's name, probed once per name
// without side effects, and the slot (ID) of the digest it names, with the
// ways its results are made here (digests.js, macs.js, shots.js). Contract:
// one slot per distinct digest (aliases share one: a digest is known by its
// output for a fixed message), so odd spellings cannot grow the table; a
// name the runtime refuses, or with a NUL, resolves to undefined.
const crypto = require('crypto');
const { Buffer } = require('buffer');
const { BUN, BunHasher, BUN_CLASSES, oneShot } = require('./runtime');
const { algs } = require('./table');
const { digestWay } = require('./digests');
const { macWay } = require('./macs');
const { shotOf, macShotOf, shotFlags } = require('./shots');
const { makeError } = require('../../errors');

const slotOf = new Map();
const PROBE = 'fast-hash';

// SHAKE digests of '' at 16 bytes: the default lengths node:crypto gives
// (16 for SHAKE128, 32 for SHAKE256), without asking for one (DEP0198).
const SHAKE_DEFAULT = new Map([
  ['7f9c2ba4e88f827d616045507605853e', 16],
  ['46b9dd2b0ba88d13233b3feb743eeb24', 32],
]);

// An output length of 0 is accepted only by an XOF (another digest refuses
// any length but its own), and naming a length never warns (DEP0198).
function probe(name) {
  let xof;
  try {
    crypto.createHash(name, { outputLength: 0 }).digest(); // some runtimes refuse only here
    xof = true;
  } catch {
    xof = false;
  }
  try {
    if (xof) {
      const empty = crypto.createHash(name, { outputLength: 16 }).digest('hex');
      const size = SHAKE_DEFAULT.get(empty) ?? crypto.createHash(name).digest().length;
      const print = crypto.createHash(name, { outputLength: 32 }).update(PROBE).digest('hex');
      return { xof, size, key: `xof:${print}` };
    }
    const digest = crypto.createHash(name).update(PROBE).digest();
    return { xof, size: digest.length, key: `md:${digest.toString('hex')}` };
  } catch {
    return undefined;
  }
}

function resolve(name) {
  if (typeof name !== 'string') {
    throw makeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The name must be a string');
  }
  // OpenSSL stops at a NUL; "sha256\0junk" must not mean sha256.
  if (name.includes('\u0000')) return undefined;
  const found = probe(name);
  if (found === undefined) return undefined;
  // Names share a slot only where the runtime treats them alike: the same
  // digest, taken by its HMAC and its one-shot alike (Deno's createHmac
  // refuses RSA-SHA224, which is sha224 to its createHash; Bun's crypto.hash
  // refuses RSA-SHA1).
  const block = found.xof ? 0 : blockOf(name);
  const direct = !found.xof && oneShotTakes(name);
  const keyed = !found.xof && bunKeys(name);
  const key = `${found.key}|${block}|${direct}|${keyed}`;
  let id = slotOf.get(key);
  if (id === undefined) {
    id = algs.length;
    const cls = found.xof ? undefined : bunClassFor(found.key);
    algs.push({ name, size: found.size, xof: found.xof, block, direct, cls, pristine: undefined,
      ...shotFlags(direct, cls), way: digestWay(cls, direct), mac: macWay(keyed, block) });
    slotOf.set(key, id);
  }
  const alg = algs[id];
  return { id, size: found.size, block, xof: found.xof, path: 'js', shot: shotOf(alg), macShot: macShotOf(alg) };
}

// The block size, which node:crypto does not tell, seen through HMAC: a key
// longer than the block is replaced by its digest, so a key of L bytes and
// its digest give the same MAC exactly when L exceeds the block.
const BLOCK_SIZES = [16, 32, 48, 64, 72, 104, 128, 136, 144, 168];
// 0 when it cannot be seen: the runtime's HMAC refuses the digest (Bun's
// does blake2b512, which its createHash takes).
function blockOf(name) {
  try {
    for (const block of BLOCK_SIZES) {
      const key = Buffer.alloc(block + 1, 0x5c);
      const mac = crypto.createHmac(name, key).digest('hex');
      if (mac === crypto.createHmac(name, crypto.createHash(name).update(key).digest()).digest('hex')) {
        return block;
      }
    }
  } catch {
    // no HMAC over this digest here
  }
  return 0;
}

// Whether the one-shot takes the name as createHash does (Bun's crypto.hash
// refuses RSA-SHA1, which its createHash takes).
function oneShotTakes(name) {
  try {
    oneShot(name, '', 'hex');
    return true;
  } catch {
    return false;
  }
}

// The Bun class (Bun.SHA256, ...) whose hash() gives the digest printed
// `print` (probe()'s key), if any.
let bunClasses;
function bunClassFor(print) {
  if (BUN === undefined) return undefined;
  bunClasses ??= new Map(BUN_CLASSES.filter((n) => typeof BUN[n]?.hash === 'function')
    .map((n) => [`md:${BUN[n].hash(PROBE, 'hex')}`, BUN[n]]));
  return bunClasses.get(print);
}

// Whether a keyed Bun.CryptoHasher gives createHmac's MAC over `name`, for
// a key shorter and one longer than any block.
function bunKeys(name) {
  if (BunHasher === undefined) return false;
  try {
    return ['k', 'k'.repeat(200)].every((key) => new BunHasher(name, key).update(PROBE).digest('hex') ===
      crypto.createHmac(name, key).update(PROBE).digest('hex'));
  } catch {
    return false;
  }
}

module.exports = { resolve };
