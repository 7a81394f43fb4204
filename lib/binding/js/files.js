'use strict';
// The asynchronous functions and files: hashAsync, hmacAsync, hashFile and
// hashFileSync. node:crypto has no digest off the main thread for every
// algorithm, so the work runs in later turns of the event loop, a slice at
// a time: a large input does not hold the loop for its whole length.
// Contract: an input view is copied at the call; fs errors name the path,
// as the addon's do; hashFile never leaves a thread waiting on a FIFO, so
// an abort, process.exit() and worker.terminate() end it, as the addon's.
const crypto = require('crypto');
const fs = require('fs');
const { Buffer } = require('buffer');
const { makeHash, viewBytes } = require('./runtime');
const { algAt, encodingAt } = require('./table');
const { emit, give } = require('./digests');
const { secretKey, emitSecret } = require('./macs');
const { makeError } = require('../../errors');

const SLICE = 1 << 20;

// Bytes owned by the job: views are copied now (the caller may change them
// later); strings cannot change.
function capture(data) {
  if (typeof data === 'string') return data;
  return Buffer.from(viewBytes(data));
}

function turn() {
  return new Promise((resolve) => setImmediate(resolve));
}

async function feed(h, data) {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  let at = 0;
  do {
    await turn();
    h.update(bytes.subarray(at, at + SLICE));
    at += SLICE;
  } while (at < bytes.length);
  return h;
}

async function hashAsync(algId, enc, data, length) {
  const alg = algAt(algId);
  const encoding = encodingAt(enc);
  const h = await feed(makeHash(alg, length), capture(data));
  return emit(h.digest(), encoding);
}

function hmacAsync(algId, enc, key, data) {
  const alg = algAt(algId);
  const encoding = encodingAt(enc);
  let h;
  try {
    h = crypto.createHmac(alg.name, secretKey(key));
  } catch (err) {
    return Promise.reject(err);
  }
  return feed(h, capture(data)).then((done) => emitSecret(done.digest(), encoding));
}

// A path as fs takes it: a Buffer path is copied through the intrinsics (a
// detached one is empty).
const fsPath = (path) => (typeof path === 'string' ? path : Buffer.from(viewBytes(path)));

// ---- hashFile ---------------------------------------------------------------
// No thread of the runtime's ever waits on a FIFO without end: Node's
// process.exit() joins libuv's threads and its worker.terminate() waits for
// the worker's fs requests, so a blocking open or read of a FIFO whose
// writer never comes (or idles) would hang them both, and a cancel cell
// read only between reads would never be seen. So, as the addon does
// (src/file.c), hashFile opens with O_NONBLOCK (a FIFO opens at once, its
// reads never wait) and waits on a FIFO where it can be stopped: on the
// event loop (fifoInto), where an abort closes it and an exit or a
// terminate just ends.

// The cancel cell is read this often while a job waits on a FIFO: an abort
// rejects within about that.
const CANCEL_POLL_MS = 50;
// A read that found nothing to read (EAGAIN: a terminal with nothing typed,
// a FIFO on Deno) is tried again after this.
const RETRY_MS = 10;

// fs.constants may lack these (Windows has no O_NONBLOCK, nor FIFOs): the
// plain open of before then.
const { O_RDONLY = 0, O_WRONLY, O_NONBLOCK } = fs.constants || {};
const NONBLOCK = typeof O_NONBLOCK === 'number' ? O_RDONLY | O_NONBLOCK : undefined;
// How this runtime waits on a FIFO on its event loop (fifoInto: Node's
// socketReader, Bun's bunReader); undefined where it has no O_NONBLOCK or
// no such reader (Deno), where the open waits instead (openWaiting).
const FIFO_READER = NONBLOCK === undefined || typeof globalThis.Deno === 'object' ? undefined
  : typeof globalThis.Bun?.file === 'function' ? bunReader : socketReader;

