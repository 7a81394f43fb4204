'use strict';
// The Hasher class over the binding's hasher functions (binding/): staging
// of short parts, digest() and copy(), finalisation, and the release of
// native states dropped unfinished. Contract: a Hasher is usable on the
// thread that made it; every call of a finished one throws
// ERR_CRYPTO_HASH_FINALIZED, and an HMAC hasher whose key was destroyed
// before it had a state of its own throws ERR_INVALID_STATE.

const binding = require('../binding');
// Node's global Buffer is a getter: a module binding is a plain load.
const { Buffer } = require('buffer');
const { ENC_BUFFER, encodingId, toBytes } = require('../args');
const { textShot, stageShot, stateDigest } = require('../results');
const { makeError, keyDestroyed, finalized, invalidThis, pending } = require('../errors');
const { byteLengthOf, setBytes } = require('../views');
const { decode, digestOptions, hasherLength } = require('./options');
const { passThrough } = require('./pass-through');
const { noter, watch } = require('./release');
const { leaseHandle, leaseMac } = require('./lease');
const { targetSlot } = require('../into');
const { isUint8Array } = require('util').types;

// Hashers with a native state are noted, to be registered for release if
// they are dropped unfinished (release.js).
const note = noter((hasher) => internal.register(hasher));

// ---- staging ------------------------------------------------------------------
// A binding call costs about what a short part's digest does
// (benchmark/README.md), so Uint8Array parts are copied into a stage of
// the hasher's own (taken at update(): later changes to a part change
// nothing), sent when it would overflow, before a part that is not staged,
// and at digest(). A hasher makes no native state until then: when all fits
// the stage, digest() is one one-shot (an HmacKey digest for HMAC). That is
// also what lets garbage collection alone reclaim short hashers dropped in
// code that never yields (a native state is freed only after a collection
// and a turn of the loop: release.js). Until it has a state, an HMAC hasher
// holds a lease on its key (lease.js); once the key is destroyed its calls
// throw ERR_INVALID_STATE and its staged bytes are wiped. An HMAC stage is
// memory of its own (not Buffer's pool), wiped once absorbed. stageBytes
// and macStageBytes: how much to gather (0: the runtime's own incremental
// hasher costs less than gathering).
const STAGE = binding.stageBytes;
const MAC_STAGE = binding.macStageBytes;
// Staging calls the intrinsics with .call() and tells a Uint8Array by
// isUint8Array, the cheapest ways on every engine (benchmark/README.md).
const allocUnsafe = Buffer.allocUnsafe;
const EMPTY = new Uint8Array(0);
// The stage of the last hasher finished, for the next to take: a loop of
// hashers allocates none. (One, not a list, whose push and pop cost more:
// benchmark/README.md.) HMAC hashers have theirs, wiped.
let spare;
let macSpare;

const kConstruct = Symbol('fast-hash Hasher');
// This module's one way into a hasher's private methods, for the
// functions exported below (stream/ uses them) and note()'s registration.
let internal;

// An incremental digest (createHasher) or streaming HMAC
// (hmacKey.createHasher()). Usable on the thread that created it.
class Hasher {
  #handle;     // the binding's; undefined until a plain hasher needs one
  #alg;        // resolve()'s entry, or for HMAC { name, size, xof: false }
  #length;     // output bytes
  #hmac;
  #lease;      // an HMAC hasher's on its key, while it has no native state
  #limit;      // how many bytes it stages: STAGE, or MAC_STAGE for HMAC
  #finished = false;
  #pending = false; // updateFrom() reading into it
  #cell;       // the registry's held value, once registered
  #stage;      // staged bytes: #stage[0, #used)
  #used = 0;
  #text;       // a first UTF-8 string part, kept as it is (strings cannot
               // change) until the hasher has a native state

