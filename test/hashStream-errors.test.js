'use strict';
// hashStream's failures: argument errors reject (never throw) before the
// source is read; a bad chunk rejects naming its index and stops reading; a
// source's error rejects with that very error; an abort rejects with an
// AbortError and stops reading. After every rejection the hashing state is
// freed (the native store's counters are back where they were) and the
// signal has no listener of ours left.
const assert = require('assert');
const { Readable } = require('stream');
const { getEventListeners } = require('events');
const { hashStream, implementation } = require('..');
const binding = require('../lib/binding');

const live = () => (implementation === 'native' ? binding.hasherStoreStats().live : 0);

// A source that records whether it was read.
function spy() {
  const seen = { read: false };
  const source = { [Symbol.iterator]: () => ({ next: () => { seen.read = true; return { done: true }; } }) };
  return { seen, source };
}

// An endless Node stream of 64 KiB chunks (its reads keep batches going to
// the thread pool).
const endless = () => new Readable({ read() { this.push(Buffer.alloc(65536, 1)); } });

// Asserts `promise` rejects with an instance of Class with `code`, and that
// the store holds no more hashers than `before`. Returns the error.
async function rejects(promise, Class, code, before) {
  assert.ok(promise instanceof Promise, 'returns a promise, does not throw');
  let caught;
  await promise.then(() => assert.fail('resolved'), (err) => { caught = err; });
  assert.ok(caught instanceof Class, `${caught && caught.name}: ${caught && caught.message}`);
  assert.strictEqual(caught.code, code, caught.message);
  assert.strictEqual(live(), before, 'a hashing state was left behind');
  return caught;
}

const ARGUMENTS = [
  ['an algorithm that is not a string', [5, 'SRC'], TypeError, 'ERR_INVALID_ARG_TYPE'],
  ['an unknown algorithm', ['sha257', 'SRC'], TypeError, 'ERR_CRYPTO_INVALID_DIGEST'],
  ['an output encoding that is not one', ['sha256', 'SRC', 'hax'], TypeError, 'ERR_INVALID_ARG_VALUE'],
  ['an output encoding of the wrong type', ['sha256', 'SRC', 5], TypeError, 'ERR_INVALID_ARG_TYPE'],
  ['an outputLength that is not a number', ['shake128', 'SRC', { outputLength: '5' }], TypeError, 'ERR_INVALID_ARG_TYPE'],
  ['a negative outputLength', ['shake128', 'SRC', { outputLength: -1 }], RangeError, 'ERR_OUT_OF_RANGE'],
  ['an outputLength on a digest that is not an XOF', ['sha256', 'SRC', { outputLength: 31 }], Error,
    'ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH'],
  ['a signal that is not an AbortSignal', ['sha256', 'SRC', { signal: {} }], TypeError, 'ERR_INVALID_ARG_TYPE'],
  ['a signal of null', ['sha256', 'SRC', { signal: null }], TypeError, 'ERR_INVALID_ARG_TYPE'],
  ['options whose getter throws: its error', ['sha256', 'SRC', {
    get signal() { throw Object.assign(new Error('getter'), { code: 'E_GETTER' }); },
  }], Error, 'E_GETTER'],
];

const NOT_SOURCES = [
  ['undefined', undefined], ['null', null], ['a number', 5], ['a string', 'abc'], ['a Buffer', Buffer.from('abc')],
  ['an ArrayBuffer', new ArrayBuffer(3)], ['a plain object', {}], ['a Symbol', Symbol('s')],
  ['a revoked Proxy', (() => { const p = Proxy.revocable({}, {}); p.revoke(); return p.proxy; })()],
];

