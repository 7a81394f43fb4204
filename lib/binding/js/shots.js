'use strict';
// The shim's shortest paths for the commonest calls (interface.js, `shot`
// and `macShot`): the runtime's one-shot and HMAC chain, called from the
// shim's hash() and hmac() themselves with nothing between but one small
// function, which the engine inlines. Contract: shot(entry.shot, enc,
// data, length) and macShot(entry.macShot, enc, key, data) give what
// hash() and hmac() give for a text encoding; a digest whose text comes
// another way has no token (its resolve() entry names none).
const { BunHasher, VIEWS, oneShot, update } = require('./runtime');
const { TEXT_NAMES } = require('./table');
const { hash } = require('./digests');
const { WAYS, keyedHmac, hmac } = require('./macs');

// On Bun a class's hash() (the token: the class), elsewhere crypto.hash
// (the token: the name), where they take every view as it is; else none,
// and hash() itself stands in.
let shot = hash;
if (VIEWS.cls) shot = (cls, enc, data) => cls.hash(data, TEXT_NAMES[enc]);
else if (VIEWS.shot) shot = (name, enc, data) => oneShot(name, data, TEXT_NAMES[enc]);

// The token of `alg` (algorithms.js's slot) for shot().
function shotOf(alg) {
  if (VIEWS.cls) return alg.classShot ? alg.cls : undefined;
  return alg.shot ? alg.name : undefined;
}

// The chain of the keyed state hmac() uses, where that state takes every
// key and view as it is: a keyed Bun.CryptoHasher on Bun (for the digests
// whose way is WAYS.bun), createHmac on Node (WAYS.hmac); Deno's keyed
// states are two Hash objects, and its HMAC has none.
const MAC_SHOT_WAY = BunHasher !== undefined ? WAYS.bun : WAYS.hmac;
const MAC_VIEWS = BunHasher !== undefined ? VIEWS.key && VIEWS.hasher : VIEWS.hmac;
let macShot = hmac;
if (MAC_VIEWS && BunHasher !== undefined) {
  macShot = (name, enc, key, data) => update(new BunHasher(name, key), data).digest(TEXT_NAMES[enc]);
} else if (MAC_VIEWS) {
  macShot = (name, enc, key, data) => update(keyedHmac(name, key), data).digest(TEXT_NAMES[enc]);
}

// The token of `alg` for macShot().
function macShotOf(alg) {
  return MAC_VIEWS && alg.mac === MAC_SHOT_WAY && alg.block !== 0 ? alg.name : undefined;
}

// Whether hash() itself takes the shot for `alg` (a view as it is is
// read right by the call): `direct` whether the one-shot takes its name,
// `cls` its Bun class.
const shotFlags = (direct, cls) => ({
  shot: direct && cls === undefined && VIEWS.shot, classShot: cls !== undefined && VIEWS.cls,
});

module.exports = { shot, macShot, shotOf, macShotOf, shotFlags };
