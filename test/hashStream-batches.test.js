'use strict';
// The memory a stream digest copies its chunks into: a stream after
// another takes the first one's batches instead of allocating its own; the
// batches kept that way hold no memory once a full collection has run
// (they are kept through WeakRefs); and every copy of an HMAC message
// (batches, the rests of chunks kept while both batches are hashed, long
// strings' bytes) is wiped once hashed. The last two run in a child, where
// no earlier stream left batches to reuse.
const assert = require('assert');
const { Buffer } = require('buffer');
const { Readable } = require('stream');
const { childResult, childEntry } = require('./child');

const MIB = 2 ** 20;
// Long enough for every batch size (64 KiB up to 4 MiB) and two of the
// largest.
const TOTAL = 10 * MIB;
const chunks = () => {
  const chunk = Buffer.alloc(MIB, 0x61);
  return Array.from({ length: TOTAL / MIB }, () => chunk);
};

// ---- the children -------------------------------------------------------------
// Array buffers grown after a stream and a full collection.
async function kept() {
  const { setImmediate: tick } = require('timers/promises');
  const { hashStream } = require('..');
  const settle = async () => {
    for (let i = 0; i < 4; i++) { global.gc(); await tick(); }
  };
  await hashStream('sha256', ['warm']);
  await settle();
  const before = process.memoryUsage().arrayBuffers;
  await hashStream('sha256', chunks());
  await settle();
  return { grown: process.memoryUsage().arrayBuffers - before };
}

// For each shape of message: whether the MAC is right, how many buffers of
// their own the stream digest made, and how many still hold the message.
async function wiped() {
  const { hmacStream, hmac } = require('..');
  // ASCII: the same bytes in a string as in a Buffer.
  const secret = Buffer.alloc(40);
  for (let i = 0; i < secret.length; i++) secret[i] = 0x21 + ((i * 59 + 11) % 94);
  const big = Buffer.alloc(MIB + 7);
  for (let at = 0; at < big.length; at += secret.length) secret.copy(big, at);
  const text = `${'\u00e9'.repeat(20000)}${secret.toString('latin1')}`;
  const shapes = {
    'two short Buffers': [() => [secret, secret], Buffer.concat([secret, secret])],
    'a Readable of 1 MiB chunks': [() => Readable.from(Array(40).fill(big)), Buffer.concat(Array(40).fill(big))],
    'an array of long strings': [() => Array(400).fill(text), Array(400).fill(text).join('')],
  };
  const real = Buffer.allocUnsafeSlow;
  const result = {};
  for (const [what, [make, all]] of Object.entries(shapes)) {
    const made = [];
    Buffer.allocUnsafeSlow = function (size) {
      const buf = real.call(this, size);
      made.push(buf);
      return buf;
    };
    try {
      const right = (await hmacStream('sha256', 'k', make())) === hmac('sha256', 'k', all);
      result[what] = { right, made: made.length, holding: made.filter((buf) => buf.indexOf(secret) !== -1).length };
    } finally {
      Buffer.allocUnsafeSlow = real;
    }
  }
  return result;
}

const main = ([which]) => (which === 'wiped' ? wiped() : kept());

function defineTests() {
  describe('hashStream batches', function () {
    this.timeout(60000);

    it('a stream after another allocates no batch of its own', async function () {
      const { hashStream } = require('..');
      const real = Buffer.allocUnsafeSlow;
      let allocated = 0;
      Buffer.allocUnsafeSlow = function (size) {
        if (size >= 64 * 1024) allocated++;
        return real.call(this, size);
      };
      // A full collection between the two may drop the kept batches, as it
      // may: one run of three without one is enough.
      const runs = [];
      try {
        for (let i = 0; i < 3 && (runs.length === 0 || runs[runs.length - 1] !== 0); i++) {
          await hashStream('sha256', chunks());
          allocated = 0;
          await hashStream('sha256', chunks());
          runs.push(allocated);
        }
      } finally {
        Buffer.allocUnsafeSlow = real;
      }
      assert.strictEqual(runs[runs.length - 1], 0, `batches allocated by the second stream, per try: ${runs}`);
    });

    // Kept strongly, the batches would be 13.9 MB (three of each size). The
    // bound allows one 4 MiB batch more: Bun's collector, which scans the
    // stack conservatively, keeps one alive even when none is kept at all.
    it('the batches kept hold no memory after a full collection (child process)', function () {
      const { grown } = childResult(__filename, ['kept']);
      assert.ok(grown < 5 * MIB, `array buffers grew by ${grown} bytes after a ${TOTAL}-byte stream and a full collection`);
    });

    it('every copy of an HMAC message is wiped once hashed (child process)', function () {
      for (const [what, { right, made, holding }] of Object.entries(childResult(__filename, ['wiped']))) {
        assert.ok(right, `${what}: wrong MAC`);
        assert.ok(made > 0, `${what}: nothing made`);
        assert.strictEqual(holding, 0, `${what}: ${holding} of ${made} copies still hold the message`);
      }
    });
  });
}

childEntry(module, main, defineTests);