  constructor(token, handle, alg, length, hmac, lease) {
    if (token !== kConstruct) {
      throw makeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR',
        'Illegal constructor: use createHasher()', Hasher);
    }
    this.#handle = handle;
    this.#alg = alg;
    this.#length = length;
    this.#hmac = hmac;
    this.#limit = hmac ? MAC_STAGE : STAGE;
    this.#lease = lease;
    if (handle !== undefined) note(this);
  }

  // `#handle in x` throws for primitives: a method taken off its object must
  // still get a coded error.
  static #is(value) {
    return value !== null && typeof value === 'object' && #handle in value;
  }

  // Throws unless `h` is a Hasher that takes calls: not finished, no
  // updateFrom() pending. `name`: the method called.
  static #check(h, name) {
    if (!Hasher.#is(h)) throw invalidThis('Hasher', name);
    if (h.#pending) throw pending(Hasher.prototype[name]);
    if (h.#finished) throw finalized(Hasher.prototype[name]);
  }

  static {
    internal = {
      setPending: (h, on) => { h.#pending = on; },
      register: (h) => h.#register(),
      absorbAsync: (h, batch, n) => h.#absorbAsync(batch, n),
      discard: (h) => h.#discard(),
      clone: (h) => h.copy(h.#hmac ? undefined : { outputLength: h.#length }),
    };
  }

  // Registered with the registry, unless finished or registered already.
  #register() {
    if (!this.#finished && this.#cell === undefined) {
      this.#cell = watch(this, this.#handle);
    }
  }

  // A stream digest's batch, absorbed off the event loop: what is kept goes
  // first, so the hasher has a native state for the job to update. The
  // hasher takes no other call until the promise settles.
  #absorbAsync(batch, n) {
    this.#send(undefined);
    return binding.hasherUpdateAsync(this.#handle, batch, n);
  }

  // A stream digest that failed: its state is freed and its staged bytes
  // given back now, not at collection.
  #discard() {
    if (this.#finished) return;
    this.#finished = true;
    if (this.#cell !== undefined) this.#cell.handle = undefined;
    if (this.#handle !== undefined) binding.hasherFree(this.#handle);
    this.#text = undefined;
    this.#spare();
    this.#lease = undefined;
  }

  get algorithm() {
    if (!Hasher.#is(this)) throw invalidThis('Hasher', 'algorithm');
    return this.#alg.name;
  }

  update(data, inputEncoding) {
    Hasher.#check(this, 'update');
    if (this.#lease !== undefined && !this.#lease.live) throw this.#keyGone(this.update);
    // Uint8Arrays (Buffers too) first: the common part, staged when short.
    if (this.#limit !== 0 && isUint8Array(data)) {
      this.#updateBytes(data);
      return this;
    }
    if (typeof data !== 'string') {
      if (!ArrayBuffer.isView(data)) {
        // An ArrayBuffer becomes a Uint8Array over it: staged as one.
        return this.update(toBytes(data, 'data', this.update));
      }
      this.#send(data);
      return this;
    }
    // A falsy encoding reads UTF-8, as Hash#update does.
    if (inputEncoding) {
      const bytes = decode(data, inputEncoding, this.update);
      if (typeof bytes !== 'string') return this.update(bytes);
    }
    // Checked: nothing below refuses the part.
    if (this.#handle === undefined && this.#used === 0 && this.#text === undefined) {
      this.#text = data;
    } else {
      this.#send(data);
    }
    return this;
  }

  // A Uint8Array part: staged when it fits, else sent (after what is kept).
  #updateBytes(data) {
    const limit = this.#limit;
    const n = byteLengthOf.call(data);
    if (n <= limit - this.#used && this.#text === undefined) {
      if (n !== 0) this.#stageBytes(data, n);
    } else if (n < limit) {
      this.#send(undefined);
      this.#stageBytes(data, n);
    } else {
      this.#send(data);
    }
  }

  #stageBytes(data, n) {
    let stage = this.#stage;
    if (stage === undefined) {
      if (this.#hmac) {
        // A Uint8Array, not a Buffer: its subarray() (#keyShot) is the
        // plain one, without Buffer's species lookup.
        stage = macSpare ?? new Uint8Array(MAC_STAGE);
        macSpare = undefined;
      } else {
        stage = spare ?? allocUnsafe(STAGE);
        spare = undefined;
      }
      this.#stage = stage;
    }
    setBytes.call(stage, data, this.#used);
    this.#used += n;
  }

  // Sends what is kept (the first string, the staged bytes), then `data` if
  // given, to the native state (made now if there is none).
  #send(data) {
    let handle = this.#handle;
    if (handle === undefined) {
      handle = this.#handle = this.#hmac ? this.#keyState() : binding.hasherNew(this.#alg.id, this.#length);
      note(this);
    }
    if (this.#text !== undefined) {
      binding.hasherUpdate(handle, this.#text);
      this.#text = undefined;
    }
    if (this.#used !== 0) {
      binding.hasherUpdate(handle, this.#stage, this.#used);
      if (this.#hmac) this.#stage.fill(0, 0, this.#used);
      this.#used = 0;
    }
    if (data !== undefined) binding.hasherUpdate(handle, data);
  }

  // An HMAC hasher's native state, made from its key's; the lease is let
  // go once the state is made.
  #keyState() {
    const handle = binding.hmacKeyHasher(leaseHandle(this.#lease));
    this.#lease = undefined;
    return handle;
  }

  // The MAC of everything staged (a string, or staged bytes), made with
  // the key.
  #keyShot(encoding, out) {
    const lease = this.#lease;
    this.#lease = undefined;
    const data = this.#text ?? (this.#used === 0 ? EMPTY : this.#stage.subarray(0, this.#used));
    return leaseMac(lease, this.#alg.size, data, encoding, out);
  }

  // The error of a call on a hasher whose key was destroyed before it had a
  // state of its own: what it staged is wiped, and it stays unusable.
  #keyGone(caller) {
    this.#text = undefined;
    this.#spare();
    return keyDestroyed(caller);
  }

  digest(options) {
    Hasher.#check(this, 'digest');
    let encoding = ENC_BUFFER;
    let length = this.#length;
    // A falsy argument gives a Buffer, as Hash#digest's does.
    if (typeof options === 'string' && options !== '') {
      encoding = encodingId(options, 'outputEncoding', this.digest);
    } else if (options) {
      const spec = digestOptions(options, this.#hmac ? undefined : this.#alg, this.digest);
      encoding = spec.encoding;
      if (spec.length >= 0) length = spec.length;
      // The options' getters may have finished this hasher.
      Hasher.#check(this, 'digest');
    }
    if (this.#lease !== undefined && !this.#lease.live) throw this.#keyGone(this.digest);
    if (this.#handle === undefined) return this.#shot(encoding, length);
    return this.#finish(encoding, length);
  }

  // The digest written into target[offset, offset + length) (into.js
  // checks them first: a target too small finishes nothing).
  digestInto(target, offset) {
    Hasher.#check(this, 'digestInto');
    const out = targetSlot(target, offset, this.#length, this.digestInto);
    if (this.#lease !== undefined && !this.#lease.live) throw this.#keyGone(this.digestInto);
    if (this.#handle === undefined) this.#shot(ENC_BUFFER, this.#length, out);
    else this.#finish(ENC_BUFFER, this.#length, out);
    return this.#length;
  }

  // The digest of a hasher with no native state: one call of what it kept
  // (into `out` when given).
  #shot(encoding, length, out) {
    this.#finished = true;
    try {
      if (this.#hmac) return this.#keyShot(encoding, out);
      return this.#text !== undefined ? textShot(this.#alg.id, this.#text, length, encoding, out) :
        stageShot(this.#alg.id, this.#stage ?? EMPTY, this.#used, length, encoding, out);
    } finally {
      this.#spare();
    }
  }

  // The digest of the native state, with the staged bytes as its tail
  // (into `out` when given).
  #finish(encoding, length, out) {
    let handle = this.#handle;
    if (length !== this.#length) {
      // A length of its own for this digest (XOFs): a copy squeezes it.
      if (this.#used !== 0) this.#send(undefined);
      const copy = binding.hasherCopy(handle, length);
      binding.hasherFree(handle);
      handle = copy;
    }
    const stage = this.#stage ?? EMPTY;
    const used = this.#used;
    this.#finished = true;
    if (this.#cell !== undefined) this.#cell.handle = undefined;
    let result;
    try {
      result = stateDigest(handle, encoding, stage, used, length, this.#hmac, out);
    } catch (err) {
      // hasherDigest frees the state whatever fails; a failure before it
      // (the output's allocation) must free it too. A freed handle names
      // nothing, so this is a no-op after hasherDigest.
      binding.hasherFree(handle);
      throw err;
    }
    this.#spare();
    return result;
  }

  // A finished hasher's stage is left for the next hasher (an HMAC one's
  // wiped first).
  #spare() {
    const stage = this.#stage;
    if (stage === undefined) return;
    this.#stage = undefined;
    if (this.#hmac) {
      // Bytes past #used were wiped when they were sent on.
      stage.fill(0, 0, this.#used);
      this.#used = 0;
      macSpare = stage;
    } else {
      spare = stage;
    }
  }

  // A copy's stage: the whole of the original's (cheaper than cutting it).
  #stageCopy(stage, used) {
    this.#stageBytes(stage, this.#limit);
    this.#used = used;
  }

  copy(options) {
    Hasher.#check(this, 'copy');
    // As Hash#copy: without outputLength an XOF copy has the default length.
    // HMAC ignores outputLength, as createHmac does.
    const length = this.#hmac ? this.#length : hasherLength(options, this.#alg, this.copy);
    // The options' getters may have finished this hasher.
    Hasher.#check(this, 'copy');
    if (this.#lease !== undefined && !this.#lease.live) throw this.#keyGone(this.copy);
    const handle = this.#handle === undefined ? undefined : binding.hasherCopy(this.#handle, length);
    const lease = handle === undefined ? this.#lease : undefined;
    const copy = new Hasher(kConstruct, handle, this.#alg, length, this.#hmac, lease);
    copy.#text = this.#text;
    if (this.#used !== 0) copy.#stageCopy(this.#stage, this.#used);
    return copy;
  }

  // A Transform that updates this hasher with every chunk it passes on
  // (pass-through.js).
  passThrough() {
    Hasher.#check(this, 'passThrough');
    return passThrough(this);
  }

  // Everything `source` yields, fed in (update-from.js; required here, as
  // it needs stream/, which needs this module).
  updateFrom(source, options) {
    Hasher.#check(this, 'updateFrom');
    return require('./update-from').updateFrom(this, this.#hmac, source, options, Hasher.prototype.updateFrom);
  }

  get [Symbol.toStringTag]() {
    return 'Hasher';
  }
}

// A new Hasher (hasher/index.js checks the arguments): `handle` its native
// state, if it has one already; `lease` an HMAC hasher's on its key.
function newHasher(handle, alg, length, hmac, lease) {
  return new Hasher(kConstruct, handle, alg, length, hmac, lease);
}

// The interface stream/ drives a hasher through, besides its public
// methods: absorbAsync(hasher, batch, n) absorbs batch[0, n) off the event
// loop (a Promise; no other call until it settles); discard(hasher)
// finishes a hasher whose stream digest failed, freeing its state now.
const absorbAsync = (hasher, batch, n) => internal.absorbAsync(hasher, batch, n);
const discard = (hasher) => internal.discard(hasher);
// clone(hasher): a copy with the same output length (copy() without options
// gives an XOF copy the default one).
const clone = (hasher) => internal.clone(hasher);
// setPending(hasher, on): marks a hasher that updateFrom() reads into.
const setPending = (hasher, on) => internal.setPending(hasher, on);

module.exports = { Hasher, newHasher, absorbAsync, discard, clone, setPending };
