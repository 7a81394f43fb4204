'use strict';
// @native-only: calls the native binding directly
// The native binding called directly, as no user can through the shim: its
// own rule is that anything at all throws a coded error instead of crashing.
// Each case runs in a child process (a regression would crash the runner).
// The child also runs the fuzzer (random arguments to every function),
// whose test is test/long/binding-fuzz.test.js (npm run test:long, for its
// time). The fuzzer is seeded: FAST_HASH_FUZZ_SEED=<n> replays a run, and
// FAST_HASH_FUZZ_CALLS sets its length. `npm run test:sanitize` runs both
// files against the ASan build; under valgrind by hand:
//   valgrind node test/binding.test.js fuzz
const assert = require('assert');
const path = require('path');
const { childOutput, childEntry } = require('./child');

const NATIVE = path.join(__dirname, '..', 'lib', 'binding', 'native.js');

// ---- the child side --------------------------------------------------------

// Values of every type, lengths near the limits C computes with.
function valuePool(b) {
  const sha = b.resolve('sha256').id;
  const shake = b.resolve('shake128').id;
  const key = b.hmacKeyNew(sha, 'k');
  const dead = b.hmacKeyNew(sha, 'k');
  b.hmacKeyDestroy(dead);
  const detached = new Uint8Array(16);
  structuredClone(detached.buffer, { transfer: [detached.buffer] });
  return [
    undefined, null, true, 0, -0, -1, 1.5, NaN, Infinity, 2 ** 31, 2 ** 32 - 1, 2 ** 32,
    2 ** 40, 2 ** 40 + 1, 2 ** 53, 2 ** 62, 2 ** 62 + 1024, 2 ** 64, -(2 ** 63), Number.MAX_VALUE,
    18446744073709551615n, 'x', '', 'a'.repeat(2000), '\ud800'.repeat(1024), 'sha256',
    Symbol('s'), {}, [], () => 1, new Proxy({}, {}), Buffer.alloc(0), Buffer.alloc(31),
    Buffer.alloc(32), Buffer.alloc(4096), new Uint16Array(3), new Float64Array(2),
    new DataView(new ArrayBuffer(8)), new ArrayBuffer(8), new SharedArrayBuffer(8), detached,
    sha, shake, 1, 3, 4, 77, 254, 255, 256, 65535,
    key, dead, '/nonexistent', '/dev/null',
  ];
}

// Argument lists: 0 to 7 values from the pool, chosen by a seeded PRNG.
function* calls(b, seed, count) {
  const pool = valuePool(b);
  const names = Object.keys(b).filter((n) => typeof b[n] === 'function' &&
    !n.startsWith('bench') && n !== 'forceEvp');
  let x = seed >>> 0 || 1;
  const next = (n) => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x % n;
  };
  for (let i = 0; i < count; i++) {
    const args = Array.from({ length: next(8) }, () => pool[next(pool.length)]);
    yield [names[next(names.length)], args];
  }
}

