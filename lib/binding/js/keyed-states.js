'use strict';
// HMAC as two keyed Hash states (RFC 2104), which, unlike Hmac, can be
// copied: what HMAC hashers start from, and on runtimes where
// runtime.keyStates, every HmacKey digest. Contract: keyStates() gives a
// KeyedPair; a pair is finished by digest() or free(); this side's copies
// of the key are wiped.
const crypto = require('crypto');
const { Buffer } = require('buffer');
const { runtime, oneShot, viewBytes } = require('./runtime');

// `outer` is the pair's own keyed Hash, or an OuterPad shared with the
// pairs it was copied from. digest() wipes the inner digest.
class KeyedPair {
  constructor(inner, outer) {
    this.inner = inner;
    this.outer = outer;
  }

  update(data) {
    this.inner.update(data);
    return this;
  }

  digest(encoding) {
    const inner = this.inner.digest();
    const { outer } = this;
    this.outer = undefined;
    try {
      if (outer instanceof OuterPad) return outer.finish(inner, encoding);
      return outer.update(inner).digest(encoding);
    } finally {
      inner.fill(0);
    }
  }

  copy() {
    const { outer } = this;
    return new KeyedPair(this.inner.copy(), outer instanceof OuterPad ? outer.retain() : outer.copy());
  }

  free() {
    const { outer } = this;
    this.outer = undefined;
    if (outer instanceof OuterPad) outer.release();
  }
}

// Wipes the pad bytes of an OuterPad collected before its last pair was
// finished (a hasher dropped unfinished).
const padRegistry = runtime.outerShot ? new FinalizationRegistry((bytes) => bytes.fill(0)) : undefined;

// The outer step of the pairs keyed from one key (runtime.outerShot):
// `bytes` holds K0 ^ opad, then room for the inner digest, so text is one
// crypto.hash; a Buffer comes from a copy of `outer` (the same keyed Hash),
// so that no text of the MAC is made. The bytes are this side's copy of the
// key: wiped once no pair is left unfinished (a key's destroy() finishes
// its own), or when the last pair is collected.
class OuterPad {
  constructor(alg, outer, k0) {
    this.name = alg.name;
    this.outer = outer;
    this.block = alg.block;
    this.bytes = Buffer.alloc(alg.block + alg.size);
    this.bytes.set(k0);
    this.pairs = 1;
    padRegistry.register(this, this.bytes);
  }

  retain() {
    this.pairs++;
    return this;
  }

  release() {
    if (--this.pairs === 0) this.bytes.fill(0);
  }

  finish(inner, encoding) {
    try {
      if (encoding === undefined) return this.outer.copy().update(inner).digest();
      this.bytes.set(inner, this.block);
      return oneShot(this.name, this.bytes, encoding);
    } finally {
      this.bytes.fill(0, this.block);
      this.release();
    }
  }
}

// The keyed inner and outer states of `alg` (a block-based digest): K0 is
// the key, or its digest when it is longer than a block, zero-padded; inner
// absorbs K0 ^ ipad, outer K0 ^ opad. `key` is a KeyObject (its export is
// wiped) or a string or a view (a string's UTF-8 copy is wiped; a view is
// the caller's).
function keyStates(alg, key) {
  const { name, block } = alg;
  const own = typeof key === 'string' ? Buffer.from(key) : ArrayBuffer.isView(key) ? undefined : key.export();
  if (own !== undefined) key = own;
  else key = viewBytes(key);
  const k0 = Buffer.alloc(block);
  try {
    if (key.length > block) {
      const digest = crypto.createHash(name).update(key).digest();
      k0.set(digest);
      digest.fill(0);
    } else {
      k0.set(key);
    }
    for (let i = 0; i < block; i++) k0[i] ^= 0x36;
    const inner = crypto.createHash(name).update(k0);
    for (let i = 0; i < block; i++) k0[i] ^= 0x36 ^ 0x5c;
    const outer = crypto.createHash(name).update(k0);
    return new KeyedPair(inner, runtime.outerShot && alg.direct ? new OuterPad(alg, outer, k0) : outer);
  } finally {
    if (own !== undefined) own.fill(0);
    k0.fill(0);
  }
}

module.exports = { KeyedPair, keyStates };
