'use strict';
// A chunk's bytes are what its view gives (its intrinsic length and
// offset), as node:crypto reads them: a `length`, `byteLength` or
// `byteOffset` property set on the chunk itself is never read. Every kind
// of view, lying in every way, through hashStream (where a chunk's length
// sizes the copy into a batch) and through hasher.update().
const assert = require('assert');
const crypto = require('crypto');
const { hashStream, createHasher } = require('..');
const { bytes } = require('./common');

// Views of `n` bytes of `data` from byte 8 of a larger buffer, one of each
// kind a chunk may be.
const VIEWS = [
  ['Buffer', (ab, n) => Buffer.from(ab, 8, n)],
  ['Uint8Array', (ab, n) => new Uint8Array(ab, 8, n)],
  ['Int32Array', (ab, n) => new Int32Array(ab, 8, n / 4)],
  ['Float64Array', (ab, n) => new Float64Array(ab, 8, n / 8)],
  ['DataView', (ab, n) => new DataView(ab, 8, n)],
];

// Own properties a caller may set on a view, each a lie.
const LIES = [
  ['length 1000', { length: 1000 }],
  ['length NaN', { length: NaN }],
  ['length -1', { length: -1 }],
  ['byteLength 1000', { byteLength: 1000 }],
  ['byteOffset 0', { byteOffset: 0 }],
  ['every one of them', { length: 4096, byteLength: 4096, byteOffset: 0 }],
];

// A view of kind `make` over 40 bytes of `data`, in a buffer whose other
// bytes are 0xee, with the lie's properties defined on it.
function lying(make, lie, data) {
  const ab = new ArrayBuffer(4096);
  new Uint8Array(ab).fill(0xee).set(data, 8);
  const view = make(ab, data.length);
  for (const [key, value] of Object.entries(lie)) Object.defineProperty(view, key, { value });
  return view;
}

describe('hashStream() and hasher.update() read a view as it is, not its own properties', function () {
  const seed = Number(process.env.FAST_HASH_SEED ?? 0x1e5);
  const data = bytes(40, seed);
  const first = bytes(100, seed + 1);

  for (const [kind, make] of VIEWS) {
    for (const [what, lie] of LIES) {
      const want = crypto.createHash('sha256').update(first).update(data).update(data).digest('hex');

      it(`hashStream: a ${kind} with ${what}`, async function () {
        // A stream before it leaves other bytes in a kept batch: a chunk
        // read past its end would hash them.
        await hashStream('sha256', [bytes(300000, seed + 2)]);
        const chunks = [first, lying(make, lie, data), lying(make, lie, data)];
        assert.strictEqual(await hashStream('sha256', chunks), want, `seed ${seed}`);
      });

      it(`hasher.update(): a ${kind} with ${what}`, function () {
        const hasher = createHasher('sha256').update(first);
        hasher.update(lying(make, lie, data)).update(lying(make, lie, data));
        assert.strictEqual(hasher.digest('hex'), want, `seed ${seed}`);
      });
    }
  }
});
