/// <reference types="node" />
import { Transform, TransformOptions } from 'stream';

/** What can be hashed: strings are hashed as UTF-8 (as `Buffer.from(string)`
 * encodes them); views contribute only the bytes they view. */
export type BinaryLike =
  | string
  | NodeJS.ArrayBufferView
  | ArrayBuffer
  | SharedArrayBuffer;

/** Encoding names are case-insensitive; these are the spellings typed. */
type Cased<T extends string> = T | Uppercase<T> | Capitalize<T>;

/** Output encodings that give a string. `''` is UTF-8, as in `crypto.hash`. */
export type TextEncoding = Cased<
  | 'hex'
  | 'base64'
  | 'base64url'
  | 'latin1'
  | 'binary'
  | 'utf8'
  | 'utf-8'
  | 'ucs2'
  | 'ucs-2'
  | 'utf16le'
  | 'utf-16le'
  | 'ascii'
> | '';

/** The output encoding that gives a `Buffer`. */
export type BufferEncodingName = Cased<'buffer'>;

export type OutputEncoding = TextEncoding | BufferEncodingName;

export interface HashOptions {
  /** Default `'hex'`. */
  outputEncoding?: OutputEncoding | undefined;
  /** Output bytes: any length for `shake128`/`shake256` (default 16 and 32);
   * for other digests it must equal the digest size. */
  outputLength?: number | undefined;
}

/**
 * One-shot digest: the same result as
 * `crypto.createHash(algorithm, options).update(data).digest(outputEncoding)`,
 * with hex as the default output encoding.
 *
 * @param algorithm a name `crypto.getHashes()` lists (case-insensitive).
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE`, `ERR_CRYPTO_INVALID_DIGEST`,
 *   `ERR_INVALID_ARG_VALUE`; {RangeError} `ERR_OUT_OF_RANGE`;
 *   {Error} `ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH`.
 *
 * FIPS mode: every digest goes through OpenSSL's provider machinery when
 * FIPS mode is on at load. Switched on at run time (`crypto.setFips()`), up
 * to 1,023 more `hash`/`hmac`/`verifyHmac`/`HmacKey` calls on a thread may
 * run as before the switch (the addon asks OpenSSL every 1,024th call); any
 * call that looks up a new name, makes an `HmacKey` or starts a `hashMany`,
 * async or file digest applies it at once. See docs/api.md, "FIPS mode".
 */
export function hash(
  algorithm: string,
  data: BinaryLike,
  outputEncoding: BufferEncodingName,
): Buffer;
export function hash(
  algorithm: string,
  data: BinaryLike,
  options: HashOptions & { outputEncoding: BufferEncodingName },
): Buffer;
export function hash(
  algorithm: string,
  data: BinaryLike,
  outputEncoding?: TextEncoding,
): string;
export function hash(
  algorithm: string,
  data: BinaryLike,
  options: HashOptions & { outputEncoding?: TextEncoding | undefined },
): string;

/** An HMAC key: a string (UTF-8), bytes, or a secret `KeyObject`/`CryptoKey`. */
export type HmacKeyMaterial =
  | BinaryLike
  | import('crypto').KeyObject
  | import('crypto').webcrypto.CryptoKey;

/** Options of the HMAC functions: `outputLength` is ignored, as
 * `createHmac` ignores it. */
export interface HmacOptions {
  outputEncoding?: OutputEncoding | undefined;
  outputLength?: number | undefined;
}

/** A MAC to compare: bytes, or a string in `macEncoding`. */
export type MacInput = string | NodeJS.ArrayBufferView | ArrayBuffer | SharedArrayBuffer;

/**
 * One-shot HMAC (RFC 2104): the same result as
 * `crypto.createHmac(algorithm, key).update(data).digest(outputEncoding)`,
 * hex by default. XOF digests (shake128/256) are refused.
 */