function describeArgs(args) {
  return args.map((v) => {
    try {
      if (typeof v === 'string') return JSON.stringify(v.slice(0, 12));
      if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${v.byteLength})`;
      return String(v).slice(0, 20);
    } catch {
      return typeof v;
    }
  }).join(', ');
}

// Every call either returns or throws an Error with a code; a promise the
// same when it settles. Prints the failures, and the call before a crash.
async function fuzz(seed, count) {
  const b = require(NATIVE);
  const failures = [];
  const pending = [];
  for (const [name, args] of calls(b, seed, count)) {
    process.stdout.write('');
    const label = `${name}(${describeArgs(args)})`;
    try {
      const r = b[name](...args);
      if (r instanceof Promise) {
        pending.push(r.catch((err) => {
          if (!(err instanceof Error) || !err.code) failures.push(`${label} rejected uncoded: ${err}`);
        }));
      }
    } catch (err) {
      if (!(err instanceof Error) || !err.code) failures.push(`${label} threw uncoded: ${err}`);
    }
  }
  await Promise.all(pending);
  console.log(JSON.stringify({ failures: failures.slice(0, 20), count: failures.length }));
}

// ---- the mocha side --------------------------------------------------------

// The child's stdout (the case prints its codes).
const run = (args) => childOutput(__filename, args, { flags: [], timeout: 300000 });

function defineTests() {
  const { describeNative } = require('./common');
  describeNative('the native binding, called directly', function () {
    this.timeout(600000);

    it('hashMany: a length whose product with the count wraps is refused (was a heap overflow)', function () {
      const out = run(['case', 'many-overflow']);
      assert.strictEqual(out.trim(), 'ERR_OUT_OF_RANGE ERR_OUT_OF_RANGE ERR_OUT_OF_RANGE');
    });

    // benchmark/ceiling/bench.c (the benchmarks' ceilings) is compiled into
    // benchmark/ceiling's addon only. The names are looked for in the
    // binary's bytes too: an unstripped build (build/Release) names
    // bench.c's functions in its symbol table even where module.c leaves
    // them out of the exports.
    it('the production addon exports no bench functions', function () {
      const fs = require('fs');
      const file = require('node-gyp-build').path(path.join(__dirname, '..'));
      const exported = [...Object.keys(require(file)), ...Object.keys(require(NATIVE))];
      assert.deepStrictEqual(exported.filter((n) => /^bench/i.test(n)), [], file);
      const named = fs.readFileSync(file, 'latin1').match(/bench(Ceiling|Call|Hmac)\w*|fh_bench_\w+|\bbench\.c\b/g);
      assert.deepStrictEqual(named, null, file);
    });

    it('hmacKeyDigest/Verify/Destroy on undefined, null and primitives: coded errors', function () {
      assert.strictEqual(run(['case', 'key-not-object']).trim(), 'ERR_INVALID_ARG_TYPE x 15');
    });

    // A second copy of the addon in the process (another node_modules):
    // each refuses the other's keys, also right after one of its own was
    // used (the key last proved ours skips the tag check).
    it("HmacKeys of another copy of the addon are refused, before and after one of this copy's is used", function () {
      assert.strictEqual(run(['case', 'key-from-another-copy']).trim(), 'ERR_INVALID_ARG_TYPE x 16');
    });

  });
}

// Runs each call; prints "ERR_INVALID_ARG_TYPE x N" when all N threw that
// code, else every outcome.
function expectArgTypeErrors(calls) {
  const codes = calls.map((call) => {
    try {
      call();
      return 'returned';
    } catch (err) {
      return err.code;
    }
  });
  const same = codes.every((c) => c === 'ERR_INVALID_ARG_TYPE');
  console.log(same ? `ERR_INVALID_ARG_TYPE x ${codes.length}` : codes.join(' '));
}

const CASES = {
  'many-overflow'() {
    const b = require(NATIVE);
    const shake = b.resolve('shake128').id;
    const codes = [2 ** 62 + 1024, 2 ** 64 / 4 + 1, 2 ** 40 + 1].map((len) => {
      try {
        b.hashMany(shake, b.encodings.buffer, len, Buffer.alloc(4096), 'a', 'b', 'c', 'd');
        return 'returned';
      } catch (err) {
        return err.code;
      }
    });
    console.log(codes.join(' '));
  },
  'key-not-object'() {
    const b = require(NATIVE);
    expectArgTypeErrors([undefined, null, 1, 'x', Symbol('s')].flatMap((v) => [
      () => b.hmacKeyDigest(v, 0, 'x'), () => b.hmacKeyVerify(v, 0, 'x', 'y'), () => b.hmacKeyDestroy(v)]));
  },
  'key-from-another-copy'() {
    const fs = require('fs');
    const os = require('os');
    const a = require(NATIVE);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-copy-')), 'fast_hash.node');
    fs.copyFileSync(require('node-gyp-build').path(path.join(__dirname, '..')), file);
    const m = { exports: {} };
    process.dlopen(m, file);
    const b = m.exports;
    const keyOf = (x) => x.hmacKeyNew(x.resolve('sha256').id, Buffer.from('k'));
    const calls = [];
    for (const [self, other] of [[a, b], [b, a]]) {
      const mine = keyOf(self);
      const theirs = keyOf(other);
      for (const useMineFirst of [false, true]) {
        for (const call of [() => self.hmacKeyDigest(theirs, 0, 'x'), () => self.hmacKeyVerify(theirs, 0, 'x', 'y'),
          () => self.hmacKeyHasher(theirs), () => self.hmacKeyDestroy(theirs)]) {
          calls.push(useMineFirst ? () => { self.hmacKeyDigest(mine, 0, 'x'); call(); } : call);
        }
      }
    }
    expectArgTypeErrors(calls);
  },
};

childEntry(module, ([mode, a, b]) => (mode === 'case' ? CASES[a]() : fuzz(Number(a) || 1, Number(b) || 20000)), defineTests);
