'use strict';
// hashStream, hmacStream and hmacKey.digestStream: the digest of everything
// a source yields. A source (sources.js) is read into a Feed (feed.js),
// which batches the chunks for the hasher. Contract: the digest's promise
// rejects with the source's error, a bad chunk's ERR_INVALID_ARG_TYPE or an
// AbortError, and every way it fails frees the hasher.

const { guarded, parseOptions } = require('../args');
const { chunkBytes } = require('../chunks');
const { Feed } = require('./feed');
const { sourceKind, pump, NODE, WEB, BLOB } = require('./sources');
const { abortError, checkSignal } = require('../signal');

// ---- options -----------------------------------------------------------------
const OPTION_TYPES = 'of type string or an instance of Object';
const NO_OPTIONS = Object.freeze({ outputEncoding: 'hex', length: -1, signal: undefined });

// { outputEncoding (a name the hasher's digest() takes), length (-1: the
// digest's own), signal }, each property read once.
function streamOptions(options, withLength, caller) {
  if (options === undefined) return NO_OPTIONS;
  if (options === null || typeof options !== 'object') {
    const { length } = parseOptions(options, withLength, caller);
    // digest('') is a Buffer; '' here means what hash() (UTF-8) or hmac()
    // (a Buffer, as createHmac's digest('')) make of it.
    const outputEncoding = options !== '' ? options : withLength ? 'utf8' : 'buffer';
    return { outputEncoding, length, signal: undefined };
  }
  const read = (key) => guarded(options, 'options', OPTION_TYPES, caller, (o) => o[key]);
  const outputEncoding = read('outputEncoding');
  const outputLength = withLength ? read('outputLength') : undefined;
  const signal = checkSignal(read('signal'), caller);
  const { length } = parseOptions({ outputEncoding, outputLength }, withLength, caller);
  return { outputEncoding: outputEncoding === '' ? 'utf8' : outputEncoding ?? 'hex', length, signal };
}

// ---- the digest ----------------------------------------------------------------

// The AbortError of a signal aborted before anything was read; a stream is
// stopped as an abort while reading stops it (a Node stream destroyed, a
// WHATWG one cancelled with the error, unless another reader holds it).
function abortUnread(source, kind, signal) {
  const err = abortError(signal);
  if (kind === NODE) source.destroy();
  else if (kind === WEB && !source.locked) source.cancel(err).catch(() => {});
  return err;
}

// The digest `hasher` gives of everything `source` yields (its kind from
// sourceKind), in `outputEncoding`. Every way this fails frees the hasher.
async function digestSource(hasher, secret, source, kind, { outputEncoding, signal }) {
  const feed = newFeed(hasher, secret, kind);
  try {
    await feedSource(feed, source, kind, signal);
    return await feed.end((rest) => {
      if (rest !== undefined) hasher.update(rest);
      return hasher.digest(outputEncoding);
    });
  } catch (err) {
    await feed.discard();
    throw err;
  }
}

// A Feed into `hasher` for a source of `kind`.
const newFeed = (hasher, secret, kind) => new Feed(hasher, secret, kind === NODE || kind === WEB || kind === BLOB);

// Everything `source` yields written into `feed`, stopping at an abort of
// `signal`; the caller ends or discards the feed.
async function feedSource(feed, source, kind, signal) {
  const write = (chunk, index, sole) => {
    const bytes = chunkBytes(chunk, index);
    return sole ? feed.writeSole(bytes) : feed.write(bytes);
  };
  if (signal !== undefined && signal.aborted) throw abortUnread(source, kind, signal);
  await pump(kind, source, write, signal);
}

module.exports = { sourceKind, streamOptions, digestSource, newFeed, feedSource };
