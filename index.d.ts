/// <reference types="node" />

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

/** The algorithm names `hash` accepts: sorted, without duplicates, including
 * every name `crypto.getHashes()` lists. */
export function getHashes(): string[];
