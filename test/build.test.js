'use strict';
// @native-only: scripts/build.js compiles the addon
// scripts/build.js, the install step: an install never fails because the
// addon cannot be built; a build someone asked for fails loudly.
const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { whyFailed, forceAsked, errorLine } = require('../scripts/build');
const { packageCopy } = require('../scripts/test-prebuilds');

const NOTICE = /^fast-hash: the addon was not built \((.+)\); using the JavaScript implementation .*then run `npm rebuild fast-hash`\. Log: (.+)$/;

// Log excerpts of failed builds, and the reason each notice gives.
const FAILURES = [
  { what: 'a compile error', want: "../src/hash.c:1:2: error: #error planted",
    log: ['  CC(target) Release/obj.target/fast_hash/src/hash.o', "../src/hash.c:1:2: error: #error planted",
      '    1 | #error planted', 'gyp ERR! stack Error: `make` failed with exit code: 2'] },
  { what: "MSVC's error", want: 'hash.c(1): fatal error C1189: #error: planted',
    log: ['hash.c(1): fatal error C1189: #error: planted', 'gyp ERR! stack Error: `msbuild` failed with exit code: 1'] },
  { what: 'no Python', want: 'Could not find any Python installation to use',
    log: ['gyp ERR! find Python Python is not set from command line or npm configuration',
      'gyp ERR! stack Error: Could not find any Python installation to use', 'gyp ERR! not ok '] },
  { what: 'no make', want: 'not found: make',
    log: ['gyp ERR! build error ', 'gyp ERR! stack Error: not found: make', 'gyp ERR! not ok '] },
  { what: 'no C compiler', want: "FileNotFoundError: [Errno 2] No such file or directory: 'cc'",
    log: ['Traceback (most recent call last):', '  File "gyp_main.py", line 45, in <module>',
      "FileNotFoundError: [Errno 2] No such file or directory: 'cc'",
      'gyp ERR! stack Error: `gyp` failed with exit code: 1'] },
  { what: "make's missing program", want: 'make: cc: No such file or directory',
    log: ['make: cc: No such file or directory', 'gyp ERR! stack Error: `make` failed with exit code: 2'] },
  { what: 'headers out of reach', want: 'getaddrinfo ENOTFOUND nodejs.org',
    log: ['gyp http GET https://nodejs.org/download/release/v20.20.2/node-v20.20.2-headers.tar.gz',
      'gyp ERR! stack Error: getaddrinfo ENOTFOUND nodejs.org'] },
  { what: 'nothing known', want: 'gyp ERR! not ok', log: ['gyp ERR! cwd /x', 'gyp ERR! not ok'] },
  { what: 'an empty log', want: 'node-gyp failed', log: [] },
];

describe('whyFailed', function () {
  for (const f of FAILURES) {
    it(`names ${f.what}`, function () {
      assert.strictEqual(whyFailed(f.log.join('\n')), f.want);
    });
  }

  it('keeps the reason to one line of at most 200 characters', function () {
    const got = whyFailed(`x.c:1:1: error: ${'y'.repeat(500)}\n`);
    assert.strictEqual(got.length, 200);
    assert.ok(!got.includes('\n'));
  });
});

// The install script's one flag: asked for exactly when the arguments hold
// the string --force, as argv.includes('--force') said, and no argument list
// makes the parse throw (an install must not fail over its arguments).
describe('forceAsked', function () {
  it('is true exactly when an argument is --force, and never throws', function () {
    const pool = ['--force', '--force=x', '--force=', '--', '-', '-f', '-force', 'x', '--foo', '--foo=--force',
      '--no-force', '-abc', '--=x', '---', '--FORCE'];
    const lists = [[]];
    for (let n = 1; n <= 3; n++) {
      for (const prev of lists.filter((l) => l.length === n - 1)) for (const a of pool) lists.push([...prev, a]);
    }
    for (const args of lists) assert.strictEqual(forceAsked(args), args.includes('--force'), JSON.stringify(args));
  });
});

// What was thrown, for the install's one line (why a prebuild did not
// load): whatever it is, one line, never empty, and never a throw of its own.
describe('errorLine', function () {
  const noMessage = 'an error with no message';
  const cases = [
    ['an Error', new Error('planted'), 'planted'],
    ["an Error's first line", new Error('planted\n  at somewhere'), 'planted'],
    ['an Error with an empty message', new Error(''), noMessage],
    ['an Error with only a code', Object.assign(new Error(''), { code: 'ERR_DLOPEN_FAILED' }), 'ERR_DLOPEN_FAILED'],
    ['a string', 'planted', 'planted'],
    ['an empty string', '', noMessage],
    ['a number', 42, '42'],
    ['null', null, noMessage],
    ['undefined', undefined, noMessage],
    ['a symbol', Symbol('planted'), 'Symbol(planted)'],
    ['an object with no string form', Object.create(null), noMessage],
    ['an object whose toString throws', { toString() { throw new Error('no'); } }, noMessage],
  ];
  for (const [what, thrown, want] of cases) {
    it(`names ${what}`, function () {
      assert.strictEqual(errorLine(thrown), want);
    });
  }
});

