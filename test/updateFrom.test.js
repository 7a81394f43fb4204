'use strict';
// hasher.updateFrom(source[, options]): everything a source yields fed into
// the hasher, which is left unfinished; checked against node:crypto fed the
// same parts. Pending calls, rejections and the abort signal as the
// contract (docs: API.md, hasher.updateFrom) says.
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { Readable } = require('stream');
const { setTimeout: sleep } = require('timers/promises');
const { createHasher, createHmacKey } = require('..');

const BIG = Buffer.alloc(3 << 20, 0x5a); // past a Feed's batches: hashed off the event loop
const PARTS = [Buffer.from('first '), 'second ', new Uint16Array([1, 2, 3]), BIG, new ArrayBuffer(9), 'last'];
const bytesOf = (c) => (typeof c === 'string' ? Buffer.from(c) : ArrayBuffer.isView(c) ?
  Buffer.from(c.buffer, c.byteOffset, c.byteLength) : Buffer.from(c));
const ALL = Buffer.concat(PARTS.map(bytesOf));

// [kind, make() -> a source yielding PARTS' bytes (or ALL)]
const SOURCES = [
  ['an array', () => PARTS],
  ['a Readable.from()', () => Readable.from(PARTS.map(bytesOf))],
  ['a WHATWG ReadableStream', () => new ReadableStream({
    start(c) { for (const p of PARTS) c.enqueue(bytesOf(p)); c.close(); },
  })],
  ['a Blob', () => new Blob([ALL])],
  ['an async generator', () => (async function* () { for (const p of PARTS) { await sleep(1); yield p; } })()],
];

// The plain and the HMAC hasher, with node:crypto's twin.
const HASHERS = [
  ['sha256', () => [createHasher('sha256'), crypto.createHash('sha256')]],
  ['shake256 (77 bytes)', () => [createHasher('shake256', { outputLength: 77 }),
    crypto.createHash('shake256', { outputLength: 77 })]],
  ['HMAC sha512', () => [createHmacKey('sha512', 'key').createHasher(), crypto.createHmac('sha512', 'key')]],
];

