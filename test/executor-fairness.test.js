'use strict';
// Fairness of the thread pool: short stream digests complete while as
// many endless stream digests as the pool has threads keep running.
// API.md: "Jobs are taken first in, first out across hashers, threads and
// workers, in bounded tasks, so a short job never waits behind long ones
// for more than a few tasks."
//
// The child starts N endless hashStream('sha3-512', source) (N: the pool's
// threads, FAST_HASH_THREADS where set, else os.availableParallelism();
// at most 16), each source an async generator yielding in-memory 1 MiB
// Buffers until a flag stops it. Once every endless stream is hashing, ten
// 256 KiB hashStream('sha256', [buf]) run one after the other; each must
// give the right digest while every endless stream is still pending, and
// each endless stream must have gone on (yielded more chunks) while the
// ten ran. Only then is the flag set, and the endless streams must end
// with their right digests.
//
// Nothing here measures speed. The endless streams never stop before the
// ten short ones have completed, so a pool that lets them hold its
// threads (a stream's next update hung after its last, on the same thread,
// for as long as its source keeps giving bytes) starves the short ones:
// the child then does not finish and is killed at CHILD_LIMIT_MS, which
// fails the test (the limit is hundreds of times what the short jobs need
// on a pool that takes jobs first in, first out in bounded tasks). Such a
// pool lets a short job in only when an endless stream's chain of updates
// happens to break (the event loop late with its next batch), so on a
// given run it may get all ten through in time; the second measure catches
// that run: while one short stream waits, no endless stream may read more
// than WAIT_BOUND_MIB of its source, a count of work done ahead of the
// short job, not of time.
//
// On the JavaScript implementation everything runs on the event loop; the
// same assertions hold (the short digests interleave with the endless
// ones).

const path = require('path');
const ROOT = path.join(__dirname, '..');
const MIB = 2 ** 20;
const SHORTS = 10;
const SHORT_BYTES = 256 * 1024;
const MAX_ENDLESS = 16;
const CHILD_LIMIT_MS = 90000;
// An endless stream counts as hashing once it has yielded this many
// chunks (past the first batches, which are small).
const WARM_CHUNKS = 12;
// While one short stream waits, no endless stream may read more than this
// many of its 1 MiB chunks: 32 of its 4 MiB updates (lib/stream/feed.js's
// BIG batch), where a pool that takes jobs first in, first out runs a few
// (the two each stream has queued, and those sent meanwhile). A count of
// work, not of time: it holds on a fast or a loaded machine alike.
const WAIT_BOUND_MIB = 128;
// Endless digests are checked against node:crypto when they hashed at
// most this much each (a pool that was fair ends them after little).
const CHECK_UP_TO = 1024 * MIB;

// How many threads the pool has: as the package sizes it.
function poolThreads() {
  const os = require('os');
  const set = Number(process.env.FAST_HASH_THREADS);
  const n = Number.isSafeInteger(set) && set > 0 ? set : os.availableParallelism();
  return Math.min(n, MAX_ENDLESS);
}

// ---- the child process ------------------------------------------------------

