'use strict';
// hashStream's memory stays flat however many chunks a source yields: an
// async iterator of millions of one-byte chunks (a socket, a generator
// that never ends) must not leave anything reachable per chunk. Measured
// in a child process with --expose-gc: the heap after a full collection,
// once early in the stream and once near its end.
const assert = require('assert');
const crypto = require('crypto');
const { hashStream } = require('..');
const { childResult } = require('./child');

const CHUNKS = 2000000;
const EARLY = 200000;

// In the child: the heap growth (bytes) between chunk EARLY and chunk
// CHUNKS - 1 of a digest of one-byte chunks, with or without a signal.
async function main([withSignal]) {
  const one = Buffer.from([0x61]);
  let early = 0;
  let late = 0;
  const measure = () => {
    global.gc();
    return process.memoryUsage().heapUsed;
  };
  async function* source() {
    for (let i = 0; i < CHUNKS; i++) {
      if (i === EARLY) early = measure();
      if (i === CHUNKS - 1) late = measure();
      yield one;
    }
  }
  const options = withSignal === 'signal' ? { signal: new AbortController().signal } : undefined;
  const got = await hashStream('sha256', source(), options);
  const want = crypto.createHash('sha256').update(Buffer.alloc(CHUNKS, 0x61)).digest('hex');
  return { same: got === want, growth: late - early };
}

function defineTests() {
  describe('hashStream() memory across millions of chunks', function () {
    this.timeout(180000);
    // 1.8 million chunks in between: ten bytes a chunk would be 18 MB. The
    // heap after a collection scatters by a few MB on Bun, whatever the
    // stream; a promise kept per chunk costs hundreds of bytes.
    const LIMIT = 16 << 20;

    for (const how of ['no signal', 'signal']) {
      it(`an async generator of ${CHUNKS} one-byte chunks, ${how}: the heap stays flat (child process)`,
        function () {
          const { same, growth } = childResult(__filename, [how === 'signal' ? 'signal' : 'none']);
          assert.ok(same, 'wrong digest');
          assert.ok(growth < LIMIT, `the heap grew by ${growth} bytes over ${CHUNKS - EARLY} chunks`);
        });
    }
  });
}

require('./child').childEntry(module, main, defineTests);
