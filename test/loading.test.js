'use strict';
const assert = require('assert');
const path = require('path');
const { spawnSync } = require('child_process');
const { pathToFileURL } = require('url');
const fastHash = require('..');

describe('loading', function () {
  it('CommonJS exports exactly the public functions', function () {
    assert.deepStrictEqual(Object.keys(fastHash).sort(),
      ['Hash', 'Hmac', 'createHash', 'createHasher', 'createHmac', 'createHmacKey', 'getHashes', 'hash', 'hashAsync', 'hashFile', 'hashFileSync',
        'hashInto', 'hashMany', 'hashStream', 'hmac', 'hmacAsync', 'hmacStream', 'implementation', 'verifyHmac']);
  });

  it('ESM import gives the same function objects as require()', async function () {
    // A file: URL, as import() needs on Windows (a drive letter reads as a scheme).
    const esm = await import(pathToFileURL(path.join(__dirname, '..', 'lib', 'index.mjs')).href);
    for (const name of Object.keys(fastHash)) assert.strictEqual(esm[name], fastHash[name], name);
    assert.strictEqual(esm.default, fastHash);
  });

  // (Deno's node shim has no --input-type=module -e.)
  (process.versions.deno ? it.skip : it)('the package name resolves to both entries (exports map)', function () {
    const root = path.join(__dirname, '..');
    const src = `import { hash } from 'fast-hash'; import cjs from 'fast-hash';
      if (hash !== cjs.hash) process.exit(2);
      console.log(hash('sha256', 'abc'), require('fast-hash').hash === hash);`;
    const res = spawnSync(process.execPath,
      ['--input-type=module', '-e', `import { createRequire } from 'module'; const require = createRequire(${JSON.stringify(path.join(root, 'x.js'))}); ${src}`],
      { cwd: root, encoding: 'utf8' });
    assert.strictEqual(res.status, 0, res.stderr);
    assert.strictEqual(res.stdout.trim(),
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad true');
  });
});

// Which implementation runs, and what loading does when the addon cannot.
describe('implementation', function () {
  const root = path.join(__dirname, '..');
  const otherRuntime = process.versions.bun !== undefined || process.versions.deno !== undefined;
  // A Node older than `engines` allows gets the JavaScript implementation.
  const oldNode = Number(process.versions.node.split('.')[0]) < 20;
  // A child that prints `implementation` and a digest; `preload` runs first.
  function child(env, preload = '') {
    const src = `${preload}
      const f = require(${JSON.stringify(root)});
      console.log(f.implementation, f.hash('sha256', 'abc'), f.hash('shake128', 'abc', { outputLength: 4 }));`;
    return spawnSync(process.execPath, ['-e', src], {
      encoding: 'utf8', env: { ...process.env, FAST_HASH_IMPLEMENTATION: '', ...env },
    });
  }
  const ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad 5881092d';
  // Makes the addon unloadable, as a missing binary or a failed dlopen does.
  const NO_ADDON = `const M = require('module'); const load = M._load;
    M._load = function (request, ...rest) {
      if (/native(\\.js)?$/.test(request)) throw new Error('no binary for this platform');
      return load.call(this, request, ...rest);
    };`;

  it('is exported as native or js, and says which runs', function () {
    assert.ok(['native', 'js'].includes(fastHash.implementation));
    const want = process.env.FAST_HASH_IMPLEMENTATION === 'js' || otherRuntime || oldNode ? 'js' : 'native';
    assert.strictEqual(fastHash.implementation, want);
  });

  it('FAST_HASH_IMPLEMENTATION=js selects the JavaScript implementation, silently', function () {
    const res = child({ FAST_HASH_IMPLEMENTATION: 'js' });
    assert.strictEqual(res.status, 0, res.stderr);
    assert.strictEqual(res.stdout.trim(), `js ${ABC}`);
    assert.strictEqual(res.stderr, '');
  });

  // The stand-in failure patches Node's module loader, which Bun and Deno
  // do not go through (there the addon never loads: the test below).
  (otherRuntime ? it.skip : it)('an addon that cannot load falls back to js without a word', function () {
    const res = child({}, NO_ADDON);
    assert.strictEqual(res.status, 0, res.stderr);
    assert.strictEqual(res.stdout.trim(), `js ${ABC}`);
    assert.strictEqual(res.stderr, '');
  });

  (otherRuntime ? it.skip : it)('FAST_HASH_IMPLEMENTATION=native makes a load failure an error at load, with the reason', function () {
    const res = child({ FAST_HASH_IMPLEMENTATION: 'native' }, `${NO_ADDON}
      try { require(${JSON.stringify(root)}); } catch (e) { console.log(e.code, e.message); process.exit(0); }
      process.exit(3);`);
    assert.strictEqual(res.status, 0, res.stderr);
    assert.match(res.stdout, /^ERR_FAST_HASH_NATIVE_UNAVAILABLE .*native.*no binary for this platform/);
  });

  // A Node outside `engines` (faked here by its version, so the rule is
  // tested on the Node that builds the addon): the JavaScript
  // implementation by itself, the addon when it is asked for.
  (otherRuntime ? it.skip : it)('a Node outside engines gets js, unless FAST_HASH_IMPLEMENTATION=native asks for the addon', function () {
    const OLD = "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '18.20.8' } });";
    assert.strictEqual(child({}, OLD).stdout.trim(), `js ${ABC}`);
    const forced = child({ FAST_HASH_IMPLEMENTATION: 'native' }, OLD);
    assert.strictEqual(forced.status, 0, forced.stderr);
    assert.strictEqual(forced.stdout.trim(), `native ${ABC}`);
  });

  // Bun and Deno have no OpenSSL symbols for the addon: its dlopen fails
  // (it binds every symbol at load) and the process goes on.
  (otherRuntime ? it : it.skip)('on a runtime without Node\'s OpenSSL, forcing native throws instead of ending the process', function () {
    const res = child({ FAST_HASH_IMPLEMENTATION: 'native' },
      `try { require(${JSON.stringify(root)}); } catch (e) { console.log(e.code); process.exit(0); }`);
    assert.strictEqual(res.signal, null, res.stderr);
    assert.strictEqual(res.status, 0, res.stderr);
    assert.strictEqual(res.stdout.trim(), 'ERR_FAST_HASH_NATIVE_UNAVAILABLE');
  });

  // Node 18 (and 20 before 20.20) abort in napi_get_buffer_info on a value
  // that is not a view; the addon never asks it there (src/args.c). Each
  // call puts junk in one place where the binding reads data, a key or an
  // output Buffer (in the order of lib/binding/index.js) and must get
  // ERR_INVALID_ARG_TYPE from that reader, with its message: on Node 18 (the
  // matrix's node18 run) it is the guard that stops the abort, and on this
  // Node a reader that asked napi_get_buffer_info wrongly would abort here.
  // The same call with a string (a Buffer for an output) in that place
  // succeeds, so the junk is the one thing wrong. A key is read by the data
  // reader, whose message names the data.
  (otherRuntime ? it.skip : it)('the addon, forced, takes strings and refuses junk data, keys and outputs with a coded error naming the argument, on this Node without aborting', function () {
    const res = child({ FAST_HASH_IMPLEMENTATION: 'native' }, `
      const b = require(${JSON.stringify(path.join(root, 'lib', 'binding', 'native.js'))});
      const op = b.resolve('sha256').id;
      const { hex, buffer } = b.encodings;
      const key = b.hmacKeyNew(op, Buffer.from('k'));
      const MESSAGE = { data: 'The data must be a string, TypedArray or DataView', output: 'The output must be a Buffer' };
      // [the argument, its reader, the call with v there, a value it takes]
      const PLACES = [
        ['hash data', 'data', (v) => b.hash(op, hex, v, 32), 'abc'],
        ['hash output', 'output', (v) => b.hash(op, buffer, 'abc', 32, v), Buffer.alloc(32)],
        ['hmac key', 'data', (v) => b.hmac(op, hex, v, 'abc'), 'k'],
        ['hmac data', 'data', (v) => b.hmac(op, hex, 'k', v), 'abc'],
        ['hmac output', 'output', (v) => b.hmac(op, buffer, 'k', 'abc', v), Buffer.alloc(32)],
        ['hmacKeyDigest data', 'data', (v) => b.hmacKeyDigest(key, hex, v), 'abc'],
        ['hashMany input', 'data', (v) => b.hashMany(op, hex, 32, undefined, 'a', v), 'b'],
        ['hasherUpdate data', 'data', (v) => b.hasherUpdate(b.hasherNew(op, 32), v), 'abc'],
        ['hashPrefix data', 'data', (v) => b.hashPrefix(op, hex, v, 0, 32), 'abc'],
      ];
      const JUNK = [1, {}, null, [], () => 1, true, Symbol('s'), 1n];
      const wrong = [];
      for (const [where, reader, call, valid] of PLACES) {
        try { call(valid); } catch (e) { wrong.push(where + ' refused ' + typeof valid + ': ' + e.code + ' ' + e.message); }
        for (const junk of JUNK) {
          try {
            call(junk);
            wrong.push(where + ' took ' + typeof junk);
          } catch (e) {
            if (e.code !== 'ERR_INVALID_ARG_TYPE' || e.message !== MESSAGE[reader]) {
              wrong.push(where + ' (' + typeof junk + '): ' + e.code + ' ' + e.message);
            }
          }
        }
      }
      console.log(JSON.stringify(wrong));`);
    assert.strictEqual(res.signal, null, res.stderr);
    assert.strictEqual(res.status, 0, res.stderr);
    assert.deepStrictEqual(res.stdout.trim().split('\n'), ['[]', `native ${ABC}`]);
  });

  // Node 25+ warns (DEP0198) when a SHAKE digest is made without a length;
  // fast-hash always names one, so nothing is printed.
  it('SHAKE with an outputLength prints no deprecation warning (DEP0198), either implementation', function () {
    for (const impl of ['native', 'js']) {
      if (impl === 'native' && otherRuntime) continue;
      const res = spawnSync(process.execPath, ['-e', `
        const f = require(${JSON.stringify(root)});
        f.hash('shake128', 'test', { outputLength: 16 });
        f.hashFileSync('shake256', ${JSON.stringify(path.join(root, 'package.json'))}, { outputLength: 5 });
        f.hashMany('shake256', ['a'], { outputLength: 5 });
        f.getHashes().filter((n) => /shake/i.test(n)).forEach((n) => f.hash(n, 'x', { outputLength: 8 }));`],
      { encoding: 'utf8', env: { ...process.env, FAST_HASH_IMPLEMENTATION: impl } });
      assert.strictEqual(res.status, 0, res.stderr);
      assert.doesNotMatch(res.stderr, /DEP0198|Warning/, `${impl}: ${res.stderr}`);
    }
  });
});
