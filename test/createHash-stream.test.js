'use strict';
// createHash() and createHmac() used as streams, held against node:crypto's:
// each scenario runs once on a node:crypto object and once on ours, and
// what came out (data pushed, events, errors, digests) must be the same.
// Long piped chunks are hashed off the event loop, and calls made
// meanwhile see every chunk written before them.
const assert = require('assert');
const crypto = require('crypto');
const { Readable, PassThrough, Writable, Transform } = require('stream');
const { pipeline } = require('stream/promises');
const fastHash = require('..');
const binding = require('../lib/binding');
const { bytes } = require('./common');

const KINDS = {
  hash: (lib, alg = 'sha256') => lib.createHash(alg),
  hmac: (lib, alg = 'sha256') => lib.createHmac(alg, 'key'),
  xof: (lib) => lib.createHash('shake256', { outputLength: 64 }),
};

// What a stream gave: the chunks it pushed, as hex or text, and its events.
function record(stream) {
  const seen = { data: [], events: [] };
  stream.on('data', (d) => seen.data.push(Buffer.isBuffer(d) ? `buf:${d.toString('hex')}` : `str:${d}`));
  for (const name of ['end', 'finish', 'close']) stream.on(name, () => seen.events.push(name));
  stream.on('error', (err) => seen.events.push(`error ${err.constructor.name} ${err.code} ${err.message}`));
  return seen;
}

const settled = (stream) => new Promise((resolve) => {
  let left = 2;
  const one = () => { if (--left === 0) setImmediate(resolve); };
  stream.on('close', () => { left = 1; one(); });
  stream.on('end', one).on('error', () => { left = 1; one(); });
});

const big = (n, seed) => bytes(n, seed);
const CHUNKS = [
  ['strings', ['a', 'bc', 'h\u00e9llo']],
  ['buffers', [bytes(3), bytes(100, 2), bytes(5000, 3)]],
  ['views', [new Uint16Array([1, 2, 3]), new Uint8Array(bytes(70, 4).buffer, 3, 20)]],
  ['long', [big(70000, 5), big(200000, 6), bytes(10, 7), big(65536, 8)]],
  ['batches', [big(1.3 * (1 << 20), 5), bytes(10, 7), big(2.2 * (1 << 20), 6)]],
  ['empty', []],
];

