'use strict';
// createHasher() and hmacKey.createHasher(): incremental digests and
// streaming HMACs, the Hasher class over the binding's hasher functions
// (binding.js). The argument rules are the shared ones (args.js); what is
// particular to a Hasher is here: input encodings, digest() giving a Buffer
// by default, copy() taking its own output length, and finalisation.

const binding = require('./binding');
// Node's global Buffer is a getter: a module binding is a plain load.
const { Buffer } = require('buffer');
const {
  ENC_BUFFER, ENCODING_NAMES, isNativeText, encodingId, fromBuffer, lookupAlgorithm, checkAlgorithm,
  parseOptions, outputLength, toBytes, guarded, macScratch, takeMac, allocOutput, keyMac,
} = require('./args');
const { makeError, invalidArgType, invalidArgValue, keyDestroyed } = require('./errors');
const { isDataView, isUint8Array } = require('util').types;

// ---- hashers dropped unfinished -------------------------------------------
// The native states live in the addon's store, named by token: a hasher
// dropped before digest() must give its slot back. A FinalizationRegistry
// does that, but registering costs a visible part of a short digest, and
// most hashers are finished in the job that made them. So a
// hasher is only noted when made; at the end of the job (a microtask), or
// every PENDING_MAX hashers in a long synchronous run, the noted ones still
// unfinished are registered and the rest forgotten. Until then the list
// keeps them alive, so none can be collected unregistered.
const RELEASES = binding.implementation === 'native';
const PENDING_MAX = 1024;
const registry = RELEASES ? new FinalizationRegistry(release) : undefined;
let pending = [];
let flushQueued = false;

// The registry's callback: `cell.handle` is cleared by digest(), so only
// an unfinished hasher's slot is released.
function release(cell) {
  if (cell.handle !== undefined) binding.hasherFree(cell.handle);
}

function flushSoon() {
  flushQueued = false;
  flush();
}

const kConstruct = Symbol('fast-hash Hasher');
let register; // (hashers) => registers the unfinished ones; set in the class
let absorbAsync; // (hasher, batch, n) => Promise; set in the class (stream.js)
let discard; // (hasher) => finishes it unused; set in the class (stream.js)

// Notes a hasher that has a native state, to be registered if it is still
// unfinished at the end of the job.
function note(hasher) {
  if (!RELEASES) return;
  if (pending.push(hasher) >= PENDING_MAX) {
    flush();
  } else if (!flushQueued) {
    flushQueued = true;
    queueMicrotask(flushSoon);
  }
}

