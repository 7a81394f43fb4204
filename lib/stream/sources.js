'use strict';
// The sources a stream digest reads: a Node stream, a WHATWG ReadableStream,
// a Blob, an async or a sync iterable of chunks, told apart by the methods
// they have (sourceKind), each read by its own pump. Contract: a pump calls
// write(chunk, index, sole) for each chunk in order, waits for the promise
// write returns, and settles when the source ends (with its error),
// stopping the source on a bad chunk or an abort as leaving a loop over it
// would. `sole`: the chunk is new memory that nothing else was given.

const { setImmediate } = require('timers');
const { isAnyArrayBuffer } = require('util').types;
const { guarded } = require('../args');
const { makeError, invalidArgType } = require('../errors');
const { BIG } = require('./feed');
const { abortError, onAbort } = require('../signal');

// ---- sources ---------------------------------------------------------------
const SOURCE_TYPES = 'an instance of Readable, ReadableStream, or Blob, or an iterable of chunks';
const NODE = 0;
const WEB = 1;
const BLOB = 2;
const ASYNC = 3;
const SYNC = 4;

// Which kind of source `source` is, by the methods it has (streams from
// other copies of the stream module, Bun's and Deno's included, qualify);
// data itself (a string, a view) is not a source of chunks.
function sourceKind(source, caller) {
  if (source === null || typeof source !== 'object' || ArrayBuffer.isView(source) || isAnyArrayBuffer(source)) {
    throw invalidArgType('source', SOURCE_TYPES, source, caller);
  }
  return guarded(source, 'source', SOURCE_TYPES, caller, (s) => {
    if (typeof s.pipe === 'function' && typeof s.on === 'function' && typeof s.read === 'function' &&
        typeof s.pause === 'function' && typeof s.resume === 'function') return NODE;
    if (typeof s.getReader === 'function') return WEB;
    if (typeof s.stream === 'function' && typeof s.arrayBuffer === 'function') return BLOB;
    if (typeof s[Symbol.asyncIterator] === 'function') return ASYNC;
    if (typeof s[Symbol.iterator] === 'function') return SYNC;
    throw invalidArgType('source', SOURCE_TYPES, s, caller);
  });
}

// Every TURN chunks, a source that yields them without ever waiting for I/O
// (a generator, a stream that pushes from memory, chunks that fill no
// batch) is left for one turn of the event loop, so that timers, I/O and
// process.exit() still run while it never ends.
const TURN = 0x10000;
const turn = () => new Promise((resolve) => setImmediate(resolve));

// A Node stream, read in flowing mode ('data' events: each chunk as the
// stream has it, no promise per chunk), paused while the feed is full
// (something else may resume it, a pipe: the feed keeps the order). A
// file stream that reads each chunk into memory of its own
// (readsIntoNewMemory) is first asked for BIG bytes: read(n) raises its
// highWaterMark to n (and gives data only if that much is buffered), so it
// reads BIG bytes per read, and the hand-over of each read to the thread
// pool and back comes once per BIG bytes instead of once per 64 KiB. Other
// streams keep their own read-ahead: one that reuses its memory once asked
// for more must not be asked early. Ends when the stream ends (with its
// error, or ERR_STREAM_PREMATURE_CLOSE when it closes early, as
// stream.finished reports them); on a bad chunk or an abort it is
// destroyed, as leaving a `for await` loop over it destroys it.
function pumpNode(stream, write, signal) {
  const { finished } = require('stream');
  const bulk = readsIntoNewMemory(stream);
  return new Promise((resolve, reject) => {
    let index = 0;
    let settled = false;
    let waiting; // a write's promise: the stream is paused until it settles
    const settle = (err) => {
      if (settled) return;
      settled = true;
      stream.removeListener('data', onData);
      stopFinished();
      stopAbort();
      if (err === undefined) resolve();
      else reject(err);
    };
    const fail = (err) => {
      if (settled) return;
      settle(err);
      stream.destroy();
    };
    const resume = () => {
      waiting = undefined;
      if (!settled) stream.resume();
    };
    // A chunk of a stream that reads into new memory is the pump's alone
    // when no other 'data' listener (a pipe has one) is given it too.
    function onData(chunk, others = 1) {
      if (settled) return;
      try {
        waiting = write(chunk, index++, bulk && stream.listenerCount('data') === others);
      } catch (err) {
        fail(err);
        return;
      }
      if (waiting === undefined && index % TURN !== 0) return;
      stream.pause();
      (waiting ?? (waiting = turn())).then(resume, fail);
    }
    const stopAbort = onAbort(signal, () => fail(abortError(signal)));
    // finished() calls back on a later tick, never from here.
    const stopFinished = finished(stream, { writable: false }, (err) => {
      if (err) settle(err);
      else if (waiting === undefined) settle();
      else waiting.then(() => settle(), fail);
    });
    try {
      if (bulk && !(stream.readableHighWaterMark >= BIG)) {
        const first = stream.read(BIG); // emitted as 'data' to any listener there is
        if (first !== null) onData(first, 0);
      }
    } catch (err) {
      fail(err);
    }
    stream.on('data', onData);
    if (waiting === undefined && !settled) stream.resume();
  });
}