export function hmac(
  algorithm: string,
  key: HmacKeyMaterial,
  data: BinaryLike,
  outputEncoding: BufferEncodingName,
): Buffer;
export function hmac(
  algorithm: string,
  key: HmacKeyMaterial,
  data: BinaryLike,
  options: HmacOptions & { outputEncoding: BufferEncodingName },
): Buffer;
export function hmac(
  algorithm: string,
  key: HmacKeyMaterial,
  data: BinaryLike,
  outputEncoding?: TextEncoding,
): string;
export function hmac(
  algorithm: string,
  key: HmacKeyMaterial,
  data: BinaryLike,
  options: HmacOptions & { outputEncoding?: TextEncoding | undefined },
): string;

/**
 * Computes the HMAC and compares it with `mac` in constant time. A MAC of
 * the wrong length, or a string that is not valid text in `macEncoding`
 * (default `'hex'`), gives `false`.
 */
export function verifyHmac(
  algorithm: string,
  key: HmacKeyMaterial,
  data: BinaryLike,
  mac: MacInput,
  macEncoding?: TextEncoding,
): boolean;

/**
 * HMAC states keyed once (made by `createHmacKey`): each digest costs only
 * the message blocks plus one outer block. Use it on the thread that made it.
 * A key made before FIPS mode is switched at run time throws
 * `ERR_INVALID_STATE` once the switch is seen (within 1,024 calls on the
 * thread; see `hash`).
 */
export interface HmacKey {
  /** The algorithm name as given, lower-cased. */
  readonly algorithm: string;
  /** Same result as `hmac(algorithm, key, data, outputEncoding)`. */
  digest(data: BinaryLike, outputEncoding: BufferEncodingName): Buffer;
  digest(data: BinaryLike, options: HmacOptions & { outputEncoding: BufferEncodingName }): Buffer;
  digest(data: BinaryLike, outputEncoding?: TextEncoding): string;
  digest(data: BinaryLike, options: HmacOptions & { outputEncoding?: TextEncoding | undefined }): string;
  /** Same result as `verifyHmac(algorithm, key, data, mac, macEncoding)`. */
  verify(data: BinaryLike, mac: MacInput, macEncoding?: TextEncoding): boolean;
  /** Wipes the key states now; later `digest`/`verify`/`createHasher`
   * calls throw `ERR_INVALID_STATE`, and so does every call of a hasher
   * made from the key that had no state of its own yet (one that did lives
   * on). Calling it again does nothing. On the
   * JavaScript implementation it drops the key's `KeyObject` and keyed
   * states for the runtime to free: they cannot be wiped from JavaScript. */
  destroy(): void;
  /** A streaming HMAC: a `Hasher` started from the keyed states
   * (no key work per message), whose `digest()` is the HMAC of everything
   * updated. Until it needs a state of its own it uses the key's: if the
   * key is destroyed before then, its calls throw `ERR_INVALID_STATE`. */
  createHasher(): Hasher;
  /** The HMAC of everything `source` yields, as `hmacStream` with this key
   * (its states are copied when the call is made: a later `destroy()` does
   * not touch it). `outputLength` is ignored, as `createHmac` ignores it. */
  digestStream(
    source: StreamSource,
    options: StreamHmacOptions & { outputEncoding: BufferEncodingName },
  ): Promise<Buffer>;
  digestStream(source: StreamSource, outputEncoding: BufferEncodingName): Promise<Buffer>;
  digestStream(source: StreamSource, outputEncoding?: TextEncoding): Promise<string>;
  digestStream(
    source: StreamSource,
    options: StreamHmacOptions & { outputEncoding?: TextEncoding | undefined },
  ): Promise<string>;
}

/** Keys the HMAC states once for many messages. */
export function createHmacKey(algorithm: string, key: HmacKeyMaterial): HmacKey;

/** How a string part's characters become bytes, as `Hash#update` reads
 * them (`'utf8'` by default). Case-insensitive. */