// ---- staging ------------------------------------------------------------------
// A call into the addon costs a good part of what Hash#update does in all,
// so short parts are not sent one by one: Uint8Array parts (Buffers included)
// are copied into a STAGE-byte Buffer of the hasher's own, sent when it
// would overflow, before a part that is not staged, and at digest(). A
// plain hasher makes no native state until then: when everything fits the
// stage, digest() is one one-shot hash() of it. The copy is taken at
// update(), so changing a part afterwards changes nothing, as with Hash.
// (Stages come out of Buffer's pool: no native allocation per hasher.)
//
// An HMAC hasher stages the same way, and makes no native state while
// everything fits the stage: digest() is then one HmacKey digest of the
// staged bytes. A native state is freed only after a collection and a turn
// of the event loop (the registry above), so this is what lets garbage
// collection alone reclaim short HMAC hashers dropped in code that never
// yields. Until it has a state of its own, the hasher holds a lease on its
// key (index.js): the key's handle, and whether destroy() has wiped it;
// once it has, every later call of the hasher throws ERR_INVALID_STATE, as
// the key's own do, and its staged bytes are wiped. An HMAC stage is the hasher's
// own memory, not Buffer's pool (where any pooled Buffer's .buffer reaches
// it), and is wiped once its bytes are absorbed.
// The binding says how much to gather, for plain hashers (stageBytes) and
// HMAC ones (macStageBytes): 256 for the addon; for the JavaScript
// implementation on Node, more for plain hashers (its Hash objects cost
// more) and none for HMAC ones (node:crypto has no one-shot HMAC: the
// staged bytes would still go through an Hmac, after a copy and a wipe).
// Where gathering costs more than the runtime's own incremental hasher (the
// JavaScript implementation on Deno), nothing is staged.
const STAGE = binding.stageBytes;
const MAC_STAGE = binding.macStageBytes;
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsic = (name) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, name);
const tagOf = intrinsic(Symbol.toStringTag).get;
const byteLengthOf = intrinsic('byteLength').get;
const setBytes = intrinsic('set').value;
// The staging path calls the intrinsics with .call(): on Bun, Reflect.apply
// of one costs 7-17 ns more per call (three calls a part); on V8 the two
// cost the same. It tells a Uint8Array by util.types.isUint8Array, which
// answers as the intrinsic tag does (no user code, no Proxy) for a quarter
// of the tag getter's cost on Bun, and about its cost on V8.
const ReflectApply = Reflect.apply;
const allocUnsafe = Buffer.allocUnsafe;
const EMPTY = new Uint8Array(0);
// The stage of the last hasher finished, for the next to take: a loop of
// hashers allocates none. (One, not a list: a list's push and pop cost a
// visible part of a short digest.) HMAC hashers have theirs, wiped.
let spare;
let macSpare;

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

  static {
    register = (list) => {
      for (let i = 0; i < list.length; i++) {
        const h = list[i];
        if (!h.#finished && h.#cell === undefined) {
          h.#cell = { handle: h.#handle };
          registry.register(h, h.#cell);
        }
      }
    };
    // A stream digest's batch, absorbed off the event loop: what is kept
    // goes first, so the hasher has a native state for the job to update.
    // The hasher takes no other call until the promise settles.
    absorbAsync = (h, batch, n) => {
      h.#send(undefined);
      return binding.hasherUpdateAsync(h.#handle, batch, n);
    };
    // A stream digest that failed: its state is freed and its staged bytes
    // given back now, not at collection.
    discard = (h) => {
      if (h.#finished) return;
      h.#finished = true;
      if (h.#cell !== undefined) h.#cell.handle = undefined;
      if (h.#handle !== undefined) binding.hasherFree(h.#handle);
      h.#text = undefined;
      h.#spare();
      h.#lease = undefined;
    };
  }

  get algorithm() {
    if (!Hasher.#is(this)) throw invalidThis('algorithm');
    return this.#alg.name;
  }

  update(data, inputEncoding) {
    if (!Hasher.#is(this)) throw invalidThis('update');
    if (this.#finished) throw finalized(this.update);
    if (this.#lease !== undefined && !this.#lease.live) throw this.#keyGone(this.update);
    // Uint8Arrays (Buffers too) first: the common part, staged when short.
    const limit = this.#limit;
    if (limit !== 0 && isUint8Array(data)) {
      const n = byteLengthOf.call(data);
      if (n <= limit - this.#used && this.#text === undefined) {
        if (n !== 0) this.#stageBytes(data, n);
      } else if (n < limit) {
        this.#send(undefined);
        this.#stageBytes(data, n);
      } else {
        this.#send(data);
      }
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
    if (inputEncoding !== undefined) {
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
    const handle = binding.hmacKeyHasher(this.#lease.handle);
    this.#lease = undefined;
    return handle;
  }

  // The MAC of everything staged (a string, or staged bytes), made with
  // the key.
  #keyShot(encoding) {
    const { handle } = this.#lease;
    this.#lease = undefined;
    const data = this.#text ?? (this.#used === 0 ? EMPTY : this.#stage.subarray(0, this.#used));
    return keyMac(handle, this.#alg.size, data, encoding);
  }

  // The error of a call on a hasher whose key was destroyed before it had a
  // state of its own: what it staged is wiped, and it stays unusable.
  #keyGone(caller) {
    this.#text = undefined;
    this.#spare();
    return keyDestroyed(caller);
  }

  digest(options) {
    if (!Hasher.#is(this)) throw invalidThis('digest');
    if (this.#finished) throw finalized(this.digest);
    let encoding = ENC_BUFFER;
    let length = this.#length;
    if (typeof options === 'string') {
      encoding = encodingId(options, 'outputEncoding', this.digest);
    } else if (options !== undefined) {
      const spec = digestOptions(options, this.#hmac ? undefined : this.#alg, this.digest);
      encoding = spec.encoding;
      if (spec.length >= 0) length = spec.length;
      // The options' getters may have finished this hasher.
      if (this.#finished) throw finalized(this.digest);
    }
    if (this.#lease !== undefined && !this.#lease.live) throw this.#keyGone(this.digest);
    let handle = this.#handle;
    if (handle === undefined) {
      this.#finished = true;
      try {
        if (this.#hmac) return this.#keyShot(encoding);
        return this.#text !== undefined ? textShot(this.#alg.id, this.#text, length, encoding) :
          oneShot(this.#alg.id, this.#stage ?? EMPTY, this.#used, length, encoding);
      } finally {
        this.#spare();
      }
    }
    if (length !== this.#length) {
      // A length of its own for this digest (XOFs): a copy squeezes it.
      if (this.#used !== 0) this.#send(undefined);
      const copy = binding.hasherCopy(handle, length);
      binding.hasherFree(handle);
      handle = copy;
    }
    // The staged bytes go with the digest call.
    const stage = this.#stage ?? EMPTY;
    const used = this.#used;
    this.#finished = true;
    if (this.#cell !== undefined) this.#cell.handle = undefined;
    let result;
    try {
      if (isNativeText(encoding)) {
        result = binding.hasherDigest(handle, encoding, stage, used);
      } else {
        result = this.#hmac ? this.#mac(handle, encoding, stage, used, length) :
          this.#bytes(handle, encoding, stage, used, length);
      }
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

  // A digest as `encoding` asks, through a Buffer.
  #bytes(handle, encoding, stage, used, length) {
    const out = allocOutput(length);
    binding.hasherDigest(handle, ENC_BUFFER, stage, used, out);
    return fromBuffer(out, encoding);
  }

  // A MAC as `encoding` asks, kept as a secret (see takeMac in args.js).
  #mac(handle, encoding, stage, used, length) {
    const scratch = macScratch(length);
    binding.hasherDigest(handle, ENC_BUFFER, stage, used, scratch);
    return takeMac(scratch, encoding);
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
    if (!Hasher.#is(this)) throw invalidThis('copy');
    if (this.#finished) throw finalized(this.copy);
    // As Hash#copy: without outputLength an XOF copy has the default length.
    // HMAC ignores outputLength, as createHmac does.
    const length = this.#hmac ? this.#length : hasherLength(options, this.#alg, this.copy);
    // The options' getters may have finished this hasher.
    if (this.#finished) throw finalized(this.copy);
    if (this.#lease !== undefined && !this.#lease.live) throw this.#keyGone(this.copy);
    const handle = this.#handle === undefined ? undefined : binding.hasherCopy(this.#handle, length);
    const lease = handle === undefined ? this.#lease : undefined;
    const copy = new Hasher(kConstruct, handle, this.#alg, length, this.#hmac, lease);
    copy.#text = this.#text;
    if (this.#used !== 0) copy.#stageCopy(this.#stage, this.#used);
    return copy;
  }

  // A Transform that passes every chunk on and updates this hasher with
  // it, on this thread as it passes (digest() may be called at any time, so
  // no update can still be running elsewhere).
  passThrough() {
    if (!Hasher.#is(this)) throw invalidThis('passThrough');
    if (this.#finished) throw finalized(this.passThrough);
    return passThrough(this);
  }

  get [Symbol.toStringTag]() {
    return 'Hasher';
  }
}

// The Transform of hasher.passThrough(). Its writable side takes any value,
// so a bad chunk is refused here with a coded error; it pushes the bytes it
// hashed (a string in another encoding as its bytes).
function passThrough(hasher) {
  const { Transform } = require('stream');
  return new Transform({
    writableObjectMode: true,
    transform(chunk, encoding, callback) {
      let bytes;
      try {
        bytes = chunkBytes(chunk, 'chunk', encoding);
        hasher.update(bytes);
      } catch (err) {
        callback(err);
        return;
      }
      callback(null, bytes);
    },
  });
}

const dataViewBuffer = Object.getOwnPropertyDescriptor(DataView.prototype, 'buffer').get;
const dataViewOffset = Object.getOwnPropertyDescriptor(DataView.prototype, 'byteOffset').get;
const dataViewLength = Object.getOwnPropertyDescriptor(DataView.prototype, 'byteLength').get;
const bufferOf = intrinsic('buffer').get;
const byteOffsetOf = intrinsic('byteOffset').get;

// A stream chunk as a string (UTF-8) or a Uint8Array over exactly its
// bytes, read through the intrinsic getters (a view's own properties are
// not trusted); anything else is ERR_INVALID_ARG_TYPE, named `name` (an
// index i: `chunks[i]`). A string with an encoding other than UTF-8 (a
// Writable's write(s, 'hex')) becomes its bytes.
function chunkBytes(chunk, name, encoding) {
  if (typeof chunk === 'string') {
    if (encoding === undefined || encoding === 'utf8' || encoding === 'utf-8' || encoding === 'buffer') {
      return chunk;
    }
    return Buffer.from(chunk, encoding);
  }
  const tag = ReflectApply(tagOf, chunk, []);
  if (tag === 'Uint8Array') return chunk;
  if (tag !== undefined) {
    return new Uint8Array(ReflectApply(bufferOf, chunk, []), ReflectApply(byteOffsetOf, chunk, []),
      ReflectApply(byteLengthOf, chunk, []));
  }
  if (isDataView(chunk)) {
    try {
      return new Uint8Array(ReflectApply(dataViewBuffer, chunk, []), ReflectApply(dataViewOffset, chunk, []),
        ReflectApply(dataViewLength, chunk, []));
    } catch {
      return EMPTY; // detached: no bytes left, as a detached typed array has none
    }
  }
  return toBytes(chunk, typeof name === 'number' ? `chunks[${name}]` : name, undefined);
}

// A Uint8Array's length as its view has it (a `length` property set on it
// is not read), and n of its bytes from byte `at` as a plain Uint8Array
// over the same memory (no subarray() or species of the chunk's own).
function viewLength(view) {
  return ReflectApply(byteLengthOf, view, []);
}

function viewSlice(view, at, n) {
  return new Uint8Array(ReflectApply(bufferOf, view, []), ReflectApply(byteOffsetOf, view, []) + at, n);
}

// Registers the noted hashers still unfinished, and forgets the list.
function flush() {
  const list = pending;
  pending = [];
  register(list);
}

// A plain hasher's digest when all it was given is one string: hash() of it.
function textShot(id, text, length, encoding) {
  if (isNativeText(encoding)) return binding.hash(id, encoding, text, length);
  const out = allocOutput(length);
  binding.hash(id, ENC_BUFFER, text, length, out);
  return fromBuffer(out, encoding);
}

// A plain hasher's digest when everything it was given is staged (n bytes
// of `stage`): one one-shot of them.
function oneShot(id, stage, n, length, encoding) {
  if (isNativeText(encoding)) return binding.hashPrefix(id, encoding, stage, n, length);
  const out = allocOutput(length);
  binding.hashPrefix(id, ENC_BUFFER, stage, n, length, out);
  return fromBuffer(out, encoding);
}

function invalidThis(what) {
  return makeError(TypeError, 'ERR_INVALID_THIS', `Value of "this" must be of type Hasher (${what})`);
}

function finalized(caller) {
  return makeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called', caller);
}

// ---- arguments ----------------------------------------------------------------

// A string's bytes in `encoding`, as Hash#update reads them: UTF-8 strings
// go to the binding as they are; other encodings become bytes here.
function decode(data, encoding, caller) {
  const id = encodingId(encoding, 'inputEncoding', caller);
  if (id === ENC_BUFFER) throw invalidArgValue('inputEncoding', encoding, caller);
  const name = typeof id === 'number' ? ENCODING_NAMES[id] : id;
  if (name === 'utf8') return data;
  // Node's check: hex text of odd length has no meaning.
  if (name === 'hex' && data.length % 2 !== 0) {
    throw makeError(TypeError, 'ERR_INVALID_ARG_VALUE',
      `The argument 'encoding' is invalid for data of length ${data.length}. Received 'hex'`, caller);
  }
  return Buffer.from(data, name);
}
const OPTION_TYPES = 'of type string or an instance of Object';

// digest()'s options object: { outputEncoding (default 'buffer'),
// outputLength (XOFs: this digest's length; others: their size) }. `alg` is
// undefined for HMAC, which ignores outputLength as createHmac does. Each
// property is read once. Returns { encoding, length } (length -1: not given).
function digestOptions(options, alg, caller) {
  if (options === null || typeof options !== 'object') {
    throw invalidArgType('outputEncoding', OPTION_TYPES, options, caller);
  }
  const outputEncoding = guarded(options, 'outputEncoding', OPTION_TYPES, caller,
    (o) => o.outputEncoding);
  const requested = alg === undefined ? undefined :
    guarded(options, 'outputEncoding', OPTION_TYPES, caller, (o) => o.outputLength);
  const parsed = parseOptions({
    outputEncoding: outputEncoding === undefined ? 'buffer' : outputEncoding,
    outputLength: requested,
  }, true, caller);
  const encoding = parsed.encoding;
  if (parsed.length < 0) return { encoding, length: -1 };
  return { encoding, length: outputLength(alg, parsed.length, caller) };
}

// The output length createHasher(alg, options) and copy(options) give:
// options.outputLength, else the digest's default. As createHash reads its
// options, anything but an object (null, a string, a number) is none.
function hasherLength(options, alg, caller) {
  if (options === null || typeof options !== 'object') return alg.size;
  const requested = guarded(options, 'options', 'of type object', caller, (o) => o.outputLength);
  if (requested === undefined) return alg.size;
  return outputLength(alg, parseOptions({ outputLength: requested }, true, caller).length, caller);
}

// ---- the entry points ---------------------------------------------------------

// The name of the previous createHasher() call and its entry, as hash()
// keeps them.
let lastName = '';
let lastAlg;

function createHasher(algorithm, options) {
  let alg = lastAlg;
  if (algorithm !== lastName || alg === undefined) {
    checkAlgorithm(algorithm, createHasher);
    alg = lookupAlgorithm(algorithm, createHasher);
    lastName = algorithm;
    lastAlg = alg;
  }
  const length = options === undefined ? alg.size : hasherLength(options, alg, createHasher);
  // The native state is made when first needed (see staging).
  return new Hasher(kConstruct, undefined, alg, length, false);
}

// A plain hasher of `alg` (lookupAlgorithm's entry) giving `length` bytes,
// its arguments already checked (stream.js).
function plainHasher(alg, length) {
  return new Hasher(kConstruct, undefined, alg, length, false);
}

// hmacKey.createHasher(): `lease` is the key's ({ handle, live },
// index.js); `alg` its { name, size, xof: false }.
function hmacHasher(lease, alg) {
  return new Hasher(kConstruct, undefined, alg, alg.size, true, lease);
}

// An HMAC hasher with its own copy of the states of the key `keyHandle`
// (the binding's), for a stream digest; `alg` as for hmacHasher.
function keyedHasher(keyHandle, alg) {
  return new Hasher(kConstruct, binding.hmacKeyHasher(keyHandle), alg, alg.size, true, undefined);
}

module.exports = {
  createHasher, hmacHasher, keyedHasher, plainHasher, Hasher, chunkBytes, viewLength, viewSlice,
  absorbAsync: (h, batch, n) => absorbAsync(h, batch, n),
  discard: (h) => discard(h),
};