// Whether `stream` reads each chunk into new memory, so that asking it for
// more than it buffers changes no chunk already given: an fs.ReadStream as
// fs makes it (its _read reads every chunk into a new Buffer), reading
// through the fs module itself rather than an `fs` option's, with its
// _read not replaced.
function readsIntoNewMemory(stream) {
  const fs = require('fs');
  if (!(stream instanceof fs.ReadStream) || stream._read !== fs.ReadStream.prototype._read) return false;
  const kFs = Object.getOwnPropertySymbols(stream).find((key) => key.description === 'kFs');
  return kFs !== undefined && stream[kFs] === fs;
}

// A WHATWG ReadableStream (a Blob's too), through a reader; on a bad chunk
// or an abort the stream is cancelled with that reason.
async function pumpWeb(stream, write, signal) {
  const reader = stream.getReader();
  let stopped; // why reading stopped early
  const stop = (err) => {
    if (stopped !== undefined) return;
    stopped = err;
    reader.cancel(err).catch(() => {});
  };
  const stopAbort = onAbort(signal, () => stop(abortError(signal)));
  try {
    for (let index = 0; ; index++) {
      const { done, value } = await reader.read();
      if (stopped !== undefined) throw stopped;
      if (done) return;
      let waiting;
      try {
        waiting = write(value, index);
        if (waiting !== undefined) await waiting;
        else if (index % TURN === TURN - 1) await turn();
      } catch (err) {
        stop(err);
        throw err;
      }
      if (stopped !== undefined) throw stopped;
    }
  } finally {
    stopAbort();
    reader.releaseLock();
  }
}

// Chunks from an iterator (sync or async): `next` gives its next result.
// An abort rejects at once, with a pending next() left to settle (a later
// rejection of it is handled); on a bad chunk or an abort the iterator's
// return() is called, as leaving a loop over it does. Each wait gets a
// promise of its own that an abort rejects: no promise lives across chunks
// gathering a reaction per chunk, so memory stays flat however many come.
async function pumpIterator(iterator, sync, write, signal) {
  let aborted;
  let reject; // the current wait's
  const stopAbort = onAbort(signal, () => {
    aborted = abortError(signal);
    if (reject !== undefined) reject(aborted);
  });
  const abortable = (promise) => signal === undefined ? promise : new Promise((resolve, rejectWait) => {
    reject = rejectWait;
    Promise.resolve(promise).then(resolve, rejectWait);
  });
  try {
    for (let index = 0; ; index++) {
      let result = iterator.next();
      if (!sync) result = await abortable(result);
      if (aborted !== undefined) throw aborted;
      if (result === null || typeof result !== 'object') {
        throw makeError(TypeError, 'ERR_INVALID_RETURN_VALUE',
          `Expected the source's iterator to return an object. Received ${typeof result}`);
      }
      if (result.done) return;
      const waiting = write(result.value, index) ?? (index % TURN === TURN - 1 ? turn() : undefined);
      if (waiting !== undefined) await abortable(waiting);
      reject = undefined;
    }
  } catch (err) {
    closeIterator(iterator, sync);
    throw err;
  } finally {
    stopAbort();
  }
}

// Calls the iterator's return(), as leaving a loop over it does; its
// failure is not the caller's (the failure that stopped reading is).
function closeIterator(iterator, sync) {
  try {
    if (typeof iterator.return === 'function') {
      const closing = iterator.return();
      if (!sync) Promise.resolve(closing).catch(() => {});
    }
  } catch {
    // The failure that stopped reading is what the caller gets.
  }
}

// The iterator `source[key]()` gives, checked: an object with a next()
// method, or ERR_INVALID_RETURN_VALUE, as for an iterator's results.
function iteratorOf(source, key) {
  const iterator = source[key]();
  const method = key === Symbol.asyncIterator ? 'Symbol.asyncIterator' : 'Symbol.iterator';
  if (iterator === null || typeof iterator !== 'object') {
    throw makeError(TypeError, 'ERR_INVALID_RETURN_VALUE',
      `Expected the source's [${method}]() to return an iterator object. Received ${iterator === null ? 'null' : typeof iterator}`);
  }
  if (typeof iterator.next !== 'function') {
    throw makeError(TypeError, 'ERR_INVALID_RETURN_VALUE',
      `Expected the source's [${method}]() to return an iterator with a next() method. Received an object without one`);
  }
  return iterator;
}

function pump(kind, source, write, signal) {
  switch (kind) {
    case NODE:
      return pumpNode(source, write, signal);
    case WEB:
      return pumpWeb(source, write, signal);
    case BLOB:
      return pumpWeb(source.stream(), write, signal);
    case ASYNC:
      return pumpIterator(iteratorOf(source, Symbol.asyncIterator), false, write, signal);
    default:
      return pumpIterator(iteratorOf(source, Symbol.iterator), true, write, signal);
  }
}

module.exports = { sourceKind, pump, NODE, WEB, BLOB };