export type InputEncoding = Cased<
  | 'utf8'
  | 'utf-8'
  | 'hex'
  | 'base64'
  | 'base64url'
  | 'latin1'
  | 'binary'
  | 'ascii'
  | 'ucs2'
  | 'ucs-2'
  | 'utf16le'
  | 'utf-16le'
> | '';

/** Options of `createHasher` and `Hasher#copy`. */
export interface HasherOptions {
  /** Output bytes of `shake128`/`shake256` (default 16 and 32; a copy does
   * not inherit it, as with `Hash#copy`); for other digests it must equal
   * the digest size. */
  outputLength?: number | undefined;
}

/** Options of `Hasher#digest`: without `outputEncoding` the digest is a
 * `Buffer`. `outputLength` (XOFs) sets this digest's length; HMAC hashers
 * ignore it. */
export interface HasherDigestOptions {
  outputEncoding?: OutputEncoding | undefined;
  outputLength?: number | undefined;
}

/**
 * An incremental digest (`createHasher`) or streaming HMAC
 * (`HmacKey#createHasher`): `crypto.createHash` minus the stream interface.
 * After `digest()`, `update`, `digest` and `copy` throw `Error` with code
 * `ERR_CRYPTO_HASH_FINALIZED`. Use it on the thread that made it.
 */
export interface Hasher {
  /** The algorithm name as given, lower-cased. */
  readonly algorithm: string;
  /** Absorbs a part; a string is read in `inputEncoding` (default UTF-8).
   * The part is read now: changing it afterwards changes nothing. */
  update(data: BinaryLike, inputEncoding?: InputEncoding | 'buffer' | null): this;
  /** The digest of every part so far: a `Buffer` unless an encoding is given
   * (a falsy one gives a `Buffer` too, as `Hash#digest`). */
  digest(): Buffer;
  digest(outputEncoding: BufferEncodingName | '' | null | undefined): Buffer;
  digest(options: HasherDigestOptions & { outputEncoding?: BufferEncodingName | undefined }): Buffer;
  digest(outputEncoding: TextEncoding): string;
  digest(options: HasherDigestOptions & { outputEncoding: TextEncoding }): string;
  /** A new `Hasher` with the same state, as `Hash#copy`. */
  copy(options?: HasherOptions): Hasher;
  /** A `Transform` that passes every chunk on unchanged and updates this
   * hasher with it (chunks as `hashStream` takes them; a bad one fails the
   * stream with `ERR_INVALID_ARG_TYPE`). `digest()` before the stream ends
   * gives the digest of what has passed and finishes the hasher: a later
   * chunk fails the stream with `ERR_CRYPTO_HASH_FINALIZED`. Chunks are
   * hashed on this thread as they pass. */
  passThrough(): import('stream').Transform;
  /** Finishes the hasher as `digest()` does, writing the digest into
   * `target` at byte `offset` (default 0); returns the bytes written. A
   * target too small or a bad offset: `RangeError` `ERR_OUT_OF_RANGE`,
   * nothing written and the hasher not finished. */
  digestInto(target: IntoTarget, offset?: number): number;
  /** Feeds everything `source` yields into the hasher, in order, and
   * resolves with the hasher, not finished. While pending, the other
   * methods throw `ERR_INVALID_STATE`; on a rejection the hasher is
   * finished and wiped. */
  updateFrom(source: StreamSource, options?: UpdateFromOptions): Promise<this>;
}

/** Memory a digest can be written into (`hashInto`, `Hasher#digestInto`). */
export type IntoTarget = NodeJS.ArrayBufferView | ArrayBuffer | SharedArrayBuffer;

/** Options of `hashInto`: the output length of an XOF. */
export interface HashIntoOptions {
  outputLength?: number | undefined;
}

/** Options of `Hasher#updateFrom`. */
export interface UpdateFromOptions {
  /** Aborting rejects with an `AbortError` and stops reading. */
  signal?: AbortSignal | undefined;
}

