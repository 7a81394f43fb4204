'use strict';
// Native allocations per call: how many times malloc, calloc, realloc (and
// the aligned allocators) run for one call of each case, on the main thread.
//
// Usage: node benchmark/alloc/run.js [--calls N]        (npm run bench:alloc)
// (--child K: internal, one child per case, started by the parent)
//
// counter.c is compiled into a temporary directory and preloaded
// (LD_PRELOAD) into one child `node` per case, so cases do not share JIT or
// allocator state. The shim keeps its counters in a file mapped MAP_SHARED;
// the child reads that file right before and after a window of N calls.
// A window of 0 calls (same code, same reads) is the baseline that removes
// what the reading itself allocates. Each figure is
// (median of 5 N-call windows - median of 5 empty windows) / N.
// Linux only (glibc's __libc_malloc and LD_PRELOAD). The cases are the
// native addon's calls: where fast-hash runs its js implementation
// (FAST_HASH_IMPLEMENTATION=js, or no addon), nothing is counted.

const { spawnSync } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { parseCommandLine } = require('../../scripts/parse-args');

const WINDOWS = 5;
const USAGE = 'usage: node benchmark/alloc/run.js [--calls N]';

// ---- cases --------------------------------------------------------------------
// Each returns the call to count and the value it must produce (checked once,
// so a case that silently does something else cannot report a nice number).
function makeCases() {
  const fh = require('../..');
  const buf = Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 31 + 7) & 255));
  const str = 'abcdefghijklmnopqrstuvwxyz'.repeat(3).slice(0, 64);
  const key = Buffer.alloc(32, 7);
  const hk = fh.createHmacKey('sha256', key);
  const hex = (alg, d) => crypto.createHash(alg).update(d).digest('hex');
  const mac = crypto.createHmac('sha256', key).update(buf).digest('hex');
  const big = Buffer.alloc(300, 5);
  const longLived = fh.createHasher('sha256');
  const copied = fh.createHasher('sha256').update(big);
  const cases = [
    ["hash('sha256', 64B Buffer) -> hex", () => fh.hash('sha256', buf), hex('sha256', buf)],
    ["hash('sha256', 64-char string) -> hex", () => fh.hash('sha256', str), hex('sha256', str)],
    ["hash('sha256', 64B Buffer, 'buffer')", () => fh.hash('sha256', buf, 'buffer'),
      crypto.createHash('sha256').update(buf).digest()],
    ["hmac('sha256', key, 64B Buffer) -> hex", () => fh.hmac('sha256', key, buf), mac],
    ['HmacKey#digest(64B Buffer) -> hex', () => hk.digest(buf), mac],
    ["hash('sha3-256', 64B Buffer) -> hex (provider)", () => fh.hash('sha3-256', buf), hex('sha3-256', buf)],
    // Hashers: a chain whose part fits the shim's stage (one one-shot
    // call), one with a native state (a slot of the addon's store), a
    // long-lived hasher's update and copy, streaming HMAC, and an EVP digest
    // (its hasher's context is allocated, as EVP does).
    ["createHasher('sha256').update(64B).digest('hex')",
      () => fh.createHasher('sha256').update(buf).digest('hex'), hex('sha256', buf)],
    ["createHasher('sha256').update(300B).digest('hex')",
      () => fh.createHasher('sha256').update(big).digest('hex'), hex('sha256', big)],
    ["Hasher#update(64B) (long-lived sha256)", () => longLived.update(buf), null],
    ["Hasher#update(300B) (long-lived sha256)", () => longLived.update(big), null],
    ["Hasher#copy().digest('hex') (sha256, native)", () => copied.copy().digest('hex'), hex('sha256', big)],
    ["hmacKey.createHasher().update(64B).digest('hex')", () => hk.createHasher().update(buf).digest('hex'), mac],
    ["createHasher('sha3-256').update(300B).digest('hex')",
      () => fh.createHasher('sha3-256').update(big).digest('hex'), hex('sha3-256', big)],
    typeof crypto.hash === 'function' &&
      ["crypto.hash('sha256', 64B Buffer)", () => crypto.hash('sha256', buf), hex('sha256', buf)],
    ["createHash('sha256').update().digest('hex')",
      () => crypto.createHash('sha256').update(buf).digest('hex'), hex('sha256', buf)],
    // Controls: the method must see 0 for nothing and > 0 for a known malloc
    // (an ArrayBuffer's backing store and its bookkeeping are malloc'ed).
    ['control: empty function', () => 0, 0],
    ['control: new ArrayBuffer(1024)', () => new ArrayBuffer(1024), null],
  ];
  return cases.filter(Boolean);
}

