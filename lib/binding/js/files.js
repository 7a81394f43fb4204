'use strict';
// The asynchronous functions and files: hashAsync, hmacAsync, hashFile and
// hashFileSync. node:crypto has no digest off the main thread for every
// algorithm, so the work runs in later turns of the event loop, a slice at
// a time: a large input does not hold the loop for its whole length.
// Contract: an input view is copied at the call; fs errors name the path,
// as the addon's do.
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

// `cancel`: an Int32Array whose element 0 set to 1 ends the job before its
// next read (the file closed), rejecting with ABORT_ERR, as the addon does.
async function hashFile(algId, enc, path, length, cancel) {
  path = fsPath(path);
  const alg = algAt(algId);
  const encoding = encodingAt(enc);
  const h = makeHash(alg, length);
  const file = await fs.promises.open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(SLICE);
    for (;;) {
      if (cancel !== undefined && Atomics.load(cancel, 0) !== 0) {
        throw makeError(Error, 'ABORT_ERR', 'The operation was aborted');
      }
      const { bytesRead } = await file.read(buffer, 0, SLICE, null).catch((err) => {
        throw withPath(err, path);
      });
      if (bytesRead === 0) break;
      h.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await file.close();
  }
  return emit(h.digest(), encoding);
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
