'use strict';
// hashStream, and hasher.passThrough(), on a source that something else
// reads too: another 'data' listener that changes or transfers each chunk,
// or a pipe that resumes the source while the digest waits. The digest must
// still cover exactly the bytes the source gave, in the order it gave them,
// and nothing may read memory another consumer freed (those cases run in a
// child process, where a crash fails one test).
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { Readable, Writable, PassThrough } = require('stream');
const { pipeline } = require('stream/promises');
const { hashStream, createHasher } = require('..');
const { childResult } = require('./child');
const { bytes } = require('./common');

// A file of n bytes (seeded), and its sha256.
function fileOf(n, seed) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-shared-'));
  const file = path.join(dir, 'data');
  const data = bytes(n, seed);
  fs.writeFileSync(file, data);
  return { file, want: crypto.createHash('sha256').update(data).digest('hex'), dir };
}

// In the child: a file stream's digest while another listener transfers
// (or overwrites) each chunk as it comes. Freed memory is unmapped at once
// (mmap threshold), so a read of it in place crashes rather than passes.
async function main([how, seed]) {
  const { file, want, dir } = fileOf(32 << 20, Number(seed));
  try {
    const rs = fs.createReadStream(file);
    const digest = hashStream('sha256', rs);
    rs.on('data', (chunk) => {
      if (how === 'transfer') structuredClone(chunk.buffer, { transfer: [chunk.buffer] });
      else chunk.fill(0);
      global.gc();
    });
    return { same: (await digest) === want };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// `count` chunks of 64 KiB + (i % 7) bytes (seeded), and their digest.
function chunksOf(count, alg, seed) {
  const chunks = [];
  for (let i = 0; i < count; i++) chunks.push(bytes(65536 + (i % 7), seed + i));
  return { chunks, want: crypto.createHash(alg).update(Buffer.concat(chunks)).digest('hex') };
}

// A Writable that takes each chunk a little later, so a pipe keeps pausing
// and resuming its source.
function slowSink() {
  return new Writable({
    highWaterMark: 1,
    write(chunk, encoding, callback) {
      setImmediate(callback);
    },
  });
}

function defineTests() {
  describe('hashStream() on a source another consumer reads too', function () {
    this.timeout(120000);
    const seed = Number(process.env.FAST_HASH_SEED ?? 0x5eed);
    const env = { GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=131072' };

    it("a file stream whose chunks another listener transfers away: the right digest, no crash (child process)",
      function () {
        for (let round = 0; round < 3; round++) {
          assert.deepStrictEqual(childResult(__filename, ['transfer', seed + round], { env }), { same: true },
            `seed ${seed + round}`);
        }
      });

    it('a file stream whose chunks another listener overwrites: the right digest (child process)', function () {
      assert.deepStrictEqual(childResult(__filename, ['overwrite', seed], { env }), { same: true }, `seed ${seed}`);
    });

    it('a Readable also piped to a slow Writable: every chunk in order', async function () {
      const { chunks, want } = chunksOf(800, 'sha3-512', seed);
      const source = Readable.from(chunks);
      source.pipe(slowSink());
      assert.strictEqual(await hashStream('sha3-512', source), want, `seed ${seed}`);
    });

    it('a PassThrough also piped to a slow Writable, written as fast as it takes: every chunk in order',
      async function () {
        const { chunks, want } = chunksOf(300, 'sha256', seed + 1);
        const source = new PassThrough();
        source.pipe(slowSink());
        const digest = hashStream('sha256', source);
        for (const chunk of chunks) {
          if (!source.write(chunk)) await new Promise((resolve) => source.once('drain', resolve));
        }
        source.end();
        assert.strictEqual(await digest, want, `seed ${seed + 1}`);
      });
  });

  describe('hasher.passThrough() on a source another consumer reads too', function () {
    this.timeout(60000);
    const seed = Number(process.env.FAST_HASH_SEED ?? 0x5eed);

    it('a Readable piped to the hasher and to a slow Writable: every chunk in order', async function () {
      const { chunks, want } = chunksOf(300, 'sha256', seed + 2);
      const hasher = createHasher('sha256');
      const source = Readable.from(chunks);
      source.pipe(slowSink());
      await pipeline(source, hasher.passThrough(), slowSink());
      assert.strictEqual(hasher.digest('hex'), want, `seed ${seed + 2}`);
    });
  });
}

require('./child').childEntry(module, main, defineTests);