async function main() {
  const crypto = require('crypto');
  const f = require(ROOT);
  const n = poolThreads();
  const flag = { stop: false };
  const endless = [];
  for (let i = 0; i < n; i++) {
    const e = { chunks: 0, settled: false, digest: null, error: null, fill: 0x31 + i };
    let warm;
    e.warm = new Promise((resolve) => { warm = resolve; });
    const chunk = Buffer.alloc(MIB, e.fill);
    const source = async function* () {
      while (!flag.stop) {
        e.chunks++;
        if (e.chunks === WARM_CHUNKS) warm();
        yield chunk;
      }
    };
    e.promise = f.hashStream('sha3-512', source()).then(
      (d) => { e.digest = d; },
      (err) => { e.error = String(err && err.stack); },
    ).finally(() => { e.settled = true; warm(); });
    endless.push(e);
  }
  await Promise.all(endless.map((e) => e.warm));
  // Progress on stderr, which a killed child's failure shows.
  const say = (text) => require('fs').writeSync(2, `${text}\n`);
  say(`${n} endless streams hashing; the short ones start`);
  const before = endless.map((e) => e.chunks);
  const shorts = [];
  for (let k = 0; k < SHORTS; k++) {
    const buf = crypto.randomBytes(SHORT_BYTES);
    const started = Date.now();
    const from = endless.map((e) => e.chunks);
    const got = await f.hashStream('sha256', [buf]);
    shorts.push({
      ok: got === crypto.createHash('sha256').update(buf).digest('hex'),
      ms: Date.now() - started, // reported, never asserted
      endlessPending: endless.filter((e) => !e.settled).length,
      // MiB each endless stream read while this short one waited: the
      // most of them
      endlessMiB: Math.max(...endless.map((e, i) => e.chunks - from[i])),
    });
    say(`short ${k + 1} of ${SHORTS} done (${shorts[k].ms} ms; endless MiB meanwhile: ${shorts[k].endlessMiB})`);
  }
  const after = endless.map((e) => e.chunks);
  flag.stop = true;
  await Promise.all(endless.map((e) => e.promise));
  const results = endless.map((e, i) => {
    let right = null;
    if (e.digest !== null && e.chunks * MIB <= CHECK_UP_TO) {
      const h = crypto.createHash('sha3-512');
      const chunk = Buffer.alloc(MIB, e.fill);
      for (let c = 0; c < e.chunks; c++) h.update(chunk);
      right = h.digest('hex') === e.digest;
    }
    return { before: before[i], after: after[i], chunks: e.chunks, error: e.error, digest: e.digest, right };
  });
  return { implementation: f.implementation, n, shorts, endless: results };
}

// ---- the mocha side -----------------------------------------------------------

function defineTests() {
  const assert = require('assert');
  const { childResult } = require('./child');

  describe('executor fairness: short stream digests beside endless ones', function () {
    it(`${SHORTS} short hashStream()s, one after the other, each complete while ${poolThreads()} endless ` +
      'sha3-512 streams (one per pool thread) are still running (child process)', function () {
      this.timeout(CHILD_LIMIT_MS + 30000);
      const started = Date.now();
      const r = childResult(__filename, [], { timeout: CHILD_LIMIT_MS, flags: [] });
      const ms = Date.now() - started;
      console.log(`      [${r.implementation}] ${ms} ms; short ones (ms, not asserted): ` +
        `${r.shorts.map((s) => s.ms).join(' ')}; endless MiB read during each: ` +
        `${r.shorts.map((s) => s.endlessMiB).join(' ')}; endless MiB in all: ${r.endless.map((e) => e.chunks).join(' ')}`);
      assert.strictEqual(r.implementation, require('..').implementation); // what this runtime picks
      assert.strictEqual(r.n, poolThreads());
      assert.strictEqual(r.shorts.length, SHORTS);
      for (const [k, s] of r.shorts.entries()) {
        assert.ok(s.ok, `short stream ${k}: wrong digest`);
        assert.strictEqual(s.endlessPending, r.n, `short stream ${k} completed after an endless one had ended`);
        assert.ok(s.endlessMiB <= WAIT_BOUND_MIB, `short stream ${k} waited while an endless stream read ` +
          `${s.endlessMiB} MiB (${Math.ceil(s.endlessMiB / 4)} of its 4 MiB updates); at most ${WAIT_BOUND_MIB} allowed`);
      }
      for (const [i, e] of r.endless.entries()) {
        assert.strictEqual(e.error, null, `endless stream ${i} failed: ${e.error}`);
        assert.match(e.digest, /^[0-9a-f]{128}$/, `endless stream ${i}: digest`);
        assert.notStrictEqual(e.right, false, `endless stream ${i}: wrong digest of ${e.chunks} MiB`);
        assert.ok(e.after > e.before, `endless stream ${i} made no progress while the short ones ran ` +
          `(${e.before} chunks before, ${e.after} after)`);
      }
    });
  });
}

require('./child').childEntry(module, main, defineTests);