// fs's callback calls as promises: a plain fd (which a FIFO's reader takes
// over, and closes), and less work per call than a FileHandle's.
const call = (fn, ...args) => new Promise((resolve, reject) => {
  fn(...args, (err, value) => (err ? reject(err) : resolve(value)));
});
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const cancelled = (cancel) => cancel !== undefined && Atomics.load(cancel, 0) !== 0;
const abortError = () => makeError(Error, 'ABORT_ERR', 'The operation was aborted');
const isFifo = (fd) => call(fs.fstat, fd).then((stats) => stats.isFIFO());

// `cancel`: an Int32Array whose element 0 set to 1 ends the job before its
// next read, or within CANCEL_POLL_MS while it waits on a FIFO (the file
// closed), rejecting with ABORT_ERR, as the addon does. A FIFO's end is a
// writer having been there and left; one whose writer has not come yet is
// waited on, as a plain open waits.
async function hashFile(algId, enc, path, length, cancel) {
  path = fsPath(path);
  const alg = algAt(algId);
  const encoding = encodingAt(enc);
  const h = makeHash(alg, length);
  const fd = await openFile(path, cancel);
  let owned = true;
  try {
    if (await readInto(h, fd, path, cancel)) {
      owned = false;
      await fifoInto(h, fd, path, cancel);
    }
  } finally {
    if (owned) await call(fs.close, fd);
  }
  return emit(h.digest(), encoding);
}

// Opens path for reading, without waiting for a FIFO's writer where the
// runtime can wait for it on its event loop (FIFO_READER); Deno's open
// waits (openWaiting). Only an EAGAIN from the O_NONBLOCK open (a lease
// whose holder is asked to let go) gets the plain open, as in the addon.
async function openFile(path, cancel) {
  if (NONBLOCK === undefined) return call(fs.open, path, 'r');
  if (FIFO_READER === undefined) return openWaiting(path, cancel);
  try {
    return await call(fs.open, path, NONBLOCK);
  } catch (err) {
    if (err.code !== 'EAGAIN') throw err;
    return call(fs.open, path, 'r');
  }
}

// One read of up to buffer.length bytes at the file position: the byte
// count, or -1 when there is nothing to read now (EAGAIN, O_NONBLOCK).
function readSlice(fd, buffer, path) {
  return call(fs.read, fd, buffer, 0, buffer.length, null).catch((err) => {
    if (err.code === 'EAGAIN' || err.code === 'EWOULDBLOCK') return -1;
    throw withPath(err, path);
  });
}

// Reads fd into h a slice at a time on the thread pool (each read returns
// at once, O_NONBLOCK), the cancel cell read before each. Returns false at
// the end, or true (fd left open) for a FIFO that FIFO_READER is to wait
// on: one with nothing to read now and no bytes read, or an idle writer.
// A FIFO's 0 after bytes is its end as a file's is: a writer came and
// left. Only a read that finds nothing asks fstat what fd is, so a file
// costs no more calls than before; other EAGAINs (a terminal) read again.
async function readInto(h, fd, path, cancel) {
  const buffer = Buffer.allocUnsafe(SLICE);
  let bytes = false;
  let fifo;
  for (;;) {
    if (cancelled(cancel)) throw abortError();
    const n = await readSlice(fd, buffer, path);
    if (n > 0) {
      h.update(buffer.subarray(0, n));
      bytes = true;
      continue;
    }
    if (n === 0 && bytes) return false;
    if (FIFO_READER !== undefined && (fifo ??= await isFifo(fd))) return true;
    if (n === 0) return false;
    await sleep(RETRY_MS);
  }
}

// The rest of the FIFO fd into h, from FIFO_READER, which owns fd from now
// on and waits on the event loop, where no thread waits and an exit or a
// worker's terminate ends it. The cancel cell is read every CANCEL_POLL_MS
// and at each chunk: an abort stops the reader (closing fd), then rejects.
function fifoInto(h, fd, path, cancel) {
  return new Promise((resolve, reject) => {
    let ended = false;
    let stop;
    const finish = (err) => {
      if (ended) return;
      ended = true;
      clearInterval(timer);
      stop().then(() => (err === undefined ? resolve() : reject(err)), reject);
    };
    const check = () => cancelled(cancel) && finish(abortError());
    try {
      stop = FIFO_READER(fd, {
        data: (chunk) => {
          check();
          if (!ended) h.update(chunk);
        },
        end: () => finish(),
        fail: (err) => finish(withPath(err, path)),
      });
    } catch (err) {
      fs.close(fd, () => reject(err));
      return;
    }
    const timer = setInterval(check, CANCEL_POLL_MS);
  });
}