/** The digest of `data` written into `target` at byte `offset` (default 0),
 * with no allocation; returns the number of bytes written. A target too
 * small for the digest at that offset, or an offset that is not a
 * non-negative safe integer: `RangeError` `ERR_OUT_OF_RANGE`, nothing
 * written. */
export function hashInto(
  algorithm: string,
  data: BinaryLike,
  target: IntoTarget,
  offset?: number,
  options?: HashIntoOptions,
): number;
export function hashInto(algorithm: string, data: BinaryLike, target: IntoTarget, options: HashIntoOptions): number;

/** An incremental digest: equals `crypto.createHash(algorithm, options)` fed
 * the same parts. */
export function createHasher(algorithm: string, options?: HasherOptions): Hasher;

/** Options of `createHash` and `Hash#copy`: a `Transform`'s, and
 * `outputLength` for the XOFs, as `crypto.createHash` takes them. */
export interface CreateHashOptions extends TransformOptions {
  outputLength?: number | undefined;
}

/** Options of `createHmac`: a `Transform`'s, and the encoding of a string
 * key, as `crypto.createHmac` takes them. */
export interface CreateHmacOptions extends TransformOptions {
  encoding?: BufferEncoding | undefined;
}

/**
 * `node:crypto`'s `Hash`, as `createHash` makes it: a `Transform` (chunks
 * written are hashed; the digest is pushed at the end) whose stream state is
 * made only when a stream method is first used. `digest()` with no or a
 * falsy argument, or an encoding `Buffer#toString` does not know, is a
 * `Buffer`; an unknown `inputEncoding` reads a string as UTF-8.
 */
export interface Hash extends Transform {
  update(data: string | NodeJS.ArrayBufferView, inputEncoding?: string | null): this;
  digest(): Buffer;
  digest(outputEncoding: BufferEncodingName | '' | null | undefined): Buffer;
  digest(outputEncoding: TextEncoding): string;
  digest(outputEncoding: string): string | Buffer;
  copy(options?: CreateHashOptions): Hash;
}

/** `node:crypto`'s `Hmac`, as `createHmac` makes it: as `Hash`, without
 * `copy()`; a second `digest()` gives an empty result. */
export interface Hmac extends Transform {
  update(data: string | NodeJS.ArrayBufferView, inputEncoding?: string | null): this;
  digest(): Buffer;
  digest(outputEncoding: BufferEncodingName | '' | null | undefined): Buffer;
  digest(outputEncoding: TextEncoding): string;
  digest(outputEncoding: string): string | Buffer;
}

/** A drop-in for `crypto.createHash`: same arguments, results, errors and
 * stream behaviour. */
export function createHash(algorithm: string, options?: CreateHashOptions): Hash;

/** A drop-in for `crypto.createHmac`. */
export function createHmac(algorithm: string, key: HmacKeyMaterial, options?: CreateHmacOptions): Hmac;

/** `node:crypto`'s `Hash` constructor: `Hash(...)` and `new Hash(...)` are
 * `createHash(...)`, and what `createHash` makes is `instanceof Hash`. */
export const Hash: {
  new (algorithm: string, options?: CreateHashOptions): Hash;
  (algorithm: string, options?: CreateHashOptions): Hash;
  readonly prototype: Hash;
};

/** `node:crypto`'s `Hmac` constructor, as `Hash` for `createHmac`. */
export const Hmac: {
  new (algorithm: string, key: HmacKeyMaterial, options?: CreateHmacOptions): Hmac;
  (algorithm: string, key: HmacKeyMaterial, options?: CreateHmacOptions): Hmac;
  readonly prototype: Hmac;
};

/** A chunk of a stream: strings are hashed as UTF-8. */
export type StreamChunk = string | NodeJS.ArrayBufferView | ArrayBuffer | SharedArrayBuffer;

