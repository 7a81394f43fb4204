'use strict';
// Shared test helpers: inputs of every accepted type, and error assertions.
const assert = require('assert');

// Asserts fn throws an instance of Class whose `code` is `code` (and, when
// given, whose message matches `message`). Returns the error.
function throwsWith(fn, Class, code, message) {
  let caught;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught !== undefined, `expected ${Class.name} ${code}, nothing was thrown`);
  assert.ok(caught instanceof Class,
    `expected ${Class.name} ${code}, got ${caught && caught.name}: ${caught && caught.message}`);
  assert.strictEqual(caught.code, code, `wrong code for: ${caught.message}`);
  if (message instanceof RegExp) assert.match(caught.message, message);
  else if (message !== undefined) assert.strictEqual(caught.message, message);
  return caught;
}

// Deterministic bytes (xorshift32), so a failure names an input that can be
// made again.
function bytes(n, seed = 0x9e3779b9) {
  const out = Buffer.allocUnsafe(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

// Strings whose UTF-8 form is `n` bytes, built from units of `unit` (whose
// UTF-8 length is `width`) padded with ASCII.
function stringOf(n, unit, width) {
  return unit.repeat(Math.floor(n / width)) + 'x'.repeat(n % width);
}

// Every accepted binary input type holding exactly `buf`'s bytes; those that
// need an element size are left out when the length does not fit.
function binaryInputs(buf) {
  const n = buf.length;
  const at = (offset) => {
    const ab = new ArrayBuffer(n + offset + 5);
    new Uint8Array(ab).set(buf, offset);
    return ab;
  };
  const sab = new SharedArrayBuffer(n);
  new Uint8Array(sab).set(buf);
  const inputs = [
    ['Buffer', Buffer.from(buf)],
    ['Uint8Array with byteOffset', new Uint8Array(at(3), 3, n)],
    ['DataView over a slice', new DataView(at(5), 5, n)],
    ['ArrayBuffer', at(0).slice(0, n)],
    ['SharedArrayBuffer', sab],
  ];
  if (n % 8 === 0) inputs.push(['Float64Array', new Float64Array(at(8), 8, n / 8)]);
  if (n % 2 === 0) inputs.push(['Uint16Array', new Uint16Array(at(2), 2, n / 2)]);
  return inputs;
}

// Strings of every kind the API names, about `n` UTF-8 bytes each.
function stringInputs(n) {
  return [
    ['ASCII string', bytes(n).toString('latin1').replace(/[^\x20-\x7e]/g, 'a')],
    ['non-ASCII string', stringOf(n, 'é', 2)],
    ['CJK string', stringOf(n, '漢', 3)],
    ['emoji string', stringOf(n, '😀', 4)],
    ['lone surrogates string', stringOf(n, '\ud800', 3)],
    ['reversed surrogates string', stringOf(n, '\udc00\ud800', 6)],
  ];
}

// The algorithms createHmac takes: every listed digest but the XOFs.
// The names createHmac takes here: getHashes() also lists XOFs (SHAKE, and
// on OpenSSL 3.5 KECCAK-KMAC), which it refuses, as fast-hash does.
function hmacAlgorithms() {
  const crypto = require('crypto');
  return crypto.getHashes().filter((alg) => {
    try {
      crypto.createHmac(alg, 'k').digest();
      return true;
    } catch {
      return false;
    }
  });
}

// Keys of every accepted type holding `n` bytes (strings: about n UTF-8
// bytes), each with what to give createHmac for the same key.
function keyInputs(n) {
  const { createSecretKey } = require('crypto');
  const buf = bytes(n, n + 17);
  return [
    ...binaryInputs(buf).map(([label, value]) => [label, value, buf]),
    ...stringInputs(n).slice(0, 4).map(([label, value]) => [label, value, value]),
    ['KeyObject', createSecretKey(buf), buf],
  ];
}

// Whether this runtime's node:crypto takes a digest name (for hashing, or
// for HMAC): Bun and Deno lack some of Node's (sm3, SHA2-256, HMAC over
// BLAKE2 or RSA-* names), and fast-hash's JavaScript implementation with
// them.
function runtimeHashes(name) {
  try {
    require('crypto').createHash(name).digest();
    return true;
  } catch {
    return false;
  }
}
function runtimeHmacs(name) {
  try {
    require('crypto').createHmac(name, 'k').digest();
    return true;
  } catch {
    return false;
  }
}

// Tests of the addon itself (its binding, its memory, its allocations, its
// paths) are pending on the JavaScript implementation, their title saying
// why; everything else runs on both.
const { implementation } = require('..');
const NATIVE_ONLY = ' [needs the native addon; this run uses the JavaScript implementation]';
// (mocha's globals are looked up at the call: children load this file too)
const describeNative = (title, fn) =>
  (implementation === 'native' ? describe(title, fn) : describe.skip(title + NATIVE_ONLY, fn));
const itNative = (title, fn) =>
  (implementation === 'native' ? it(title, fn) : it.skip(title + NATIVE_ONLY, fn));

// How many bytes of short parts a hasher gathers before sending them on
// (lib/hasher/hasher.js; MAC_STAGE for HMAC hashers): the hasher tests size their
// parts around it. Where nothing is gathered, 256, so the parts span the
// same sizes.
const { stageBytes, macStageBytes } = require('../lib/binding');
const STAGE = stageBytes || 256;
const MAC_STAGE = macStageBytes || 256;

// For a child whose RSS is measured (test/workers.test.js's cases):
// glibc's malloc raises its mmap threshold (up to 32 MiB) as large blocks
// are freed, and then keeps freed 8-64 MiB Buffers and copies in its
// per-thread arenas: RSS after 200 worker cycles then jumps by tens of MB
// now and then (41 MB once in 9 runs) with nothing leaked. A fixed
// threshold returns every large block at free(), so RSS follows live
// memory; a block that leaks stays mapped and counted. (Other C libraries
// ignore the variable.)
const FIXED_MMAP_ENV = {
  GLIBC_TUNABLES: [process.env.GLIBC_TUNABLES, 'glibc.malloc.mmap_threshold=131072'].filter(Boolean).join(':'),
};

// Buffer's shared pool (where short Buffer.from() and allocUnsafe() land)
// as one Buffer, to scan for bytes that must not be there.
const sharedPool = () => Buffer.from(Buffer.allocUnsafe(1).buffer);

// Makes Buffer.allocUnsafe() start a new shared pool, and zeroes it: a new
// pool is uninitialised memory, which may hold what freed memory held. The
// allocations that follow land in it, and nothing else is in it yet but
// the last filler Buffer, unreferenced.
function freshSharedPool() {
  const old = Buffer.allocUnsafe(1).buffer;
  for (let i = 0; i < 64 && Buffer.allocUnsafe(1000).buffer === old; i++);
  new Uint8Array(Buffer.allocUnsafe(1).buffer).fill(0);
}

// Whether this runtime's own node:crypto refuses `name` as a digest. Node
// refuses a name that only case-folds to a known one (the Kelvin sign K for
// 'k'); Deno lower-cases names first and takes it, and fast-hash then does
// as the runtime does.
function refusedByRuntime(name) {
  try {
    require('crypto').createHash(name);
    return false;
  } catch {
    return true;
  }
}

module.exports = {
  refusedByRuntime, sharedPool, freshSharedPool,
  throwsWith, bytes, binaryInputs, stringInputs, hmacAlgorithms, keyInputs,
  implementation, describeNative, itNative, runtimeHashes, runtimeHmacs, STAGE, MAC_STAGE, FIXED_MMAP_ENV,
};

// Files for the file tests in a fresh temporary folder: empty, small, 10 MiB,
// and sizes around the 1 MiB read chunk. Returns { dir, files, cleanup }.
function makeFiles() {
  const fs = require('fs');
  const os = require('os');
  const path = require('path');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-'));
  const sizes = { empty: 0, small: 100, chunk: 1 << 20, 'chunk+1': (1 << 20) + 1, odd: 3 * (1 << 20) - 7, big: 10 << 20 };
  const files = {};
  for (const [name, size] of Object.entries(sizes)) {
    files[name] = path.join(dir, `${name}.bin`);
    fs.writeFileSync(files[name], bytes(size, size + 3));
  }
  return { dir, files, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

// Runs `cases` ([label, thunk, want]) and fails once, listing the first
// mismatches: a sweep of 100k cases should report more than the first.
// Returns how many cases ran.
function sweep(cases) {
  const show = (v) => (Buffer.isBuffer(v) ? `<Buffer ${v.toString('hex')}>` : `${typeof v}:${v}`);
  const bad = [];
  for (const [label, run, want] of cases) {
    let got;
    try {
      got = run();
    } catch (err) {
      got = `threw ${err.code}: ${err.message}`;
    }
    if (show(got) !== show(want)) bad.push(`${label}: got ${show(got)}, want ${show(want)}`);
  }
  assert.deepStrictEqual(bad.slice(0, 10), [], `${bad.length} of ${cases.length} cases differ`);
  return cases.length;
}

// Asserts that `promise` is a Promise that rejects with an instance of Class
// whose code is `code` (the async functions never throw).
async function rejectsWith(promise, Class, code) {
  assert.ok(promise instanceof Promise, 'returns a promise, does not throw');
  await assert.rejects(promise, (err) => err instanceof Class && err.code === code);
}

// What node:crypto says for a failure that reads OpenSSL's thread error
// queue: it reports the oldest entry, so an entry we left behind would change
// this text.
function opensslErrorProbe() {
  try {
    require('crypto').createPrivateKey('not a key');
  } catch (err) {
    return `${err.code} ${err.message}`;
  }
  return 'no error';
}

// A FIFO whose writer (another process) delivers `parts` in separate writes
// with pauses between them, so reads come back short; returns the path and
// the bytes written. Linux and macOS (mkfifo).
function slowFifo(dir, parts) {
  const { execFileSync, spawn } = require('child_process');
  const fifo = require('path').join(dir, `fifo-${process.pid}-${Math.random().toString(36).slice(2)}`);
  execFileSync('mkfifo', [fifo]);
  const chunks = parts.map((n, i) => Buffer.alloc(n, 65 + i));
  const src = `const fs = require('fs'); const fd = fs.openSync(${JSON.stringify(fifo)}, 'w');
    const parts = ${JSON.stringify(parts)};
    (function next(i) {
      if (i === parts.length) { fs.closeSync(fd); return; }
      fs.writeSync(fd, Buffer.alloc(parts[i], 65 + i));
      setTimeout(next, 40, i + 1);
    })(0);`;
  const writer = spawn(process.execPath, ['-e', src], { stdio: 'ignore' });
  return { fifo, data: Buffer.concat(chunks), writer };
}

// Run in the child and in its workers: a writer that opens the FIFO without
// waiting once a reader has it (O_NONBLOCK: ENXIO until then), so that a
// hashing bug cannot hang the writer; writes that wait out EAGAIN (a full
// FIFO) on timers, so that the reader in the same thread goes on, each of
// at most PIPE_BUF bytes, which a FIFO takes whole or not at all (Deno's
// writeSync writes the whole buffer given, and throws EAGAIN without the
// count of what it wrote when the FIFO fills on the way).
const FIFO_WRITER = `
  const fs = require('fs');
  const { O_WRONLY, O_NONBLOCK } = fs.constants;
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  async function writer(p) {
    for (;;) {
      try {
        return fs.openSync(p, O_WRONLY | O_NONBLOCK);
      } catch (err) {
        if (err.code !== 'ENXIO') throw err;
      }
      await sleep(5);
    }
  }
  async function writeAll(fd, buf) {
    for (let off = 0; off < buf.length;) {
      try {
        off += fs.writeSync(fd, buf.subarray(off, off + 4096));
      } catch (err) {
        if (err.code !== 'EAGAIN') throw err;
        await sleep(1);
      }
    }
  }`;

Object.assign(module.exports, { makeFiles, sweep, rejectsWith, opensslErrorProbe, slowFifo, FIFO_WRITER });
