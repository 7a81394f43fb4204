'use strict';
// Inputs past 2^31 and 2^32 bytes, strings near V8's length limit, XOF
// outputs too long for a string or a Buffer, and a file past 4 GiB.
//
// Each case runs in a child process (this file, run with a case name), so a
// crash is a test failure naming the signal, and the memory a case takes is
// given back when it ends. The children print one `RESULT {json}` line;
// `{ "skip": reason }` skips the test (not enough memory, allocation refused).
//
// Memory: big Buffers are Buffer.alloc'd (calloc: untouched pages are the
// kernel's shared zero page and cost no RAM) and only marker regions are
// written: around 0, 2^31, 2^32 and the end, plus 4 KiB every 256 MiB. A
// digest that lost the high bits of the length, or read from a wrong offset
// past 2 GiB or 4 GiB, differs from node:crypto's over the same bytes.
//
// Time on the development machine (2 cores, SHA-NI, about 1 GB/s of SHA-256
// per core) is noted on each case, quiet / loaded by other jobs: the whole
// file takes 46 s when the machine is quiet, 85-110 s when it is busy.

const path = require('path');
const ROOT = path.join(__dirname, '..', '..');
const GIB = 2 ** 30;
const MIB = 2 ** 20;

// ---- the mocha side --------------------------------------------------------

function defineTests() {
  const assert = require('assert');
  const { childResult } = require('../child');

  // Runs a case in a child; a signal or a non-zero exit fails the test with
  // the child's stderr. Returns the child's result, or skips the test.
  function child(ctx, name, args = [], timeoutMs = 120000) {
    const started = Date.now();
    const result = childResult(__filename, [name, ...args], { timeout: timeoutMs });
    console.log(`      [${name} ${args.join(' ')}] ${Date.now() - started} ms: ${JSON.stringify(result.times || result.skip || {})}`);
    if (result.skip) ctx.skip();
    return result;
  }

  const compare = (result) => {
    for (const c of result.checks) assert.strictEqual(c.got, c.want, c.label);
    assert.ok(result.checks.length > 0);
  };

  describe('limits', function () {
    // 5 s / 8 s: 4 GiB through fast-hash, then through createHash.
    it('a Buffer of buffer.constants.MAX_LENGTH bytes (4 GiB) hashes as node:crypto does', function () {
      this.timeout(120000);
      compare(child(this, 'buffer', [require('buffer').constants.MAX_LENGTH]));
    });

    // 8 s / 17-21 s: hash, hmac and hashAsync (which copies the 2 GiB) of it.
    it('a Buffer of 2^31 + 1 bytes: hash, hmac and hashAsync as node:crypto', function () {
      this.timeout(120000);
      compare(child(this, 'buffer', [2 ** 31 + 1, 'all']));
    });

    // 8 s / 18-22 s: ASCII strings (hash, hashAsync) and a BMP one (3 UTF-8
    // bytes a unit: 1.6 GB of UTF-8, near the int capacity of V8's
    // WriteUtf8) of MAX_STRING_LENGTH units.
    it('strings of buffer.constants.MAX_STRING_LENGTH units hash correctly or throw a coded Error', function () {
      this.timeout(120000);
      const result = child(this, 'string');
      for (const c of result.checks) {
        if (c.threw) {
          assert.ok(c.isError && typeof c.code === 'string' && c.code !== '',
            `${c.label} threw without a string code: ${c.threw}`);
        } else {
          assert.strictEqual(c.got, c.want, c.label);
        }
      }
      // (Bun's strings stop at 2^31 - 1 units: fewer of the checks apply.)
      assert.ok(result.checks.length >= (process.versions.bun ? 1 : 3));
    });

    // 5 s / 7-10 s: outputs just past the string limit are squeezed, then
    // refused when made into a string. (Not tried: outputLength ===
    // MAX_LENGTH in hex, which squeezes 4 GiB, 13 s, before the same error.)
    it('a huge XOF outputLength throws coded errors: ERR_STRING_TOO_LONG / ERR_OUT_OF_RANGE for strings, RangeError for buffer', function () {
      this.timeout(120000);
      const result = child(this, 'xof');
      for (const c of result.checks) {
        assert.ok(!c.returned, `${c.label} returned a ${c.returned} instead of throwing`);
        assert.ok(c.isError, `${c.label} threw a non-Error: ${c.message}`);
        assert.ok(c.codes.includes(c.code), `${c.label}: code ${c.code} (${c.message}), want one of ${c.codes}`);
        if (c.rangeError) assert.strictEqual(c.name, 'RangeError', `${c.label}: ${c.name} ${c.message}`);
      }
      assert.ok(result.checks.length >= 10);
    });

    // 20 s / 25-49 s: 4 GiB + 1 of (mostly) holes read by hashFile,
    // hashFileSync and a createReadStream (4 MiB chunks; the stream is most
    // of the time, its fresh chunks cost page faults).
    it('hashFile and hashFileSync of a sparse file of 4 GiB + 1 byte equal streaming it into createHash', function () {
      this.timeout(120000);
      compare(child(this, 'sparse', [2 ** 32 + 1]));
    });
  });
}