describe('hashStream() failures', function () {
  this.timeout(30000);

  describe('argument errors reject before the source is read', function () {
    for (const [what, args, Class, code] of ARGUMENTS) {
      it(`${what}: ${code}`, async function () {
        const { seen, source } = spy();
        await rejects(hashStream(...args.map((a) => (a === 'SRC' ? source : a))), Class, code, live());
        assert.strictEqual(seen.read, false, 'the source was read');
      });
    }
    for (const [what, value] of NOT_SOURCES) {
      it(`a source that is ${what}: ERR_INVALID_ARG_TYPE`, async function () {
        await rejects(hashStream('sha256', value), TypeError, 'ERR_INVALID_ARG_TYPE', live());
      });
    }
  });

  describe('a bad chunk rejects, naming its index, and stops reading', function () {
    for (const bad of [42, null, {}, [1, 2], true]) {
      it(`${JSON.stringify(bad)} as chunk 2 of an async generator: its finally runs, nothing more is read`, async function () {
        const before = live();
        let pulled = 0;
        let closed = false;
        const source = (async function* () {
          try {
            for (;;) {
              pulled++;
              yield pulled === 3 ? bad : Buffer.alloc(1 << 20);
            }
          } finally {
            closed = true;
          }
        })();
        const err = await rejects(hashStream('sha256', source), TypeError, 'ERR_INVALID_ARG_TYPE', before);
        assert.match(err.message, /"chunks\[2\]"/);
        assert.strictEqual(pulled, 3);
        assert.strictEqual(closed, true);
      });
    }
    it('a Node stream in object mode is destroyed', async function () {
      const stream = Readable.from([Buffer.from('a'), 'b', 7, 'c']);
      const err = await rejects(hashStream('sha256', stream), TypeError, 'ERR_INVALID_ARG_TYPE', live());
      assert.match(err.message, /"chunks\[2\]"/);
      assert.strictEqual(stream.destroyed, true);
    });
    it('a ReadableStream is cancelled with the error', async function () {
      let reason;
      const stream = new ReadableStream({
        start(c) { c.enqueue('a'); c.enqueue(new Map()); },
        cancel(why) { reason = why; },
      });
      const err = await rejects(hashStream('sha256', stream), TypeError, 'ERR_INVALID_ARG_TYPE', live());
      assert.match(err.message, /"chunks\[1\]"/);
      assert.strictEqual(reason, err);
    });
  });

  describe("a source's error rejects with that error", function () {
    const failure = () => Object.assign(new Error('source failed'), { code: 'E_SOURCE' });
    const kinds = [
      ['an async generator that throws', (e) => (async function* () { yield Buffer.alloc(3 << 20); throw e; })()],
      ['a sync iterator that throws', (e) => (function* () { yield 'a'; throw e; })()],
      ['a Node stream destroyed with it', (e) => {
        const s = endless();
        setTimeout(() => s.destroy(e), 30);
        return s;
      }],
      ['a ReadableStream errored with it', (e) => new ReadableStream({
        pull(c) { c.enqueue(new Uint8Array(65536)); if (Math.random() < 0.05) c.error(e); },
      })],
      ['a Blob-like whose stream() throws', (e) => ({ stream() { throw e; }, arrayBuffer() {} })],
    ];
    for (const [what, make] of kinds) {
      it(what, async function () {
        const before = live();
        const e = failure();
        let caught;
        await hashStream('sha256', make(e)).catch((err) => { caught = err; });
        assert.strictEqual(caught, e);
        assert.strictEqual(live(), before, 'a hashing state was left behind');
      });
    }
    const MALFORMED = [
      ['whose [Symbol.iterator]() gives a number', { [Symbol.iterator]: () => 5 }],
      ['whose [Symbol.asyncIterator]() gives null', { [Symbol.asyncIterator]: () => null }],
      ['whose iterator has no next()', { [Symbol.iterator]: () => ({}) }],
      ['whose async iterator has a next that is not a function', { [Symbol.asyncIterator]: () => ({ next: 1 }) }],
      ['whose next() gives a number', { [Symbol.iterator]: () => ({ next: () => 5 }) }],
    ];
    for (const [what, source] of MALFORMED) {
      it(`an iterable ${what}: TypeError, ERR_INVALID_RETURN_VALUE`, async function () {
        await rejects(hashStream('sha256', source), TypeError, 'ERR_INVALID_RETURN_VALUE', live());
      });
    }
    it('a Node stream that closes before it ends: ERR_STREAM_PREMATURE_CLOSE', async function () {
      const s = endless();
      setTimeout(() => s.destroy(), 30);
      await rejects(hashStream('sha256', s), Error, 'ERR_STREAM_PREMATURE_CLOSE', live());
    });
  });

  describe('an abort rejects with an AbortError and stops reading', function () {
    const isAbort = (err, reason) => err.name === 'AbortError' && err.code === 'ABORT_ERR' && err.cause === reason;

    it('a signal aborted before the call: the Node stream is destroyed, nothing read', async function () {
      const reason = new Error('why');
      const stream = endless();
      let reads = 0;
      stream._read = function () { reads++; this.push(Buffer.alloc(10)); };
      const before = live();
      const err = await rejects(hashStream('sha256', stream, { signal: AbortSignal.abort(reason) }), Error,
        'ABORT_ERR', before);
      assert.ok(isAbort(err, reason));
      assert.strictEqual(stream.destroyed, true);
      assert.strictEqual(reads, 0);
    });

    it('a signal aborted before the call: a ReadableStream is cancelled with the error, nothing read',
      async function () {
        const reason = new Error('why');
        let pulls = 0;
        let cancelled;
        const stream = new ReadableStream({
          pull(c) { pulls++; c.enqueue(new Uint8Array(10)); },
          cancel(why) { cancelled = why; },
        }, { highWaterMark: 0 });
        const err = await rejects(hashStream('sha256', stream, { signal: AbortSignal.abort(reason) }), Error,
          'ABORT_ERR', live());
        assert.ok(isAbort(err, reason));
        assert.strictEqual(cancelled, err);
        assert.strictEqual(pulls, 0);
      });

    it('twenty digests sharing one signal: no MaxListenersExceededWarning, one listener', async function () {
      const warnings = [];
      const onWarning = (w) => warnings.push(w.name);
      process.on('warning', onWarning);
      try {
        const controller = new AbortController();
        const sources = Array.from({ length: 20 }, () => new Readable({ read() {} }));
        const digests = sources.map((s) => hashStream('sha256', s, { signal: controller.signal }));
        await new Promise((resolve) => setImmediate(resolve));
        assert.ok(getEventListeners(controller.signal, 'abort').length <= 1);
        controller.abort();
        for (const digest of digests) await rejects(digest, Error, 'ABORT_ERR', live());
        await new Promise((resolve) => setImmediate(resolve));
        assert.deepStrictEqual(warnings.filter((name) => name === 'MaxListenersExceededWarning'), []);
        assert.strictEqual(getEventListeners(controller.signal, 'abort').length, 0);
      } finally {
        process.off('warning', onWarning);
      }
    });

    const kinds = [
      ['an endless Node stream', () => endless(), (s) => assert.strictEqual(s.destroyed, true)],
      ['an endless ReadableStream', () => new ReadableStream({ pull(c) { c.enqueue(new Uint8Array(65536)); } })],
      ['an endless async generator', () => (async function* () { for (;;) yield Buffer.alloc(65536); })()],
      ['an async iterator whose next() never settles', () => ({
        [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => {}) }),
      })],
      ['a Node stream that never yields', () => new Readable({ read() {} }), (s) => assert.strictEqual(s.destroyed, true)],
    ];
    for (const [what, make, check] of kinds) {
      it(`mid-stream, ${what}`, async function () {
        const controller = new AbortController();
        const source = make();
        const before = live();
        setTimeout(() => controller.abort(), 50);
        const err = await rejects(hashStream('sha256', source, { signal: controller.signal }), Error, 'ABORT_ERR',
          before);
        assert.ok(isAbort(err, controller.signal.reason));
        if (check) check(source);
        assert.strictEqual(getEventListeners(controller.signal, 'abort').length, 0, 'a listener was left');
      });
    }

    it('a signal that never aborts has no listener left once the digest is done', async function () {
      const controller = new AbortController();
      await hashStream('sha256', [Buffer.alloc(100)], { signal: controller.signal });
      await hashStream('sha256', Readable.from(['a']), { signal: controller.signal });
      assert.strictEqual(getEventListeners(controller.signal, 'abort').length, 0);
    });
  });
});