// Scenarios: each gets (lib, kind, chunks) and resolves with what it saw.
const SCENARIOS = {
  async pipe(lib, kind, chunks) {
    const h = KINDS[kind](lib);
    const seen = record(h);
    Readable.from(chunks, { objectMode: false }).pipe(h);
    await settled(h);
    return seen;
  },
  async pipelineThenRead(lib, kind, chunks) {
    const h = KINDS[kind](lib);
    await pipeline(Readable.from(chunks), h, new Writable({ write(c, e, cb) { this.got = c.toString('hex'); cb(); } }));
    return h.readableEnded;
  },
  async setEncodingAndReadable(lib, kind, chunks) {
    const h = KINDS[kind](lib);
    h.setEncoding('base64');
    for (const c of chunks) h.write(c);
    h.end();
    return new Promise((resolve) => h.once('readable', () => resolve([h.read(), h.read()])));
  },
  async writeWithEncodings(lib, kind) {
    const h = KINDS[kind](lib);
    const seen = record(h);
    h.write('ff00', 'hex');
    h.write('aGk=', 'base64');
    h.write('\u00e9', 'latin1');
    h.end('end', 'utf8');
    await settled(h);
    return seen;
  },
  async badChunk(lib, kind) {
    const h = KINDS[kind](lib);
    const seen = record(h);
    try {
      h.write(42);
    } catch (err) {
      seen.events.push(`threw ${err.code}`);
    }
    h.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    return seen;
  },
  async sourceError(lib, kind, chunks) {
    const h = KINDS[kind](lib);
    const boom = new Error('source failed');
    const src = new Readable({ read() {} });
    for (const c of chunks) src.push(c);
    setImmediate(() => src.destroy(boom));
    const err = await pipeline(src, h).then(() => 'resolved', (e) => e);
    return [err === boom, h.destroyed];
  },
  async digestAfterFinish(lib, kind, chunks) {
    const h = KINDS[kind](lib);
    h.end(Buffer.concat(chunks.map((c) => Buffer.from(typeof c === 'string' ? Buffer.from(c) : c.buffer, c.byteOffset, c.byteLength))));
    await new Promise((resolve) => h.on('finish', resolve));
    const out = [h.digest('hex')];
    try { out.push(h.digest('hex')); } catch (err) { out.push(err.code ?? err.message); }
    return out;
  },
  // folder-hash's way: piped with {end: false}, digested in the source's
  // 'end' handler, maybe before the last chunk's callback.
  async digestOnSourceEnd(lib, kind, chunks) {
    const h = KINDS[kind](lib);
    const src = new PassThrough();
    src.pipe(h, { end: false });
    const done = new Promise((resolve) => src.on('end', () => resolve(h.update('after').digest('hex'))));
    for (const c of chunks) src.write(c);
    src.end();
    return done;
  },
  // The same with the source's chunks apart, so that some are hashed
  // before the digest is asked for.
  async digestOnSourceEndSlowly(lib, kind, chunks) {
    const h = KINDS[kind](lib);
    const src = new PassThrough();
    src.pipe(h, { end: false });
    const done = new Promise((resolve) => src.on('end', () => resolve(h.digest('hex'))));
    for (const c of chunks) {
      src.write(c);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    src.end();
    return done;
  },
  async copyMidStream(lib, kind, chunks) {
    if (kind === 'hmac') return 'no copy';
    if (kind === 'xof') return 'copy() gives the default length';
    const h = KINDS[kind](lib);
    const src = new PassThrough();
    src.pipe(h);
    const copies = [];
    for (const c of chunks) {
      src.write(c);
      copies.push(h.copy().digest('hex'));
      await new Promise((resolve) => setImmediate(resolve));
      copies.push(h.copy().digest('hex'));
    }
    src.end();
    await new Promise((resolve) => h.on('finish', resolve));
    copies.push(h.read().toString('hex'));
    return copies;
  },
};

function chunkOf(c) {
  return typeof c === 'string' ? c : Buffer.from(c.buffer, c.byteOffset, c.byteLength);
}

describe('createHash()/createHmac() as streams', function () {
  this.timeout(60000);
  for (const [scenario, run] of Object.entries(SCENARIOS)) {
    it(`${scenario}: as node:crypto's`, async function () {
      for (const kind of Object.keys(KINDS)) {
        for (const [name, chunks] of CHUNKS) {
          const list = chunks.map(chunkOf);
          const theirs = await run(crypto, kind, list);
          const ours = await run(fastHash, kind, list);
          assert.deepStrictEqual(ours, theirs, `${kind}, ${name} chunks`);
        }
      }
    });
  }

  it('is a Transform: piped through another Transform and into a Writable', async function () {
    const out = [];
    await pipeline(Readable.from([bytes(100), 'x']), new Transform({ transform(c, e, cb) { cb(null, c); } }),
      fastHash.createHash('md5'), new Writable({ write(c, e, cb) { out.push(c); cb(); } }));
    assert.deepStrictEqual(out, [crypto.createHash('md5').update(bytes(100)).update('x').digest()]);
  });

  it('hashes piped chunks from a long one on in 1 MiB jobs (hasherUpdateAsync), written ones at once', async function () {
    const calls = [];
    const original = binding.hasherUpdateAsync;
    binding.hasherUpdateAsync = function (...args) {
      calls.push(args[2]);
      return original.apply(this, args);
    };
    try {
      const h = fastHash.createHash('sha256');
      h.write(big(3 << 20, 1));
      assert.strictEqual(calls.length, 0, 'a written chunk went off the event loop');
      const chunks = [bytes(100, 9), big(1.5 * (1 << 20), 2), bytes(100, 3), big(3 << 20, 4)];
      await pipeline(Readable.from(chunks), h);
      assert.deepStrictEqual(calls, [1 << 20, 1 << 20, 1 << 20, 1 << 20]);
      const ref = crypto.createHash('sha256').update(big(3 << 20, 1));
      for (const c of chunks) ref.update(c);
      assert.deepStrictEqual(h.read(), ref.digest());
    } finally {
      binding.hasherUpdateAsync = original;
    }
  });

  it('a digest() while a later chunk is being hashed counts the chunks hashed before it', async function () {
    const original = binding.hasherUpdateAsync;
    let release;
    const gate = new Promise((resolve) => { release = resolve; });
    let calls = 0;
    let second;
    const started = new Promise((resolve) => { second = resolve; });
    binding.hasherUpdateAsync = function (...args) {
      const job = original.apply(this, args);
      if (++calls !== 2) return job;
      second();
      return job.then(() => gate);
    };
    try {
      const chunks = [big(1.2 * (1 << 20), 1), big(1.5 * (1 << 20), 2), big(0.9 * (1 << 20), 3)];
      const h = fastHash.createHash('sha256');
      const src = new PassThrough();
      src.pipe(h, { end: false });
      for (const c of chunks) src.write(c);
      await started;
      const ref = crypto.createHash('sha256');
      for (const c of chunks) ref.update(c);
      assert.strictEqual(h.digest('hex'), ref.digest('hex'));
    } finally {
      release();
      binding.hasherUpdateAsync = original;
    }
  });
});
