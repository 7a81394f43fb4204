'use strict';
// createHash() and createHmac() held against node:crypto's, call by call:
// random sequences of update/digest/copy (and the calls that follow a
// digest) with every kind of argument, the results and errors compared
// (class, message; our code where Node has none). A failing sequence is
// replayed by its seed: SEED=<n> npx mocha test/createHash.test.js.
const assert = require('assert');
const crypto = require('crypto');
const stream = require('stream');
const fastHash = require('..');
const { createHash, createHmac } = fastHash;
const { bytes, runtimeHashes, hmacAlgorithms } = require('./common');

function prng(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x % n;
  };
}

// Arguments drawn for update() and digest(): what callers pass, and what
// they should not.
const DATA = [
  '', 'abc', 'h\u00e9llo \u{1f600}', 'ff00aa', 'abc', 'x'.repeat(700), '\ud800 lone',
  bytes(0), bytes(3), bytes(64, 2), bytes(1000, 3), new Uint16Array([1, 2, 3]),
  new DataView(bytes(40, 4).buffer, 5, 20), new Float64Array([1.5, -2]),
  Buffer.from('pooled'), 42, null, {}, new ArrayBuffer(4), [1, 2],
];
const INPUT_ENCODINGS = [undefined, 'utf8', 'hex', 'HEX', 'base64', 'latin1', 'binary', 'ascii', 'ucs2',
  'utf-16le', 'buffer', 'nope', '', null, 0, 5];
const OUTPUT_ENCODINGS = [undefined, 'hex', 'base64', 'base64url', 'latin1', 'binary', 'BASE64', 'utf8',
  'ucs2', 'buffer', 'BUFFER', 'nope', '', null, 0, 5, {}];

// Bun's and Deno's node:crypto differ from Node's on odd arguments (a
// second Hmac#digest('nope') is a Buffer on Bun; Deno's Hmac#update fails
// on a Uint16Array, its digest('nope') throws, its createHmac takes
// { encoding: 5 }), and fast-hash behaves as Node does: there the
// sequences draw from the arguments all of them read alike.
const ON_NODE = !process.versions.bun && !process.versions.deno;
const COMMON = (list, keep) => (ON_NODE ? list : list.filter(keep));
const DATA_DRAWN = COMMON(DATA, (d) => typeof d === 'string' || Buffer.isBuffer(d) || d === null || typeof d === 'number');
const INPUTS_DRAWN = COMMON(INPUT_ENCODINGS, (e) => [undefined, 'utf8', 'hex', 'base64', 'latin1'].includes(e));
const OUTPUTS_DRAWN = COMMON(OUTPUT_ENCODINGS, (e) => [undefined, 'hex', 'base64', 'latin1', 'buffer'].includes(e));

// What a call gave, as comparable data.
function outcome(fn) {
  try {
    const value = fn();
    if (value !== null && typeof value === 'object' && typeof value.update === 'function') return { self: true };
    return { value: Buffer.isBuffer(value) ? ['Buffer', value.toString('hex')] : value };
  } catch (err) {
    // The class as instanceof tells it (Deno names its error classes
    // after their codes).
    const Class = err instanceof TypeError ? 'TypeError' : err instanceof RangeError ? 'RangeError' : 'Error';
    return { error: [Class, err.message], code: err.code };
  }
}

// Node's outcome against ours: ours has a code where Node's error has one
// or not.
function same(ours, theirs, where) {
  if (theirs.error !== undefined) {
    assert.ok(ours.error !== undefined, `${where}: no error where node:crypto throws`);
    // Bun's and Deno's check arguments in another order and word some
    // errors their own way: there, that both throw is what is compared.
    if (!ON_NODE) return;
    assert.deepStrictEqual(ours.error, theirs.error, where);
    if (theirs.code !== undefined) assert.strictEqual(ours.code, theirs.code, where);
    else assert.strictEqual(typeof ours.code, 'string', `${where}: no code`);
    return;
  }
  assert.deepStrictEqual(ours, theirs, where);
}

function randomCall(pick) {
  switch (pick(6)) {
    case 0: case 1: case 2: {
      const data = DATA_DRAWN[pick(DATA_DRAWN.length)];
      const encoding = INPUTS_DRAWN[pick(INPUTS_DRAWN.length)];
      return { name: `update(${show(data)}, ${String(encoding)})`, call: (h) => h.update(data, encoding) };
    }
    case 3: {
      const encoding = OUTPUTS_DRAWN[pick(OUTPUTS_DRAWN.length)];
      return { name: `digest(${String(encoding)})`, call: (h) => h.digest(encoding) };
    }
    case 4:
      return { name: 'copy()', call: (h) => h.copy(), copies: true };
    default:
      return { name: 'digest()', call: (h) => h.digest() };
  }
}

const show = (value) => (typeof value === 'string' ? JSON.stringify(value.slice(0, 12)) :
  Object.prototype.toString.call(value));

// One random sequence on a pair of objects; copies join the pairs in play.
function runSequence(seed, make) {
  const pick = prng(seed);
  const pairs = [make()];
  const steps = [];
  for (let i = 0; i < 12; i++) {
    const at = pick(pairs.length);
    const [ours, theirs] = pairs[at];
    const { name, call, copies } = randomCall(pick);
    if (copies && typeof theirs.copy !== 'function') continue; // Hmac has no copy()
    steps.push(`#${at}.${name}`);
    const where = `seed ${seed}: ${steps.join(' ')}`;
    let copyOurs;
    let copyTheirs;
    const a = outcome(() => (copyOurs = call(ours)));
    const b = outcome(() => (copyTheirs = call(theirs)));
    same(a, b, where);
    if (copies && b.self) pairs.push([copyOurs, copyTheirs]);
  }
}