// ---- child: one case ----------------------------------------------------------
function child(index, calls) {
  const bench = require('../common');
  const [name, fn, expected] = makeCases()[index];
  if (expected !== null) bench.checkResult('alloc', name, fn(), expected);

  const fd = fs.openSync(process.env.ALLOC_COUNTER_FILE, 'r');
  const raw = Buffer.alloc(16);
  const read = () => {
    fs.readSync(fd, raw, 0, 16, 0);
    return [Number(raw.readBigUInt64LE(0)), Number(raw.readBigUInt64LE(8))]; // [all, main]
  };
  const startup = read()[1]; // node's start-up alone mallocs thousands of times
  let sink = 0;
  const loop = (n) => { for (let i = 0; i < n; i++) sink ^= bench.tag(fn()); };
  const window = (n) => {
    const a = read();
    loop(n);
    const b = read();
    return [b[0] - a[0], b[1] - a[1]];
  };
  // Warm-up: let the loop and the call be optimised before anything is
  // counted, so compiler work on the main thread stays out of the windows.
  for (let i = 0; i < 3; i++) { window(calls); window(0); }
  const median = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1];
  const runs = (n) => Array.from({ length: WINDOWS }, () => window(n));
  const empty = runs(0), full = runs(calls);
  const perCall = (k) => (median(full.map((w) => w[k])) - median(empty.map((w) => w[k]))) / calls;
  process.stdout.write(JSON.stringify({ name, all: perCall(0), main: perCall(1), startup, sink }));
}

// ---- parent -------------------------------------------------------------------
// Counts every case and prints the table with `print`. Returns { code, rows }
// (rows: name, main, all); `npm run bench` calls it too, so its run prints
// the counts, and test/allocations.test.js quietly.
function count(calls, print = console.log) {
  const rows = [];
  if (process.platform !== 'linux') {
    print(`bench:alloc: skipped, Linux only (needs glibc and LD_PRELOAD; this is ${process.platform})`);
    return { code: 0, rows };
  }
  const { implementation } = require('../..');
  if (implementation !== 'native') {
    print(`bench:alloc: skipped, fast-hash runs its ${implementation} implementation here` +
      `${process.env.FAST_HASH_IMPLEMENTATION ? ` (FAST_HASH_IMPLEMENTATION=${process.env.FAST_HASH_IMPLEMENTATION})` : ''};` +
      ' the counts are of the native addon\'s calls (FAST_HASH_IMPLEMENTATION=native to count them)');
    return { code: 0, rows };
  }

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-alloc-'));
  try {
    const so = path.join(dir, 'counter.so');
    const cc = spawnSync('cc', ['-O2', '-shared', '-fPIC', '-o', so, path.join(__dirname, 'counter.c')],
      { stdio: 'inherit' });
    if (cc.status !== 0) { console.error('bench:alloc: could not compile counter.c'); return { code: 1, rows }; }

    const started = process.hrtime.bigint();
    print(`Native allocations per call (malloc, calloc, realloc, aligned_alloc, posix_memalign),\n` +
      `Node ${process.version}, ${calls} calls per window, median of ${WINDOWS} windows minus an empty window\n`);
    print('case'.padEnd(46) + 'main thread'.padStart(13) + 'all threads'.padStart(13));
    const count = makeCases().length;
    for (let k = 0; k < count; k++) {
      const file = path.join(dir, `counts-${k}`);
      const res = spawnSync(process.execPath, [__filename, '--child', String(k), '--calls', String(calls)], {
        env: { ...process.env, LD_PRELOAD: so, ALLOC_COUNTER_FILE: file },
        encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'],
      });
      if (res.status !== 0) {
        console.error(`bench:alloc: case ${k} failed (exit ${res.status})`);
        return { code: 1, rows };
      }
      const r = JSON.parse(res.stdout);
      // A shim that did not load leaves the counters at zero: say so rather
      // than print a table of flattering zeros.
      if (!(r.startup > 0)) {
        console.error('bench:alloc: the counter shim saw no allocations; was it preloaded?');
        return { code: 1, rows };
      }
      rows.push({ name: r.name, main: r.main, all: r.all });
      print(r.name.padEnd(46) + r.main.toFixed(2).padStart(13) + r.all.toFixed(2).padStart(13));
    }
    const secs = Number(process.hrtime.bigint() - started) / 1e9;
    print(`
main thread: allocations made by the thread that makes the calls (the figure
  that belongs to the call); all threads adds V8's compiler and GC helper
  threads, which run on their own schedule and are noise here.
Not counted: V8's own heap is not malloc. JS objects, strings and small
  typed arrays a call creates live on the V8 heap and do not show up here
  (their cost shows up as GC time in the speed benchmarks). A fraction
  below 1 is an allocation amortised over many calls (e.g. a new 8 KiB
  Buffer pool every 256 'buffer' outputs).

done in ${secs.toFixed(1)} s`);
    return { code: 0, rows };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// --child K runs case K in this process (the parent starts one per case).
function main(argv) {
  const parsed = parseCommandLine(argv, { calls: { type: 'string' }, child: { type: 'string' } }, USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  const calls = values.calls === undefined ? 100000 : Math.round(Number(values.calls));
  if (!(calls > 0)) {
    console.error(`--calls needs a positive number, got ${values.calls}\n${USAGE}`);
    return 2;
  }
  if (values.child !== undefined) {
    child(Number(values.child), calls);
    return 0;
  }
  return count(calls).code;
}

module.exports = { count };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
