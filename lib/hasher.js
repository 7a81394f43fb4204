'use strict';
// createHasher() and hmacKey.createHasher(): incremental digests and
// streaming HMACs, the Hasher class over the binding's hasher functions
// (binding.js). The argument rules are the shared ones (args.js); what is
// particular to a Hasher is here: input encodings, digest() giving a Buffer
// by default, copy() taking its own output length, and finalisation.

const binding = require('./binding');
const {
  ENC_BUFFER, isNativeText, encodingId, fromBuffer, lookupAlgorithm, checkAlgorithm,
  parseOptions, outputLength, toBytes, guarded,
} = require('./args');
const { makeError, invalidArgType, invalidArgValue } = require('./errors');

const FILLS_OUTPUT = binding.fillsOutput;
// EVP_MAX_MD_SIZE: longer XOF outputs come through a Buffer.
const MAX_NATIVE_LENGTH = 64;

// ---- hashers dropped unfinished -------------------------------------------
// The native states live in the addon's store, named by token: a hasher
// dropped before digest() must give its slot back. A FinalizationRegistry
// does that, but registering costs about as much as the rest of a short
// digest, and most hashers are finished in the job that made them. So a
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

// An incremental digest (createHasher) or streaming HMAC
// (hmacKey.createHasher()). Usable on the thread that created it.
class Hasher {
  #handle;
  #alg;        // { name, size, xof }
  #length;     // output bytes
  #hmac;
  #finished = false;
  #cell;       // the registry's held value, once registered

  constructor(token, handle, alg, length, hmac) {
    if (token !== kConstruct) {
      throw makeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR',
        'Illegal constructor: use createHasher()', Hasher);
    }
    this.#handle = handle;
    this.#alg = alg;
    this.#length = length;
    this.#hmac = hmac;
    if (RELEASES) {
      if (pending.push(this) >= PENDING_MAX) flush();
      else if (!flushQueued) {
        flushQueued = true;
        queueMicrotask(flushSoon);
      }
    }
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
  }

  get algorithm() {
    if (!Hasher.#is(this)) throw invalidThis('algorithm');
    return this.#alg.name;
  }

  update(data, inputEncoding) {
    if (!Hasher.#is(this)) throw invalidThis('update');
    if (this.#finished) throw finalized(this.update);
    if (typeof data === 'string') {
      if (inputEncoding !== undefined) data = decode(data, inputEncoding, this.update);
    } else if (!ArrayBuffer.isView(data)) {
      data = toBytes(data, 'data', this.update);
    }
    binding.hasherUpdate(this.#handle, data);
    return this;
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
    }
    this.#finished = true;
    if (this.#cell !== undefined) this.#cell.handle = undefined;
    let handle = this.#handle;
    if (length !== this.#length) {
      // A length of its own for this digest (XOFs): a copy squeezes it.
      const copy = binding.hasherCopy(handle, length);
      binding.hasherFree(handle);
      handle = copy;
    }
    if (isNativeText(encoding) && length <= MAX_NATIVE_LENGTH) {
      return binding.hasherDigest(handle, encoding);
    }
    return fromBuffer(digestBytes(handle, length), encoding);
  }

  copy(options) {
    if (!Hasher.#is(this)) throw invalidThis('copy');
    if (this.#finished) throw finalized(this.copy);
    // As Hash#copy: without outputLength an XOF copy has the default length.
    // HMAC ignores outputLength, as createHmac does.
    const length = this.#hmac ? checkObject(options, this.copy) ?? this.#length :
      hasherLength(options, this.#alg, this.copy);
    return new Hasher(kConstruct, binding.hasherCopy(this.#handle, length), this.#alg, length,
      this.#hmac);
  }

  get [Symbol.toStringTag]() {
    return 'Hasher';
  }
}

// Registers the noted hashers still unfinished, and forgets the list.
function flush() {
  const list = pending;
  pending = [];
  register(list);
}

function invalidThis(what) {
  return makeError(TypeError, 'ERR_INVALID_THIS', `Value of "this" must be of type Hasher (${what})`);
}

function finalized(caller) {
  return makeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called', caller);
}

// The digest's bytes, `length` of them: into a Buffer made here where the
// binding fills one, else the binding's own.
function digestBytes(handle, length) {
  if (!FILLS_OUTPUT) return binding.hasherDigest(handle, ENC_BUFFER);
  const out = Buffer.allocUnsafe(length);
  binding.hasherDigest(handle, ENC_BUFFER, out);
  return out;
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
const ENCODING_NAMES = [];
for (const [name, id] of Object.entries(binding.encodings)) ENCODING_NAMES[id] = name;

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

// createHasher's and copy()'s options: undefined or an object. Returns
// undefined.
function checkObject(options, caller) {
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw invalidArgType('options', 'of type object', options, caller);
  }
  return undefined;
}

// The output length createHasher(alg, options) and copy(options) give:
// options.outputLength, else the digest's default.
function hasherLength(options, alg, caller) {
  checkObject(options, caller);
  if (options === undefined) return alg.size;
  const requested = guarded(options, 'options', 'of type object', caller, (o) => o.outputLength);
  if (requested === undefined) return alg.size;
  return outputLength(alg, parseOptions({ outputLength: requested }, true, caller).length, caller);
}

// ---- the entry points ---------------------------------------------------------

function createHasher(algorithm, options) {
  checkAlgorithm(algorithm, createHasher);
  const alg = lookupAlgorithm(algorithm, createHasher);
  const length = options === undefined ? alg.size : hasherLength(options, alg, createHasher);
  return new Hasher(kConstruct, binding.hasherNew(alg.id, length), alg, length, false);
}

// hmacKey.createHasher(): `handle` is the key's binding handle; `alg` its
// { name, size, xof: false }.
function hmacHasher(handle, alg) {
  return new Hasher(kConstruct, binding.hmacKeyHasher(handle), alg, alg.size, true);
}

module.exports = { createHasher, hmacHasher, Hasher };
