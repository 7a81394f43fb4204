'use strict';
// The batches a stream digest copies its chunks into: a stream after
// another takes the first one's batches instead of allocating its own, and
// the batches kept that way hold no memory once a full collection has run
// (they are kept through WeakRefs).
const assert = require('assert');
const { Buffer } = require('buffer');
const { childResult, childEntry } = require('./child');

const MIB = 2 ** 20;
// Long enough for every batch size (64 KiB up to 4 MiB) and two of the
// largest.
const TOTAL = 10 * MIB;
const chunks = () => {
  const chunk = Buffer.alloc(MIB, 0x61);
  return Array.from({ length: TOTAL / MIB }, () => chunk);
};

// ---- the child: memory kept after a full collection ---------------------------
async function main() {
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
      const { grown } = childResult(__filename);
      assert.ok(grown < 5 * MIB, `array buffers grew by ${grown} bytes after a ${TOTAL}-byte stream and a full collection`);
    });
  });
}

childEntry(module, main, defineTests);