// npm runs a script named pre<name> before `npm run <name>`: a script that
// happens to be named so runs where it was not meant to (scripts/prebuild.js,
// which makes the prebuilds on Linux only, before every `npm run build`).
describe('npm run build', function () {
  it('runs no other script first or after (package.json has no pre- or post-hook of a script)', function () {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
    const hooks = Object.keys(scripts).flatMap((name) => ['pre', 'post'].map((when) => `${when}${name}`))
      .filter((hook) => hook in scripts);
    assert.deepStrictEqual(hooks, []);
  });
});

// A copy of the package, its node_modules linked to the checkout's; with
// `plant`, src/hash.c starts with an #error.
function copy(dir, plant) {
  fs.mkdirSync(dir, { recursive: true });
  packageCopy(dir);
  if (plant) {
    const file = path.join(dir, 'src', 'hash.c');
    fs.writeFileSync(file, `#error planted by build.test.js\n${fs.readFileSync(file, 'utf8')}`);
  }
  return dir;
}

// This process's environment without what a package manager sets for a
// script (mocha may run under npx), so a run is by hand unless `env` says.
function handEnv(env) {
  const own = Object.entries(process.env).filter(([k]) => !/^(npm_|INIT_CWD$|_PACOTE_)/i.test(k));
  return { ...Object.fromEntries(own), FAST_HASH_FORCE_BUILD: '', FAST_HASH_BUILD_VERBOSE: '', ...env };
}

function build(dir, args = [], env = {}, nodeArgs = []) {
  const res = spawnSync(process.execPath, [...nodeArgs, path.join(dir, 'scripts', 'build.js'), ...args],
    { cwd: dir, encoding: 'utf8', env: handEnv(env) });
  return { status: res.status, signal: res.signal, out: `${res.stdout}${res.stderr}` };
}

// What npm sets for the install script of a package in `project`.
function npmEnv(project) {
  return { npm_lifecycle_event: 'install', npm_config_local_prefix: project, INIT_CWD: project };
}

// What the copy's library loads, and whether it digests as node:crypto does.
function usesJs(dir) {
  const src = `const f = require('.'); const c = require('crypto');
    console.log(f.implementation, f.hash('sha256', 'abc') === c.createHash('sha256').update('abc').digest('hex'));`;
  const res = spawnSync(process.execPath, ['-e', src],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, FAST_HASH_IMPLEMENTATION: '' } });
  return res.stdout.trim();
}