describe('hasher.updateFrom()', () => {
  let dir;
  before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-updateFrom-')); });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const [name, make] of HASHERS) {
    for (const [kind, source] of SOURCES) {
      it(`${name} from ${kind}: resolves with the hasher, unfinished, between other parts`, async () => {
        const [h, c] = make();
        const got = await h.update('name:').updateFrom(source());
        assert.strictEqual(got, h);
        got.update(':tail');
        assert.deepStrictEqual(h.digest(), c.update('name:').update(ALL).update(':tail').digest());
      });
    }
  }

  it('from a file stream, then from another: in order, and the hasher still usable', async () => {
    const file = path.join(dir, 'f.bin');
    fs.writeFileSync(file, BIG);
    const h = createHasher('sha1');
    await h.updateFrom(fs.createReadStream(file));
    await h.updateFrom([Buffer.from('and more')]);
    const copy = h.copy();
    assert.strictEqual(h.digest('hex'), crypto.createHash('sha1').update(BIG).update('and more').digest('hex'));
    assert.strictEqual(copy.digest('hex'), crypto.createHash('sha1').update(BIG).update('and more').digest('hex'));
  });

  it('resolves only once the last chunk, yielded late, is hashed', async () => {
    const h = createHasher('sha256');
    let lastGiven = false;
    const source = (async function* () {
      yield BIG;
      await sleep(50);
      lastGiven = true;
      yield 'late';
    })();
    await h.updateFrom(source);
    assert.ok(lastGiven);
    assert.strictEqual(h.digest('hex'), crypto.createHash('sha256').update(BIG).update('late').digest('hex'));
  });

  it('hashes a chunk whose memory the source reuses for the next', async () => {
    const buf = Buffer.alloc(100000);
    const source = (function* () { for (let i = 0; i < 40; i++) yield buf.fill(i); })();
    const c = crypto.createHash('sha256');
    for (let i = 0; i < 40; i++) c.update(Buffer.alloc(100000, i));
    assert.strictEqual((await createHasher('sha256').updateFrom(source)).digest('hex'), c.digest('hex'));
  });

  it('while pending, every other method throws ERR_INVALID_STATE; after, they work', async () => {
    const h = createHasher('sha256').update('a');
    const pending = h.updateFrom([BIG]);
    const calls = {
      update: () => h.update('x'), digest: () => h.digest(), copy: () => h.copy(),
      digestInto: () => h.digestInto(Buffer.alloc(32)), passThrough: () => h.passThrough(),
      updateFrom: () => h.updateFrom(['x']),
    };
    for (const [name, call] of Object.entries(calls)) {
      assert.throws(call, (err) => err instanceof Error && err.code === 'ERR_INVALID_STATE', name);
    }
    await pending;
    assert.strictEqual(h.update('b').digest('hex'), crypto.createHash('sha256').update('a').update(BIG).update('b')
      .digest('hex'));
  });

  // [what, source(), options(), error check]: rejections that finish and wipe the hasher.
  const REJECTIONS = [
    ['the source\'s error', () => (async function* () { yield BIG; throw Object.assign(new Error('boom'), { code: 'EBOOM' }); })(),
      () => undefined, { code: 'EBOOM', message: 'boom' }],
    ['a bad chunk', () => [BIG, 'ok', 42], () => undefined, { code: 'ERR_INVALID_ARG_TYPE', name: 'TypeError' }],
    ['an abort while reading', () => Readable.from((async function* () { yield BIG; await sleep(1000); yield 'x'; })()),
      () => ({ signal: AbortSignal.timeout(30) }), { code: 'ABORT_ERR', name: 'AbortError' }],
    ['a signal aborted before', () => [BIG], () => ({ signal: AbortSignal.abort() }),
      { code: 'ABORT_ERR', name: 'AbortError' }],
  ];
  for (const [what, source, options, check] of REJECTIONS) {
    for (const [name, make] of HASHERS) {
      it(`${name}: ${what} rejects, and the hasher is finished (ERR_CRYPTO_HASH_FINALIZED)`, async () => {
        const [h] = make();
        h.update(Buffer.alloc(10, 1));
        await assert.rejects(h.updateFrom(source(), options()), check);
        for (const call of [() => h.update('x'), () => h.digest(), () => h.copy(), () => h.updateFrom(['x'])]) {
          assert.throws(call, { code: 'ERR_CRYPTO_HASH_FINALIZED' });
        }
      });
    }
  }

  // [what, args]: argument errors reject (never throw) and leave the hasher as it was.
  const ARGUMENTS = [
    ['a number source', [42]], ['a string source', ['abc']], ['a Buffer source', [Buffer.from('a')]],
    ['null', [null]], ['options that are a string', [['a'], 'hex']],
    ['a signal that is not one', [['a'], { signal: true }]],
  ];
  for (const [what, args] of ARGUMENTS) {
    it(`${what}: rejects with ERR_INVALID_ARG_TYPE, the hasher untouched`, async () => {
      const h = createHasher('md5').update('kept');
      const result = h.updateFrom(...args);
      assert.ok(result instanceof Promise);
      await assert.rejects(result, { code: 'ERR_INVALID_ARG_TYPE', name: 'TypeError' });
      assert.strictEqual(h.digest('hex'), crypto.createHash('md5').update('kept').digest('hex'));
    });
  }

  it('on a finished hasher throws ERR_CRYPTO_HASH_FINALIZED; taken off it, ERR_INVALID_THIS', () => {
    const h = createHasher('sha256');
    h.digest();
    assert.throws(() => h.updateFrom(['a']), { code: 'ERR_CRYPTO_HASH_FINALIZED' });
    assert.throws(() => h.updateFrom.call({}, ['a']), { code: 'ERR_INVALID_THIS' });
  });
});
