'use strict';
const assert = require('assert');
const crypto = require('crypto');
const path = require('path');
const { spawnSync } = require('child_process');
const { Worker } = require('worker_threads');
const { hash } = require('..');
const binding = require('../lib/binding');
const {
  sweep, throwsWith, bytes, binaryInputs, stringInputs, opensslErrorProbe, describeNative,
  itNative, runtimeHashes, refusedByRuntime,
} = require('./common');

const WORKER_ALGS = ['sha256', 'md5', 'sha3-256', 'RSA-SHA1', 'shake256'].filter(runtimeHashes);

const ALGORITHMS = crypto.getHashes();
const SIZES = [0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 1000];
const MIB = 1 << 20;
const ENCODINGS = [
  undefined, 'hex', 'base64', 'base64url', 'latin1', 'binary', 'buffer',
  'utf8', 'utf-8', 'ucs2', 'ucs-2', 'utf16le', 'utf-16le', 'ascii',
  'HEX', 'Base64', 'BUFFER', 'Latin1', 'UTF8', 'UCS2',
];

// What node:crypto gives for the same bytes (the API's definition of right).
function expected(alg, data, enc, outputLength) {
  const options = outputLength === undefined ? undefined : { outputLength };
  // Encodings are case-insensitive in Node; Deno's digest() takes lower case.
  return crypto.createHash(alg, options).update(data).digest(enc === undefined ? 'hex' : enc.toLowerCase());
}

function* sweepCases(alg, size, encodings) {
  const buf = bytes(size, size + 1);
  const inputs = [
    ...binaryInputs(buf).map(([label, value]) => [label, value, buf]),
    ...stringInputs(size).map(([label, value]) => [label, value, value]),
  ];
  for (const enc of encodings) {
    const wantFor = new Map();
    for (const [label, value, source] of inputs) {
      if (!wantFor.has(source)) wantFor.set(source, expected(alg, source, enc));
      yield [`${alg} ${size}B ${label} ${enc}`, () => hash(alg, value, enc), wantFor.get(source)];
    }
  }
}