/** What `hashStream`, `hmacStream` and `HmacKey#digestStream` read: a Node
 * `Readable`, a WHATWG `ReadableStream`, a `Blob`/`File`, an async iterable
 * or a sync iterable (an array) of chunks. */
export type StreamSource =
  | NodeJS.ReadableStream
  | ReadableStream<StreamChunk>
  | Blob
  | AsyncIterable<StreamChunk>
  | Iterable<StreamChunk>;

/** Options of `hashStream`: those of `hash`, and an `AbortSignal`. */
export interface StreamHashOptions extends HashOptions {
  /** Aborting rejects the promise with an `AbortError` (`code:
   * 'ABORT_ERR'`) and stops reading; a Node stream is destroyed. */
  signal?: AbortSignal | undefined;
}

/** Options of `hmacStream` and `HmacKey#digestStream`. */
export interface StreamHmacOptions extends HmacOptions {
  signal?: AbortSignal | undefined;
}

/**
 * The digest of everything `source` yields, in order: equal to
 * `hash(algorithm, Buffer.concat(chunks), ...)`. Where the native addon is
 * in use, long runs of bytes are hashed on the libuv thread pool while the
 * source is read. Each chunk is copied before the next is asked for, so a
 * source may reuse its memory. Argument errors reject; a bad algorithm or
 * option rejects before the source is read. A chunk of another type
 * rejects with `ERR_INVALID_ARG_TYPE` naming its index (`chunks[3]`); the
 * source's own error rejects as it is.
 */
export function hashStream(
  algorithm: string,
  source: StreamSource,
  options: StreamHashOptions & { outputEncoding: BufferEncodingName },
): Promise<Buffer>;
export function hashStream(algorithm: string, source: StreamSource, outputEncoding: BufferEncodingName): Promise<Buffer>;
export function hashStream(algorithm: string, source: StreamSource, outputEncoding?: TextEncoding): Promise<string>;
export function hashStream(
  algorithm: string,
  source: StreamSource,
  options: StreamHashOptions & { outputEncoding?: TextEncoding | undefined },
): Promise<string>;

/** The HMAC of everything `source` yields: equal to `hmac(algorithm, key,
 * Buffer.concat(chunks), ...)`, read as `hashStream` reads. The key is
 * keyed when the call is made; a bad key rejects before the source is read. */
export function hmacStream(
  algorithm: string,
  key: HmacKeyMaterial,
  source: StreamSource,
  options: StreamHmacOptions & { outputEncoding: BufferEncodingName },
): Promise<Buffer>;
export function hmacStream(
  algorithm: string,
  key: HmacKeyMaterial,
  source: StreamSource,
  outputEncoding: BufferEncodingName,
): Promise<Buffer>;
export function hmacStream(
  algorithm: string,
  key: HmacKeyMaterial,
  source: StreamSource,
  outputEncoding?: TextEncoding,
): Promise<string>;
export function hmacStream(
  algorithm: string,
  key: HmacKeyMaterial,
  source: StreamSource,
  options: StreamHmacOptions & { outputEncoding?: TextEncoding | undefined },
): Promise<string>;

/**
 * Digests every element of `inputs` (any mix of accepted data types) in one
 * native call: `result[i]` equals `hash(algorithm, inputs[i], ...)`.
 * Buffer results are views of one shared allocation.
 */
export function hashMany(
  algorithm: string,
  inputs: readonly BinaryLike[],
  outputEncoding: BufferEncodingName,
): Buffer[];
export function hashMany(
  algorithm: string,
  inputs: readonly BinaryLike[],
  options: HashOptions & { outputEncoding: BufferEncodingName },
): Buffer[];
export function hashMany(
  algorithm: string,
  inputs: readonly BinaryLike[],
  outputEncoding?: TextEncoding,
): string[];
export function hashMany(
  algorithm: string,
  inputs: readonly BinaryLike[],
  options: HashOptions & { outputEncoding?: TextEncoding | undefined },
): string[];