// Node: the FIFO as a libuv pipe, as Node reads process.stdin from one:
// epoll reports bytes, and the end once a writer has been there and left
// (POLLHUP); no thread is involved. Returns stop(), which resolves once the
// socket has closed fd. (Loaded here: the command, which hashes files,
// does not load the stream machinery for a file that is not a FIFO.)
function socketReader(fd, sink) {
  const { Socket } = require('net');
  const socket = new Socket({ fd, readable: true, writable: false });
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.on('data', sink.data).on('end', sink.end).on('error', sink.fail);
  return () => {
    socket.destroy();
    return closed;
  };
}

// Bun: its net.Socket reads nothing from a FIFO's fd, but Bun.file(fd)'s
// stream waits on it in Bun's event loop with the same end. The stream
// leaves fd open: stop() closes it.
function bunReader(fd, sink) {
  const reader = globalThis.Bun.file(fd).stream().getReader();
  let stopped = false;
  const pumped = (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) sink.data(r.value);
  })().then(() => stopped || sink.end(), (err) => stopped || sink.fail(err));
  return async () => {
    stopped = true;
    await reader.cancel().catch(() => {});
    await pumped;
    await call(fs.close, fd);
  };
}

// Deno has neither (its net.Socket refuses a FIFO's fd), but its
// process.exit() and worker.terminate() do not wait for its threads: the
// open waits for a FIFO's writer as a plain open does, and an abort ends
// that wait by opening the FIFO for writing and closing it at once (which
// any other reader waiting on it sees as a writer that came and left). A
// FIFO is then opened again with O_NONBLOCK, the first fd closed after
// (the bytes stay while a reader has it): its reads never wait, and its 0
// is its end, a writer having come (readInto).
async function openWaiting(path, cancel) {
  const timer = setInterval(() => {
    if (cancelled(cancel)) {
      clearInterval(timer);
      wakeOpen(path);
    }
  }, CANCEL_POLL_MS);
  let fd;
  try {
    fd = await call(fs.open, path, 'r');
  } finally {
    clearInterval(timer);
  }
  let again;
  try {
    again = (await isFifo(fd)) ? await call(fs.open, path, NONBLOCK) : fd;
  } catch (err) {
    await call(fs.close, fd);
    throw err;
  }
  if (again !== fd) await call(fs.close, fd);
  return again;
}

// Ends a plain open's wait for path's writer, if path is a FIFO (opening
// any other file for writing is never harmless): the reader waiting is
// there, so an O_NONBLOCK open for writing succeeds at once.
function wakeOpen(path) {
  fs.stat(path, (err, stats) => {
    if (err || !stats.isFIFO()) return;
    fs.open(path, O_WRONLY | O_NONBLOCK, (openErr, fd) => openErr || fs.close(fd, () => {}));
  });
}

function hashFileSync(algId, enc, path, length, out) {
  path = fsPath(path);
  const alg = algAt(algId);
  const encoding = encodingAt(enc);
  const h = makeHash(alg, length);
  const fd = fs.openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(SLICE);
    let n;
    while ((n = readSync(fd, buffer, path)) !== 0) h.update(buffer.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return give(h.digest(), encoding, out, false);
}

function readSync(fd, buffer, path) {
  try {
    return fs.readSync(fd, buffer, 0, buffer.length, null);
  } catch (err) {
    throw withPath(err, path);
  }
}

// fs names no path on a failed read (EISDIR, EIO); the addon's errors do.
function withPath(err, path) {
  if (err && err.syscall === 'read' && err.path === undefined) {
    err.path = String(path);
    err.message = `${err.message} '${err.path}'`;
  }
  return err;
}

module.exports = { hashAsync, hmacAsync, hashFile, hashFileSync };