// ---- the child side ----------------------------------------------------------

// Runs fn and notes its time in ms under `label`, whether it returns or throws.
function timed(times, label, fn) {
  const t = process.hrtime.bigint();
  try {
    return fn();
  } finally {
    times[label] = Math.round(Number(process.hrtime.bigint() - t) / 1e6);
  }
}

async function timedAsync(times, label, fn) {
  const t = process.hrtime.bigint();
  try {
    return await fn();
  } finally {
    times[label] = Math.round(Number(process.hrtime.bigint() - t) / 1e6);
  }
}

// Writes deterministic markers into a zero-filled buffer (or a file, through
// `write(offset, bytes)`): dense around the 2^31 and 2^32 boundaries and the
// ends, sparse elsewhere.
function markers(size, write) {
  const { bytes } = require('../common');
  const dense = 64 * 1024;
  const at = new Set([0, size - dense]);
  for (const edge of [2 ** 31, 2 ** 32]) {
    if (edge - dense >= 0 && edge - dense < size) at.add(edge - dense);
    if (edge < size) at.add(edge);
  }
  for (const start of at) {
    const s = Math.max(0, start);
    write(s, bytes(Math.min(dense, size - s), s % 65521 + 1));
  }
  for (let off = 256 * MIB + 17; off < size; off += 256 * MIB) {
    write(off, bytes(Math.min(4096, size - off), off % 65521 + 2));
  }
  // The bytes right at the edges, one by one.
  const buf1 = (v) => Buffer.from([v]);
  for (const edge of [2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, size - 1]) {
    if (edge < size) write(edge, buf1((edge % 251) + 3));
  }
}

function enoughMemory(need) {
  const os = require('os');
  const free = os.freemem();
  return free >= need ? null : `os.freemem() is ${(free / GIB).toFixed(1)} GiB, ${(need / GIB).toFixed(1)} GiB wanted`;
}

// createHash over `buf` in 1 GiB subarrays.
function cryptoInPieces(alg, buf, hmacKey) {
  const crypto = require('crypto');
  const h = hmacKey === undefined ? crypto.createHash(alg) : crypto.createHmac(alg, hmacKey);
  for (let off = 0; off < buf.length; off += GIB) h.update(buf.subarray(off, Math.min(buf.length, off + GIB)));
  return h.digest('hex');
}