const SEEDS = process.env.SEED ? [Number(process.env.SEED)] : Array.from({ length: 400 }, (_, i) => i + 1);

describe('createHash()', function () {
  it('equals crypto.createHash call by call: random sequences of update/digest/copy with any arguments', function () {
    const algorithms = ['sha256', 'md5', 'sha512', 'sha3-256', 'SHA1', 'shake128'].filter((a) => runtimeHashes(a));
    for (const seed of SEEDS) {
      const alg = algorithms[seed % algorithms.length];
      runSequence(seed, () => [createHash(alg), crypto.createHash(alg)]);
    }
  });

  it('takes outputLength for XOFs, and throws node:crypto\'s errors for bad names, types and lengths', function () {
    const cases = [
      ['shake256', { outputLength: 10 }], ['shake128', { outputLength: 0 }], ['shake128', null], ['shake128', 'x'],
      ['sha256', { outputLength: 32 }], ['sha256', { outputLength: 5 }], ['nope', undefined], ['', undefined],
      [5, undefined], [undefined, undefined], ['sha256', { outputLength: 'x' }], ['shake128', { outputLength: -1 }],
    ];
    for (const [alg, options] of cases) {
      const where = `createHash(${String(alg)}, ${JSON.stringify(options)})`;
      const a = outcome(() => createHash(alg, options).update('m').digest('hex'));
      const b = outcome(() => crypto.createHash(alg, options).update('m').digest('hex'));
      same(a, b, where);
    }
  });

  it('is a stream.Transform whose stream state is made only when used', function () {
    const h = createHash('sha256');
    assert.ok(h instanceof stream.Transform);
    assert.ok(h instanceof stream.Readable);
    h.update('a').copy().digest();
    assert.ok(!Object.hasOwn(h, '_readableState'), 'update/copy made the stream state');
    h.digest('hex');
    assert.ok(!Object.hasOwn(h, '_readableState'), 'digest made the stream state');
    assert.strictEqual(typeof h.pipe, 'function');
    assert.strictEqual(h.readable, true);
    assert.ok(Object.hasOwn(h, '_readableState'));
  });

  it('has node:crypto\'s Hash and Hmac constructors: called with or without new, and instanceof', function () {
    for (const made of [fastHash.Hash('sha1'), new fastHash.Hash('sha1'), createHash('sha1')]) {
      assert.ok(made instanceof fastHash.Hash);
      assert.strictEqual(made.update('a').digest('hex'), crypto.createHash('sha1').update('a').digest('hex'));
    }
    const mac = new fastHash.Hmac('sha256', 'k');
    assert.ok(mac instanceof fastHash.Hmac && createHmac('md5', 'k') instanceof fastHash.Hmac);
    assert.strictEqual(mac.update('a').digest('hex'), crypto.createHmac('sha256', 'k').update('a').digest('hex'));
    assert.strictEqual(fastHash.Hash.name, 'Hash');
  });

  it('is in both module shapes, as node:crypto\'s is', async function () {
    const esm = await import('fast-hash');
    assert.strictEqual(esm.createHash, createHash);
    assert.strictEqual(esm.default.createHmac, createHmac);
  });
});

describe('createHmac()', function () {
  it('equals crypto.createHmac call by call, a second digest() included', function () {
    const algorithms = hmacAlgorithms().filter((a) => ['sha256', 'md5', 'sha512', 'sha3-256', 'sha1'].includes(a));
    const keys = COMMON(['k', '', 'x'.repeat(200), bytes(32, 9), new Uint16Array([5, 6]), new ArrayBuffer(7)],
      (k) => typeof k === 'string' || Buffer.isBuffer(k));
    for (const seed of SEEDS) {
      const alg = algorithms[seed % algorithms.length];
      const key = keys[seed % keys.length];
      runSequence(seed, () => [createHmac(alg, key), crypto.createHmac(alg, key)]);
    }
  });

  it('reads the key as createHmac does: options.encoding, KeyObjects; refuses the rest with its errors', function () {
    const secret = crypto.createSecretKey(Buffer.from('secret'));
    const cases = [
      ['sha256', '6b6579', { encoding: 'hex' }], ['sha256', 'a2V5', { encoding: 'base64' }], ['sha256', 'key', null],
      ['sha256', secret, undefined], ['sha256', 5, undefined], ['sha256', null, undefined], ['sha256', {}, undefined],
      ['nope', 'k', undefined], [5, 'k', undefined], ['shake128', 'k', undefined],
      ...(ON_NODE ? [['sha256', 'k', { encoding: 5 }], ['sha256', 'k', { encoding: 'nope' }]] : []),
    ];
    for (const [alg, key, options] of cases) {
      const where = `createHmac(${String(alg)}, ${show(key)}, ${JSON.stringify(options)})`;
      same(outcome(() => createHmac(alg, key, options).update('m').digest('hex')),
        outcome(() => crypto.createHmac(alg, key, options).update('m').digest('hex')), where);
    }
  });

  it('has no copy(), as node:crypto\'s Hmac has none', function () {
    assert.strictEqual(createHmac('sha256', 'k').copy, crypto.createHmac('sha256', 'k').copy);
    assert.ok(createHmac('sha256', 'k') instanceof stream.Transform);
  });
});