describe('scripts/build.js', function () {
  this.timeout(120000);
  let tmp;
  before(function () {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-build-test-'));
  });
  after(function () {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  describe('installed as a dependency, with a compile error', function () {
    let dir;
    before(function () {
      dir = copy(path.join(tmp, 'dep', 'node_modules', 'fast-hash'), true);
    });

    it('exits 0 with one line naming the error, and the library runs on JavaScript', function () {
      const { status, out } = build(dir);
      assert.strictEqual(status, 0, out);
      const lines = out.trim().split('\n');
      assert.strictEqual(lines.length, 1, out);
      const [, reason, log] = lines[0].match(NOTICE) || [];
      assert.strictEqual(reason, '../src/hash.c:1:2: error: #error planted by build.test.js', out);
      assert.strictEqual(log, path.join(dir, 'fast-hash-build.log'));
      assert.match(fs.readFileSync(log, 'utf8'), /gyp ERR! stack Error: `make` failed/);
      assert.strictEqual(usesJs(dir), 'js true');
    });

    it('fails loudly when the build is asked for (FAST_HASH_FORCE_BUILD=1, --force)', function () {
      for (const [args, env] of [[[], { FAST_HASH_FORCE_BUILD: '1' }], [['--force'], {}]]) {
        const { status, out } = build(dir, args, env);
        assert.notStrictEqual(status, 0, `${args} ${JSON.stringify(env)}: ${out}`);
        assert.match(out, /error: #error planted by build\.test\.js/);
        assert.match(out, /gyp ERR! not ok/);
      }
    });
  });

  it("fails loudly in the package's own checkout (npm ci in a clone, and run by hand there)", function () {
    const dir = copy(path.join(tmp, 'checkout'), true);
    for (const env of [npmEnv(dir), {}]) {
      const { status, out } = build(dir, [], env);
      assert.notStrictEqual(status, 0, `${JSON.stringify(env)}: ${out}`);
      assert.match(out, /error: #error planted by build\.test\.js/);
    }
  });

  // A node-gyp for npm_config_node_gyp (npm's setting of the node-gyp to
  // run) that does only `source`, so no compile is waited for.
  function fakeGyp(name, source) {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, source);
    return file;
  }

  describe('installed as a dependency, with a prebuild that does not load', function () {
    const rel = path.join('prebuilds', `${process.platform}-${process.arch}`, 'fast-hash.node');
    const start = (why, problem = 'planted by build.test.js') => `fast-hash: the addon was not built (${problem}); ` +
      `${rel} does not load here (${why}); using the JavaScript implementation `;
    let dir;
    let env;
    let hook;
    before(function () {
      dir = copy(path.join(tmp, 'broken', 'node_modules', 'fast-hash'), false);
      fs.mkdirSync(path.join(dir, path.dirname(rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), 'not a binary\n');
      env = { npm_config_node_gyp: fakeGyp('failing-gyp.js',
        "console.error('gyp ERR! stack Error: planted by build.test.js');\nprocess.exitCode = 1;\n") };
      // Node's loader for .node files, made to throw what FAST_HASH_TEST_THROW names.
      hook = path.join(tmp, 'throw-on-load.js');
      fs.writeFileSync(hook, `const thrown = { string: 'planted', empty: new Error(''), null: null, undefined: undefined };
require('module')._extensions['.node'] = () => { throw thrown[process.env.FAST_HASH_TEST_THROW]; };\n`);
    });

    it("names the prebuild and why in its one line, the notice, and exits 0 (the loader's own error)", function () {
      const { status, out } = build(dir, [], env);
      assert.strictEqual(status, 0, out);
      assert.strictEqual(out.trim().split('\n').length, 1, out);
      const [, why] = out.match(/does not load here \((.+?)\); using/) || [];
      assert.ok(why, out);
      assert.ok(out.startsWith(start(why)), out);
    });

    for (const [thrown, what, why] of [['string', 'a string', 'planted'],
      ['empty', 'an Error with no message', 'an error with no message'],
      ['null', 'null', 'an error with no message'], ['undefined', 'undefined', 'an error with no message']]) {
      it(`names the prebuild and why when the loader throws ${what}`, function () {
        const { status, out } = build(dir, [], { ...env, FAST_HASH_TEST_THROW: thrown }, ['--require', hook]);
        assert.strictEqual(status, 0, out);
        assert.strictEqual(out.trim().split('\n').length, 1, out);
        assert.ok(out.startsWith(start(why)), out);
      });
    }

    it('prints the prebuild only in the notice with FAST_HASH_BUILD_VERBOSE=1', function () {
      const { status, out } = build(dir, [], { ...env, FAST_HASH_BUILD_VERBOSE: '1' });
      assert.strictEqual(status, 0, out);
      assert.match(out, /gyp ERR! stack Error: planted by build\.test\.js/);
      const named = out.split('\n').filter((line) => line.includes(rel));
      assert.strictEqual(named.length, 1, out);
      const [, why] = named[0].match(/does not load here \((.+?)\); using/) || [];
      // No log to read the reason from: node-gyp's output went to the terminal.
      assert.ok(why && named[0].startsWith(start(why, 'node-gyp failed')), out);
    });
  });

  it('names a prebuild that does not load in its one line when it compiled', function () {
    const dir = copy(path.join(tmp, 'broken-ok', 'node_modules', 'fast-hash'), false);
    const rel = path.join('prebuilds', `${process.platform}-${process.arch}`, 'fast-hash.node');
    fs.mkdirSync(path.join(dir, path.dirname(rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), 'not a binary\n');
    const { status, out } = build(dir);
    assert.strictEqual(status, 0, out);
    const [, why] = out.match(/does not load here \((.+?)\) \(log: /) || [];
    assert.ok(why, out);
    assert.strictEqual(out, `fast-hash: compiled ${path.join('build', 'Release', 'fast_hash.node')}; ` +
      `${rel} does not load here (${why}) (log: ${path.join(dir, 'fast-hash-build.log')})\n`);
  });

  describe('node-gyp killed by a signal', function () {
    let dir;
    let env;
    before(function () {
      dir = copy(path.join(tmp, 'killed', 'node_modules', 'fast-hash'), false);
      env = { npm_config_node_gyp: fakeGyp('killed-gyp.js', "process.kill(process.pid, 'SIGKILL');\n") };
    });

    it('is a failed build: the notice names the signal, and the install exits 0', function () {
      const { status, out } = build(dir, [], env);
      assert.strictEqual(status, 0, out);
      assert.ok(out.startsWith('fast-hash: the addon was not built (node-gyp was killed by SIGKILL); using '), out);
      assert.strictEqual(out.trim().split('\n').length, 1, out);
    });

    it('fails a build that was asked for (--force), naming the signal', function () {
      const { status, out } = build(dir, ['--force'], env);
      assert.notStrictEqual(status, 0, out);
      assert.match(out, /^fast-hash: cannot compile: node-gyp was killed by SIGKILL$/m);
    });
  });

  it('says so in one line when it compiled', function () {
    const dir = copy(path.join(tmp, 'ok', 'node_modules', 'fast-hash'), false);
    const { status, out } = build(dir);
    assert.strictEqual(status, 0, out);
    assert.strictEqual(out, `fast-hash: compiled ${path.join('build', 'Release', 'fast_hash.node')} ` +
      `(log: ${path.join(dir, 'fast-hash-build.log')})\n`);
  });
});

// As a user meets it: the packed tarball, with no binary in it, installed
// by npm with a PATH that has node, npm and sh and nothing else (no compiler,
// make or Python), as on Alpine or a bare Windows or macOS.
describe('npm install without a binary or build tools', function () {
  this.timeout(300000);
  let tmp;
  let tarball;
  let env;
  before(function () {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-no-tools-'));
    const src = copy(path.join(tmp, 'src'), false);
    const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp],
      { cwd: src, encoding: 'utf8' });
    assert.strictEqual(packed.status, 0, packed.stderr);
    const [info] = JSON.parse(packed.stdout);
    assert.ok(!info.files.some((f) => f.path.endsWith('.node')), 'the tarball holds a binary');
    tarball = path.join(tmp, info.filename);
    const bin = path.join(tmp, 'bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    fs.symlinkSync(fs.realpathSync(whichSync('npm')), path.join(bin, 'npm'));
    fs.symlinkSync(whichSync('sh'), path.join(bin, 'sh'));
    env = { PATH: bin, HOME: os.homedir(), npm_config_cache: npmCache(), npm_config_update_notifier: 'false' };
  });
  after(function () {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  // npm install of the tarball into a new project; the install step's output
  // is shown (--foreground-scripts).
  function install(name, extraEnv = {}) {
    const dir = path.join(tmp, name);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "consumer", "private": true }\n');
    const res = spawnSync(path.join(env.PATH, 'npm'), ['install', '--no-audit', '--no-fund', '--foreground-scripts',
      tarball], { cwd: dir, encoding: 'utf8', env: { ...env, ...extraEnv } });
    return { dir, status: res.status, out: `${res.stdout}${res.stderr}` };
  }

  it('exits 0, prints the notice once, and the JavaScript implementation gives node:crypto\'s results', function () {
    const { dir, status, out } = install('plain');
    assert.strictEqual(status, 0, out);
    const notices = out.split('\n').filter((line) => line.startsWith('fast-hash: '));
    assert.strictEqual(notices.length, 1, out);
    assert.match(notices[0], NOTICE);
    assert.doesNotMatch(out, /gyp ERR!/);
    const src = `const f = require('fast-hash'); const c = require('crypto');
      const same = ['sha256', 'sha512', 'sha3-256', 'md5'].every((a) =>
        f.hash(a, 'abc') === c.createHash(a).update('abc').digest('hex') &&
        f.hmac(a, 'key', 'abc') === c.createHmac(a, 'key').update('abc').digest('hex'));
      console.log(f.implementation, same);`;
    const res = spawnSync(process.execPath, ['-e', src], { cwd: dir, encoding: 'utf8', env });
    assert.strictEqual(res.stdout.trim(), 'js true', res.stderr);
  });

  it('fails when the build is asked for (FAST_HASH_FORCE_BUILD=1)', function () {
    const { dir, status, out } = install('forced', { FAST_HASH_FORCE_BUILD: '1' });
    assert.notStrictEqual(status, 0, out);
    assert.match(out, /gyp ERR!/);
    assert.ok(!fs.existsSync(path.join(dir, 'node_modules', 'fast-hash')), 'npm kept a failed install');
  });
});

// The first `name` on this process's PATH.
function whichSync(name) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  throw new Error(`${name} is not on PATH`);
}

// npm's cache for this user, so the new projects install node-gyp-build from it.
function npmCache() {
  const res = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' });
  return res.stdout.trim();
}