describe('hash()', function () {
  describe('matches node:crypto', function () {
    for (const alg of ALGORITHMS) {
      it(`${alg}: every size x input type x encoding`, function () {
        const cases = [];
        for (const size of SIZES) cases.push(...sweepCases(alg, size, ENCODINGS));
        assert.ok(sweep(cases) > SIZES.length * ENCODINGS.length * 10);
      });
    }

    // 1 MiB: every input type in hex, every encoding on a Buffer (the full
    // product would hash 10 GB for no new path through the code).
    it('1 MiB inputs, every algorithm', function () {
      this.timeout(60000);
      const cases = [];
      for (const alg of ALGORITHMS) {
        for (const c of sweepCases(alg, MIB, ['hex'])) cases.push(c);
        const buf = bytes(MIB, 7);
        for (const enc of ENCODINGS) {
          cases.push([`${alg} 1MiB Buffer ${enc}`, () => hash(alg, buf, enc), expected(alg, buf, enc)]);
        }
      }
      sweep(cases);
    });

    it('options object: outputEncoding and outputLength', function () {
      const cases = [];
      const data = bytes(100);
      for (const alg of ALGORITHMS) {
        const size = crypto.createHash(alg).digest().length;
        for (const enc of ['hex', 'buffer', 'base64url', 'utf16le', undefined]) {
          const want = expected(alg, data, enc);
          cases.push([`${alg} {outputEncoding:${enc}}`, () => hash(alg, data, { outputEncoding: enc }), want]);
          cases.push([`${alg} {outputLength:${size}}`, () => hash(alg, data, { outputEncoding: enc, outputLength: size }), want]);
        }
        cases.push([`${alg} {}`, () => hash(alg, data, {}), expected(alg, data, 'hex')]);
      }
      sweep(cases);
    });

    for (const alg of ['shake128', 'shake256']) {
      it(`${alg}: outputLength 0..1000 and the default length`, function () {
        const cases = [];
        const data = bytes(300);
        for (const len of [0, 1, 15, 16, 17, 31, 32, 33, 64, 65, 136, 168, 200, 1000]) {
          for (const enc of ['hex', 'buffer', 'base64', 'latin1', 'ucs2']) {
            cases.push([`${alg} len ${len} ${enc}`,
              () => hash(alg, data, { outputLength: len, outputEncoding: enc }),
              expected(alg, data, enc, len)]);
          }
        }
        sweep(cases);
        // Without outputLength: 16 and 32 bytes, as Node 20 and 22 give.
        assert.strictEqual(hash(alg, data, 'buffer').length, alg === 'shake128' ? 16 : 32);
      });
    }

    it('strings hash as Buffer.from(string) encodes them', function () {
      const strings = ['', 'a', '\u0000', '\u00ff', '\ud800', '\udfff', 'a\ud800b', '\udc00\ud800',
        '\ud83d\ude00', '\ud83d', 'x'.repeat(1024), 'é'.repeat(1024), '😀'.repeat(1024),
        '\ud800'.repeat(1025), 'é'.repeat(5000), '😀'.repeat(5000) + '\ud800'];
      sweep(strings.map((s, i) => [`string #${i}`, () => hash('sha256', s, 'buffer'),
        crypto.createHash('sha256').update(Buffer.from(s)).digest()]));
    });

    it('the empty-string encoding is utf8, as crypto.hash has it', function () {
      assert.strictEqual(hash('md5', 'abc', ''), expected('md5', 'abc', 'utf8'));
    });

    it('equals crypto.hash() where Node has it', function () {
      if (typeof crypto.hash !== 'function') this.skip();
      const data = bytes(77);
      for (const alg of ALGORITHMS) {
        for (const enc of ['hex', 'base64', 'buffer', 'latin1']) {
          assert.deepStrictEqual(hash(alg, data, enc), crypto.hash(alg, data, enc), `${alg} ${enc}`);
        }
      }
    });
  });

  describe('known-answer vectors', function () {
    const fixture = require('./fixtures/hash-vectors.json');
    const input = (spec) => {
      if (spec.utf8 !== undefined) return spec.utf8;
      if (spec.hex !== undefined) return Buffer.from(spec.hex, 'hex');
      return spec.repeat.repeat(spec.count);
    };
    for (const v of fixture.vectors) {
      const here = runtimeHashes(v.algorithm);
      (here ? it : it.skip)(`${v.algorithm}: ${v.note} (${v.source})${here ? '' : ' [not in this runtime\'s node:crypto]'}`, function () {
        assert.ok(fixture.sources[v.source], `source ${v.source} is named`);
        const options = { outputLength: v.outputLength };
        assert.strictEqual(hash(v.algorithm, input(v.input), options), v.hex);
        assert.strictEqual(hash(v.algorithm.toUpperCase(), input(v.input), options), v.hex);
      });
    }
  });

  describe('algorithm names', function () {
    it('are case-insensitive and take the aliases getHashes() lists', function () {
      const data = 'names';
      for (const alg of ALGORITHMS) {
        const want = expected(alg, data);
        assert.strictEqual(hash(alg.toUpperCase(), data), want, alg.toUpperCase());
        assert.strictEqual(hash(alg.toLowerCase(), data), want, alg.toLowerCase());
      }
      assert.strictEqual(hash('RSA-SHA256', data), expected('sha256', data));
      assert.strictEqual(hash('sha256WithRSAEncryption', data), expected('sha256', data));
    });

    it('take the provider names Node accepts too (SHA2-256, SHA-512/256)', function () {
      for (const alg of ['SHA2-256', 'SHA-256', 'SHA2-512/256', 'SHA3-256', 'SHAKE-128'].filter(runtimeHashes)) {
        assert.strictEqual(hash(alg, 'x'), expected(alg, 'x'), alg);
      }
    });
  });

  describe('errors', function () {
    const notStrings = [1, undefined, null, true, {}, [], Symbol('s'), 1n, () => {}];

    it('algorithm not a string: TypeError ERR_INVALID_ARG_TYPE', function () {
      for (const alg of notStrings) {
        throwsWith(() => hash(alg, 'x'), TypeError, 'ERR_INVALID_ARG_TYPE', /"algorithm" argument must be of type string/);
      }
    });

    // What a name means is the runtime's node:crypto's: 'sha256 ' is sha256
    // on OpenSSL 3.5 (Node 22+), md4 is a digest on Bun and Deno. A name
    // with a NUL is refused even where node:crypto stops at the NUL.
    it('unknown digest: TypeError ERR_CRYPTO_INVALID_DIGEST "Invalid digest: <name>", as node:crypto refuses it', function () {
      const nodeTakes = (name) => {
        try {
          crypto.createHash(name).digest();
          return true;
        } catch {
          return false;
        }
      };
      for (const name of ['nope', '', 'sha', 'sha256 ', ' sha256', 'x'.repeat(1000), 'md4', 'rsa']) {
        if (nodeTakes(name)) {
          assert.strictEqual(hash(name, 'x'), crypto.createHash(name).update('x').digest('hex'), name);
        } else {
          throwsWith(() => hash(name, 'x'), TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${name}`);
        }
      }
      for (const name of ['sha256\0', 'sha256\0junk']) {
        throwsWith(() => hash(name, 'x'), TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${name}`);
      }
    });

    it('data of a wrong type: TypeError ERR_INVALID_ARG_TYPE', function () {
      for (const data of [1, undefined, null, true, {}, [1, 2], Symbol('s'), 1n, () => {}, new Date(), new String('x')]) { // eslint-disable-line no-new-wrappers
        throwsWith(() => hash('sha256', data), TypeError, 'ERR_INVALID_ARG_TYPE', /"data" argument must be of type string/);
      }
    });

    it('outputEncoding unknown: TypeError ERR_INVALID_ARG_VALUE', function () {
      for (const enc of ['foo', 'hex ', 'utf32', 'base32', 'buffers']) {
        throwsWith(() => hash('sha256', 'x', enc), TypeError, 'ERR_INVALID_ARG_VALUE', /'outputEncoding' is invalid/);
        throwsWith(() => hash('sha256', 'x', { outputEncoding: enc }), TypeError, 'ERR_INVALID_ARG_VALUE',
          /'options.outputEncoding' is invalid/);
      }
    });

    it('outputEncoding not a string: TypeError ERR_INVALID_ARG_TYPE', function () {
      for (const enc of [1, null, true, Symbol('s'), 1n, () => {}]) {
        throwsWith(() => hash('sha256', 'x', enc), TypeError, 'ERR_INVALID_ARG_TYPE', /"outputEncoding" argument/);
      }
      for (const enc of [1, null, true, {}, Symbol('s')]) {
        throwsWith(() => hash('sha256', 'x', { outputEncoding: enc }), TypeError, 'ERR_INVALID_ARG_TYPE',
          /"options.outputEncoding" property must be of type string/);
      }
    });

    it('outputLength a number but not a non-negative safe integer: RangeError ERR_OUT_OF_RANGE', function () {
      for (const len of [-1, 1.5, NaN, Infinity, -Infinity, 2 ** 53, -0.5]) {
        for (const alg of ['shake128', 'sha256']) {
          throwsWith(() => hash(alg, 'x', { outputLength: len }), RangeError, 'ERR_OUT_OF_RANGE',
            /"options.outputLength" is out of range/);
        }
      }
    });

    // As node:crypto's own one-shot tests expect of createHash.
    it('outputLength not a number: TypeError ERR_INVALID_ARG_TYPE, as node:crypto', function () {
      for (const len of ['16', null, true, false, {}, 16n, 'foo', Symbol('s')]) {
        for (const alg of ['shake128', 'sha256']) {
          throwsWith(() => hash(alg, 'x', { outputLength: len }), TypeError, 'ERR_INVALID_ARG_TYPE',
            /"options.outputLength" property must be of type number/);
          // Node's own rule (Deno's createHash words some of these otherwise).
          if (process.versions.deno === undefined) {
            assert.throws(() => crypto.createHash(alg, { outputLength: len }), { code: 'ERR_INVALID_ARG_TYPE' });
          }
        }
      }
    });

    it('outputLength other than the size of a fixed digest: ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH', function () {
      for (const [alg, len] of [['sha256', 31], ['sha256', 33], ['sha256', 0], ['md5', 32], ['sha3-256', 64]]) {
        throwsWith(() => hash(alg, 'x', { outputLength: len }), Error, 'ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH',
          new RegExp(`Output length ${len} is invalid for ${alg}`));
      }
    });

    it('an XOF length too large for a Buffer: RangeError ERR_OUT_OF_RANGE', function () {
      throwsWith(() => hash('shake256', 'x', { outputLength: Number.MAX_SAFE_INTEGER }), RangeError, 'ERR_OUT_OF_RANGE');
    });

    it('checks arguments in Node\'s order: algorithm, data, encoding, then the name', function () {
      throwsWith(() => hash(1, 2, 3), TypeError, 'ERR_INVALID_ARG_TYPE', /"algorithm"/);
      throwsWith(() => hash('nope', 2, 'hex'), TypeError, 'ERR_INVALID_ARG_TYPE', /"data"/);
      throwsWith(() => hash('nope', 'x', 'foo'), TypeError, 'ERR_INVALID_ARG_VALUE');
      throwsWith(() => hash('nope', 'x', 'hex'), TypeError, 'ERR_CRYPTO_INVALID_DIGEST');
    });

    it('a getter that throws in the options propagates unchanged', function () {
      const boom = new Error('boom');
      const options = { get outputEncoding() { throw boom; } };
      assert.throws(() => hash('sha256', 'x', options), (err) => err === boom);
    });

    itNative('leave the addon working and OpenSSL\'s error queue as it was', function () {
      const before = opensslErrorProbe();
      for (const name of ['nope', 'RSA-nope', 'sha256\0x', 'md4', 'whirlpool', 'SHA512-256xyz']) {
        assert.throws(() => hash(name, 'x'));
        assert.strictEqual(hash('sha256', 'abc'), expected('sha256', 'abc'));
      }
      assert.throws(() => hash('sha256', 'x', { outputLength: 5 }));
      assert.strictEqual(hash('RSA-SHA1', 'abc'), expected('sha1', 'abc')); // fetch fails, legacy name works
      assert.strictEqual(opensslErrorProbe(), before);
    });
  });

  describeNative('the binding refuses what the shim never sends', function () {
    const [id] = [binding.resolve('sha256').id];
    it('throws coded errors instead of crashing', function () {
      const { hex, buffer } = binding.encodings;
      throwsWith(() => binding.hash(9999, hex, 'x'), RangeError, 'ERR_OUT_OF_RANGE');
      throwsWith(() => binding.hash(id, 77, 'x'), RangeError, 'ERR_OUT_OF_RANGE');
      throwsWith(() => binding.hash(id, buffer, 'x', 32), RangeError, 'ERR_OUT_OF_RANGE');
      throwsWith(() => binding.hash('x', hex, 'x'), TypeError, 'ERR_INVALID_ARG_TYPE');
      throwsWith(() => binding.hash(id, 'hex', 'x'), TypeError, 'ERR_INVALID_ARG_TYPE');
      throwsWith(() => binding.hash(id, hex, {}), TypeError, 'ERR_INVALID_ARG_TYPE');
      throwsWith(() => binding.hash(id, hex, new ArrayBuffer(4)), TypeError, 'ERR_INVALID_ARG_TYPE');
      throwsWith(() => binding.hash(id, buffer, 'x', 32, Buffer.alloc(31)), RangeError, 'ERR_OUT_OF_RANGE');
      throwsWith(() => binding.hash(id, buffer, 'x', 32, 'not a buffer'), TypeError, 'ERR_INVALID_ARG_TYPE');
      throwsWith(() => binding.hash(binding.resolve('shake128').id, hex, 'x', -1), RangeError, 'ERR_OUT_OF_RANGE');
      throwsWith(() => binding.resolve(42), TypeError, 'ERR_INVALID_ARG_TYPE');
      assert.strictEqual(hash('sha256', 'abc'), expected('sha256', 'abc'));
    });
  });

  describeNative('the forced EVP path (FAST_HASH_FORCE_EVP=1)', function () {
    it('gives the same results as the low-level and provider paths', function () {
      this.timeout(60000);
      const script = path.join(__dirname, 'fixtures', 'digest-all.js');
      const run = (env) => {
        const res = spawnSync(process.execPath, [script], {
          env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 64 << 20,
        });
        assert.strictEqual(res.status, 0, res.stderr);
        return JSON.parse(res.stdout);
      };
      const evp = run({ FAST_HASH_FORCE_EVP: '1' });
      const fast = run({ FAST_HASH_FORCE_EVP: '' });
      assert.strictEqual(evp.evpOnly, true);
      assert.strictEqual(fast.evpOnly, crypto.getFips() === 1);
      // Every digest took the path under test: EVP when forced, else the
      // low-level structs for MD5/SHA-1/SHA-2 and the provider's functions
      // for the other fixed-length digests (XOFs stay on EVP).
      for (const [alg, p] of Object.entries(evp.paths)) assert.ok(p === 'evp' || p === undefined, alg);
      if (!fast.evpOnly) {
        assert.strictEqual(fast.paths.sha256, 'low-level');
        assert.strictEqual(fast.paths.md5, 'low-level');
        assert.strictEqual(fast.paths['sha3-256'], 'provider');
        assert.strictEqual(fast.paths.blake2b512, 'provider');
        assert.strictEqual(fast.paths['sha512-256'], 'provider');
        assert.strictEqual(fast.paths.shake256, 'evp');
      }
      assert.ok(Object.keys(evp.digests).length > ALGORITHMS.length * 10);
      assert.deepStrictEqual(evp.digests, fast.digests);
      for (const [key, value] of Object.entries(fast.digests)) {
        const [alg, size] = key.split(' ');
        assert.strictEqual(value, expected(alg, bytes(Number(size), 3)), key);
      }
    });
  });

  describe('worker_threads', function () {
    it('each worker loads the addon and gets node:crypto\'s results', async function () {
      this.timeout(30000);
      const source = `
        const { parentPort } = require('worker_threads');
        const { hash } = require(${JSON.stringify(path.join(__dirname, '..'))});
        const out = [];
        for (const alg of ${JSON.stringify(WORKER_ALGS)})
          for (let n = 0; n < 200; n += 7) out.push(hash(alg, 'w'.repeat(n), 'base64'));
        parentPort.postMessage(out);`;
      const want = [];
      for (const alg of WORKER_ALGS) {
        for (let n = 0; n < 200; n += 7) want.push(expected(alg, 'w'.repeat(n), 'base64'));
      }
      const results = await Promise.all([0, 1, 2, 3].map(() => new Promise((resolve, reject) => {
        const w = new Worker(source, { eval: true });
        w.once('message', resolve);
        w.once('error', reject);
      })));
      for (const r of results) assert.deepStrictEqual(r, want);
    });
  });

  // Strings up to 1,024 UTF-16 units are encoded into a stack buffer sized
  // for 3 UTF-8 bytes per unit plus the NUL: these fill it exactly.
  it('strings of 1,023 to 1,025 units of 3 UTF-8 bytes each (the stack buffer\'s edge)', function () {
    for (const unit of ['\u4e2d', '\ud800', '\udfff', '\uffff']) {
      for (const n of [1023, 1024, 1025]) {
        const s = unit.repeat(n);
        for (const alg of ['sha256', 'sha3-256']) {
          assert.strictEqual(hash(alg, s), crypto.createHash(alg).update(s).digest('hex'), `${alg} ${n}x${escape(unit)}`);
        }
      }
    }
  });

  // A name that only case-folds to one already used (the Kelvin sign K,
  // U+212A, lower-cases to 'k'; the long s, U+017F, and the dotless i,
  // U+0131, upper-case to 'S' and 'I') is no name OpenSSL or node:crypto
  // knows: it is refused after the name it folds to was used, as on a
  // first call, whatever the name caches hold.
  const LOOKALIKES = [['blake2b512', 'bla\u212Ae2b512'], ['sha256', '\u017Fha256'], ['ripemd160', 'r\u0131pemd160']]
    .filter(([name, lookalike]) => require('crypto').getHashes().includes(name) && refusedByRuntime(lookalike));

  it('a name that only case-folds to a cached one is refused: ERR_CRYPTO_INVALID_DIGEST', async function () {
    const { hashMany, hashAsync, hashStream } = require('..');
    const calls = [
      ['hash', (alg) => hash(alg, 'd')],
      ['hash, base64', (alg) => hash(alg, 'd', 'base64')],
      ['hash, buffer', (alg) => hash(alg, 'd', 'buffer')],
      ['hash, options', (alg) => hash(alg, 'd', { outputEncoding: 'hex' })],
      ['hashMany', (alg) => hashMany(alg, ['d'])],
    ];
    const names = [...LOOKALIKES, ['shake128', 'sha\u212Ae128']].filter(([, lookalike]) => refusedByRuntime(lookalike));
    for (const [name, lookalike] of names) {
      for (const [, call] of calls) {
        throwsWith(() => call(lookalike), TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${lookalike}`);
        for (const [, prime] of calls) {
          prime(name);
          throwsWith(() => call(lookalike), TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${lookalike}`);
        }
      }
      hash(name, 'd');
      for (const job of [() => hashAsync(lookalike, 'd'), () => hashStream(lookalike, ['d'])]) {
        await assert.rejects(job(), { name: 'TypeError', code: 'ERR_CRYPTO_INVALID_DIGEST' });
      }
    }
  });
});
