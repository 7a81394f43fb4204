'use strict';
// hashStream gives the right digest when the source overwrites a chunk's
// memory as soon as it is asked for the next one: every source here yields
// one buffer over and over, refilled before each yield. (fast-hash copies
// each chunk before it asks for the next; a source that hands over the same
// memory must not be asked early either, so a Node stream's own read-ahead
// is left as it is.)
const assert = require('assert');
const fs = require('fs');
const { Readable } = require('stream');
const { hashStream, hmacStream, hash, hmac } = require('..');

// `count` chunks of `size` bytes, chunk i all (i * 7 + 1) & 0xff: the bytes
// the digest must cover, and a fill(buf, i) that writes chunk i into buf.
function plan(count, size) {
  const fill = (buf, i) => buf.fill((i * 7 + 1) & 0xff);
  const all = Buffer.alloc(count * size);
  for (let i = 0; i < count; i++) fill(all.subarray(i * size, (i + 1) * size), i);
  return { all, fill };
}

const SOURCES = [
  ['an async generator', (count, buf, fill) => (async function* () {
    for (let i = 0; i < count; i++) { fill(buf, i); yield buf; }
  })()],
  ['a sync generator', (count, buf, fill) => (function* () {
    for (let i = 0; i < count; i++) { fill(buf, i); yield buf; }
  })()],
  ['a Node stream with no read-ahead (highWaterMark 0)', (count, buf, fill) => {
    let i = 0;
    return new Readable({
      highWaterMark: 0,
      read() {
        if (i === count) { this.push(null); return; }
        fill(buf, i++);
        this.push(buf);
      },
    });
  }],
  ['a ReadableStream with no read-ahead (highWaterMark 0)', (count, buf, fill) => {
    let i = 0;
    return new ReadableStream({
      pull(c) {
        if (i === count) { c.close(); return; }
        fill(buf, i++);
        c.enqueue(buf);
      },
    }, { highWaterMark: 0 });
  }],
  ['a ReadableStream that reads ahead, a turn later', (count, buf, fill) => {
    let i = 0;
    return new ReadableStream({
      pull: (c) => new Promise((resolve) => setImmediate(() => {
        if (i === count) c.close();
        else { fill(buf, i++); c.enqueue(buf); }
        resolve();
      })),
    });
  }],
  // File streams that are not what fs makes (fast-hash hashes those chunks
  // in place, without the copy): one reading through an `fs` option that
  // gives one buffer back over and over, and a subclass with its own _read.
  // Both read ahead, as file streams do: the next chunk is asked for before
  // this one is taken.
  ['an fs.ReadStream whose fs option reads into one buffer', (count, buf, fill) => {
    let i = 0;
    const read = (fd, into, offset, length, position, callback) => setImmediate(() => {
      if (i === count) { callback(null, 0, into); return; }
      fill(buf, i++);
      callback(null, buf.length, buf);
    });
    return fs.createReadStream(null, { fd: 1000, autoClose: false, fs: { read, open() {}, close() {} } });
  }],
  ['an fs.ReadStream subclass whose _read pushes one buffer', (count, buf, fill) => {
    let i = 0;
    class Reusing extends fs.ReadStream {
      _read() {
        setImmediate(() => {
          if (i === count) { this.push(null); return; }
          fill(buf, i++);
          this.push(buf);
        });
      }
    }
    return new Reusing(__filename);
  }],
  ['an async iterator of its own', (count, buf, fill) => {
    let i = 0;
    return {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          if (i === count) return { done: true };
          fill(buf, i++);
          return { value: buf, done: false };
        },
      }),
    };
  }],
];

describe('hashStream() of a source that reuses its memory', function () {
  this.timeout(60000);
  const shapes = [[3000, 100], [40, (1 << 20) + 7], [5, 5 << 20]];
  for (const [label, make] of SOURCES) {
    for (const [count, size] of shapes) {
      it(`${label}: ${count} chunks of ${size} bytes`, async function () {
        const { all, fill } = plan(count, size);
        assert.strictEqual(await hashStream('sha256', make(count, Buffer.alloc(size), fill)), hash('sha256', all));
      });
    }
    it(`${label}, hmacStream: 40 chunks of 1 MiB + 7`, async function () {
      const { all, fill } = plan(40, (1 << 20) + 7);
      assert.strictEqual(await hmacStream('sha512', 'key', make(40, Buffer.alloc((1 << 20) + 7), fill)),
        hmac('sha512', 'key', all));
    });
  }
});