/** `hash` on the libuv thread pool. The input is copied when the call is
 * made; argument errors reject the promise. */
export function hashAsync(
  algorithm: string,
  data: BinaryLike,
  outputEncoding: BufferEncodingName,
): Promise<Buffer>;
export function hashAsync(
  algorithm: string,
  data: BinaryLike,
  options: HashOptions & { outputEncoding: BufferEncodingName },
): Promise<Buffer>;
export function hashAsync(
  algorithm: string,
  data: BinaryLike,
  outputEncoding?: TextEncoding,
): Promise<string>;
export function hashAsync(
  algorithm: string,
  data: BinaryLike,
  options: HashOptions & { outputEncoding?: TextEncoding | undefined },
): Promise<string>;

/** `hmac` on the libuv thread pool; key and data are copied when the call is
 * made (the key copy is wiped after use). */
export function hmacAsync(
  algorithm: string,
  key: HmacKeyMaterial,
  data: BinaryLike,
  outputEncoding: BufferEncodingName,
): Promise<Buffer>;
export function hmacAsync(
  algorithm: string,
  key: HmacKeyMaterial,
  data: BinaryLike,
  options: HmacOptions & { outputEncoding: BufferEncodingName },
): Promise<Buffer>;
export function hmacAsync(
  algorithm: string,
  key: HmacKeyMaterial,
  data: BinaryLike,
  outputEncoding?: TextEncoding,
): Promise<string>;
export function hmacAsync(
  algorithm: string,
  key: HmacKeyMaterial,
  data: BinaryLike,
  options: HmacOptions & { outputEncoding?: TextEncoding | undefined },
): Promise<string>;

/** A file path: a string, a Buffer of raw bytes, or a `file:` URL. */
export type PathLike = string | Buffer | URL;

/** Options of `hashFile`: `hash`'s, and a `signal` whose abort rejects
 * with an `AbortError`, closes the file and ends the read within a slice. */
export interface HashFileOptions extends HashOptions {
  signal?: AbortSignal | undefined;
}

/** The digest of a file's contents, read natively on the thread pool.
 * File-system failures reject with Node-style errors (`code`, `errno`,
 * `syscall`, `path`). */
export function hashFile(
  algorithm: string,
  path: PathLike,
  outputEncoding: BufferEncodingName,
): Promise<Buffer>;
export function hashFile(
  algorithm: string,
  path: PathLike,
  options: HashFileOptions & { outputEncoding: BufferEncodingName },
): Promise<Buffer>;
export function hashFile(
  algorithm: string,
  path: PathLike,
  outputEncoding?: TextEncoding,
): Promise<string>;
export function hashFile(
  algorithm: string,
  path: PathLike,
  options: HashFileOptions & { outputEncoding?: TextEncoding | undefined },
): Promise<string>;

/** `hashFile`, synchronously: throws what `hashFile` rejects with. */
export function hashFileSync(
  algorithm: string,
  path: PathLike,
  outputEncoding: BufferEncodingName,
): Buffer;
export function hashFileSync(
  algorithm: string,
  path: PathLike,
  options: HashOptions & { outputEncoding: BufferEncodingName },
): Buffer;
export function hashFileSync(
  algorithm: string,
  path: PathLike,
  outputEncoding?: TextEncoding,
): string;
export function hashFileSync(
  algorithm: string,
  path: PathLike,
  options: HashOptions & { outputEncoding?: TextEncoding | undefined },
): string;

/** The algorithm names `hash` accepts: sorted, without duplicates, including
 * every name `crypto.getHashes()` lists. */
export function getHashes(): string[];

/** Which implementation is in use: `'native'`, the C addon over the OpenSSL
 * bundled with Node; or `'js'`, the same API over the runtime's own
 * `node:crypto`, used where the addon cannot be loaded (Bun, Deno, Electron,
 * no binary for the platform) or when `FAST_HASH_IMPLEMENTATION=js`. */
export const implementation: 'native' | 'js';