async function runChild(name, args) {
  const { hash, hmac, hashAsync, hashFile, hashFileSync } = require(ROOT);
  const times = {};
  const checks = [];

  if (name === 'buffer') {
    const size = Number(args[0]);
    const all = args[1] === 'all';
    // The pages hashed but never written cost nothing; those hashAsync copies
    // do. Ask for the whole size (twice with the copy) anyway: a kernel that
    // refuses to overcommit needs it.
    const lack = enoughMemory(size * (all ? 2 : 1) + GIB / 2);
    if (lack) return { skip: lack };
    let buf;
    try {
      buf = timed(times, 'alloc', () => Buffer.alloc(size));
    } catch (err) {
      return { skip: `Buffer.alloc(${size}) threw ${err.code}: ${err.message}` };
    }
    timed(times, 'markers', () => markers(size, (off, b) => b.copy(buf, off)));
    const got = timed(times, 'fast-hash sha256', () => hash('sha256', buf));
    const want = timed(times, 'createHash sha256', () => cryptoInPieces('sha256', buf));
    checks.push({ label: `hash('sha256', <${size} bytes>)`, got, want });
    if (all) {
      const key = 'a key';
      checks.push({
        label: `hmac('sha256', key, <${size} bytes>)`,
        got: timed(times, 'fast-hash hmac sha256', () => hmac('sha256', key, buf)),
        want: timed(times, 'createHmac sha256', () => cryptoInPieces('sha256', buf, key)),
      });
      let asyncGot;
      try {
        asyncGot = await timedAsync(times, 'hashAsync sha256', () => hashAsync('sha256', buf));
      } catch (err) {
        // The copy is the only allocation that may fail here: a coded error.
        asyncGot = `hashAsync rejected ${err.code}: ${err.message}`;
      }
      checks.push({ label: `hashAsync('sha256', <${size} bytes>)`, got: asyncGot, want });
    }
    return { times, checks };
  }

  if (name === 'string') {
    const crypto = require('crypto');
    const { constants: { MAX_STRING_LENGTH } } = require('buffer');
    const lack = enoughMemory(5 * GIB);
    if (lack) return { skip: lack };
    const n = MAX_STRING_LENGTH;
    const run = async (label, unit, fn) => {
      let s;
      try {
        s = unit.repeat(n);
      } catch {
        return; // V8 could not make it: nothing to hash
      }
      const check = { label };
      try {
        check.got = await timedAsync(times, label, () => fn(s));
      } catch (err) {
        check.threw = `${err && err.code}: ${err && err.message}`;
        check.isError = err instanceof Error;
        check.code = err && err.code;
      }
      if (check.threw === undefined) {
        // createHash fed the UTF-8 of 16 Mi units at a time (the string is
        // one unit repeated), then of the rest.
        check.want = timed(times, `${label} (createHash)`, () => {
          const h = crypto.createHash('sha256');
          const piece = Buffer.from(unit.repeat(16 * MIB), 'utf8');
          for (let i = 0; i + 16 * MIB <= n; i += 16 * MIB) h.update(piece);
          h.update(Buffer.from(unit.repeat(n % (16 * MIB)), 'utf8'));
          return h.digest('hex');
        });
      }
      checks.push(check);
      s = null;
      global.gc();
    };
    await run(`hash sha256 'a' x ${n}`, 'a', (s) => hash('sha256', s));
    await run(`hashAsync sha256 'a' x ${n}`, 'a', (s) => hashAsync('sha256', s));
    await run(`hash sha256 '\\u20ac' x ${n}`, '\u20ac', (s) => hash('sha256', s));
    return { times, checks };
  }

  if (name === 'xof') {
    const { constants: { MAX_STRING_LENGTH, MAX_LENGTH } } = require('buffer');
    const lack = enoughMemory(6 * GIB);
    if (lack) return { skip: lack };
    const TEXT = ['ERR_STRING_TOO_LONG', 'ERR_OUT_OF_RANGE'];
    const RANGE = ['ERR_OUT_OF_RANGE'];
    // The smallest lengths whose text is longer than a string can be.
    const hexLen = Math.floor(MAX_STRING_LENGTH / 2) + 1;
    const b64Len = Math.floor(MAX_STRING_LENGTH / 4) * 3 + 1;
    const cases = [
      ['hash shake256 hex, text just over the limit', TEXT, false,
        () => hash('shake256', 'x', { outputLength: hexLen })],
      ['hash shake128 base64, text just over the limit', TEXT, false,
        () => hash('shake128', 'x', { outputLength: b64Len, outputEncoding: 'base64' })],
      ['hash shake128 latin1, MAX_STRING_LENGTH + 1', TEXT, false,
        () => hash('shake128', 'x', { outputLength: MAX_STRING_LENGTH + 1, outputEncoding: 'latin1' })],
      ['hash shake128 utf8, MAX_STRING_LENGTH + 1', TEXT, false,
        () => hash('shake128', 'x', { outputLength: MAX_STRING_LENGTH + 1, outputEncoding: 'utf8' })],
      ['hash shake256 hex, MAX_LENGTH + 1', TEXT, false,
        () => hash('shake256', 'x', { outputLength: MAX_LENGTH + 1 })],
      ['hash shake256 hex, 2^53 - 1', TEXT, false,
        () => hash('shake256', 'x', { outputLength: Number.MAX_SAFE_INTEGER })],
      ['hashAsync shake256 hex, text just over the limit', TEXT, false,
        () => hashAsync('shake256', 'x', { outputLength: hexLen })],
      ['hashAsync shake256 base64url, 2^40', TEXT, false,
        () => hashAsync('shake256', 'x', { outputLength: 2 ** 40, outputEncoding: 'base64url' })],
      ['hash shake256 buffer, MAX_LENGTH + 1', RANGE, true,
        () => hash('shake256', 'x', { outputLength: MAX_LENGTH + 1, outputEncoding: 'buffer' })],
      ['hash shake128 buffer, 2^40', RANGE, true,
        () => hash('shake128', 'x', { outputLength: 2 ** 40, outputEncoding: 'buffer' })],
      ['hash shake128 buffer, 2^53 - 1', RANGE, true,
        () => hash('shake128', 'x', { outputLength: Number.MAX_SAFE_INTEGER, outputEncoding: 'buffer' })],
      ['hashAsync shake128 buffer, MAX_LENGTH + 1', RANGE, true,
        () => hashAsync('shake128', 'x', { outputLength: MAX_LENGTH + 1, outputEncoding: 'buffer' })],
    ];
    for (const [label, codes, rangeError, fn] of cases) {
      const check = { label, codes, rangeError };
      try {
        const value = await timedAsync(times, label, fn);
        check.returned = `${typeof value} of length ${value && value.length}`;
      } catch (err) {
        check.isError = err instanceof Error;
        check.name = err && err.name;
        check.code = err && err.code;
        check.message = String(err && err.message).slice(0, 200);
      }
      checks.push(check);
      global.gc();
    }
    return { times, checks };
  }

  if (name === 'sparse') {
    const fs = require('fs');
    const os = require('os');
    const crypto = require('crypto');
    const size = Number(args[0]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-limits-'));
    const file = path.join(dir, 'sparse.bin');
    try {
      const fd = fs.openSync(file, 'w');
      try {
        fs.ftruncateSync(fd, size);
        markers(size, (off, b) => fs.writeSync(fd, b, 0, b.length, off));
      } catch (err) {
        return { skip: `cannot make a ${size}-byte sparse file: ${err.code}` };
      } finally {
        fs.closeSync(fd);
      }
      const st = fs.statSync(file);
      if (st.size !== size) return { skip: `the file is ${st.size} bytes, not ${size}` };
      times.allocatedKiB = Math.round((st.blocks * 512) / 1024);
      const want = await timedAsync(times, 'createReadStream sha256', () => new Promise((resolve, reject) => {
        const h = crypto.createHash('sha256');
        fs.createReadStream(file, { highWaterMark: 4 * MIB })
          .on('data', (chunk) => h.update(chunk))
          .on('error', reject)
          .on('end', () => resolve(h.digest('hex')));
      }));
      checks.push({
        label: `hashFile('sha256', <sparse ${size} bytes>)`,
        got: await timedAsync(times, 'hashFile sha256', () => hashFile('sha256', file)),
        want,
      });
      checks.push({
        label: `hashFileSync('sha256', <sparse ${size} bytes>)`,
        got: timed(times, 'hashFileSync sha256', () => hashFileSync('sha256', file)),
        want,
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return { times, checks };
  }

  throw new Error(`unknown case ${name}`);
}

// Run as a child (a case name in argv), or loaded by mocha.
require('../child').childEntry(module, ([name, ...args]) => runChild(name, args), defineTests);
