'use strict';
// @native-only: scripts/build.js's build of the addon, by how the package is installed
// scripts/build.js's isCheckout: only the package's own development
// checkout builds loudly; a dependency is quiet however it is installed
// (registry, tarball, scoped, folder, link, workspace, git).
const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { isCheckout } = require('../scripts/build');
const { packageCopy } = require('../scripts/test-prebuilds');

// What npm sets for an install script when it installs the project in
// `project` (npm_config_local_prefix; INIT_CWD is where npm was started).
function npmEnv(project, cwd = project) {
  return { npm_lifecycle_event: 'install', npm_config_local_prefix: project, INIT_CWD: cwd };
}

describe('isCheckout', function () {
  const root = path.resolve('/nowhere/src/fast-hash');
  const app = path.resolve('/nowhere/app');
  const inApp = (...parts) => path.join(app, 'node_modules', ...parts);
  const clone = path.resolve('/nowhere/.npm/_cacache/tmp/git-cloneAbC123');
  const gitSpec = 'git+ssh://git@example.com/fast-hash.git#0123456789abcdef0123456789abcdef01234567';
  const cases = [
    // The development checkout.
    ['run by hand in a checkout', root, {}, true],
    ['npm ci in a checkout', root, npmEnv(root), true],
    ['npm ci in a folder of a checkout', root, npmEnv(root, path.join(root, 'test')), true],
    ['a package manager that sets only INIT_CWD, in a checkout', root,
      { npm_lifecycle_event: 'install', INIT_CWD: root }, true],
    // Dependencies.
    ['a dependency', inApp('fast-hash'), npmEnv(app), false],
    ['a dependency, run by hand', inApp('fast-hash'), {}, false],
    ['a dependency under a scope (an alias)', inApp('@scope', 'fast-hash'), npmEnv(app), false],
    ["a dependency in a scoped package's node_modules", inApp('@scope', 'pkg', 'node_modules', 'fast-hash'),
      npmEnv(app), false],
    ["a dependency in a scoped package's node_modules, run by hand",
      inApp('@scope', 'pkg', 'node_modules', 'fast-hash'), {}, false],
    ["a dependency in pnpm's store", inApp('.pnpm', 'fast-hash@0.1.0', 'node_modules', 'fast-hash'), npmEnv(app), false],
    ["a dependency in pnpm's store, scoped", inApp('.pnpm', '@scope+fast-hash@0.1.0', 'node_modules', '@scope', 'fast-hash'),
      npmEnv(app), false],
    ['a dependency deep in a node_modules folder', inApp('@scope', 'pkg', 'vendor', 'fast-hash'), {}, false],
    ['a file: dependency or a link (the real folder, outside node_modules)', root, npmEnv(app), false],
    ['a file: dependency, npm started in a folder of the project', root, npmEnv(app, path.join(app, 'lib')), false],
    ['a workspace', path.resolve('/nowhere/mono/packages/fast-hash'), npmEnv(path.resolve('/nowhere/mono')), false],
    ['a workspace, npm started in it', path.resolve('/nowhere/mono/packages/fast-hash'),
      npmEnv(path.resolve('/nowhere/mono'), path.resolve('/nowhere/mono/packages/fast-hash')), false],
    ["a git dependency, prepared in npm's clone", clone, { ...npmEnv(clone), _PACOTE_NO_PREPARE_: gitSpec }, false],
    ["a git dependency's clone, without npm's mark", clone, npmEnv(clone), false],
    ['a git dependency cloned elsewhere, with npm\'s mark', root, { ...npmEnv(root), _PACOTE_NO_PREPARE_: gitSpec }, false],
    ['a package manager that names no project', root, { npm_lifecycle_event: 'install' }, false],
  ];
  for (const [what, dir, env, want] of cases) {
    it(`${want ? 'is' : 'is not'} ${what}`, function () {
      assert.strictEqual(isCheckout(env, dir), want);
    });
  }

  it('compares real paths: a link to the checkout, npm started there, is the checkout', function () {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-isCheckout-'));
    try {
      const real = path.join(tmp, 'fast-hash');
      fs.mkdirSync(real);
      fs.symlinkSync(real, path.join(tmp, 'link'), 'dir');
      assert.strictEqual(isCheckout(npmEnv(path.join(tmp, 'link')), real), true);
      assert.strictEqual(isCheckout(npmEnv(tmp), real), false);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

const PLANTED = '#error planted by build-isCheckout.test.js';
const REASON = `../src/hash.c:1:2: error: ${PLANTED}`;

// A copy of the package at `dir` whose src/hash.c starts with an #error.
// linked: its node_modules is the checkout's; else it has none (npm would
// install into the checkout's) and no devDependencies (npm installs them in
// a git dependency's clone, and in the package's own folder).
function plantedCopy(dir, linked) {
  fs.mkdirSync(dir, { recursive: true });
  packageCopy(dir);
  const file = path.join(dir, 'src', 'hash.c');
  fs.writeFileSync(file, `${PLANTED}\n${fs.readFileSync(file, 'utf8')}`);
  if (linked) return dir;
  fs.unlinkSync(path.join(dir, 'node_modules'));
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  delete pkg.devDependencies;
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  return dir;
}

// This process's environment without what a package manager sets for a
// script (mocha may run under npx), with `env`.
function ownEnv(env) {
  const own = Object.entries(process.env).filter(([k]) => !/^(npm_|INIT_CWD$|_PACOTE_)/i.test(k));
  return { ...Object.fromEntries(own), FAST_HASH_FORCE_BUILD: '', FAST_HASH_BUILD_VERBOSE: '', ...env };
}

function writeJson(file, value) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

// The install's one line about the addon: the notice with the planted error.
function assertNotice(out) {
  const notices = out.split('\n').filter((line) => line.includes('fast-hash: the addon was not built ('));
  assert.strictEqual(notices.length, 1, out);
  assert.ok(notices[0].includes(`fast-hash: the addon was not built (${REASON}); using the JavaScript`), out);
}

describe('scripts/build.js, installed as a dependency with a compile error', function () {
  this.timeout(300000);
  let tmp;
  let cache;
  before(function () {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-isCheckout-'));
    cache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
  });
  after(function () {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  // npm install in `dir`, the install scripts' output shown.
  function npmInstall(dir, args = []) {
    const res = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--foreground-scripts',
      ...args], { cwd: dir, encoding: 'utf8', env: ownEnv({ npm_config_cache: cache, npm_config_update_notifier: 'false' }) });
    return { status: res.status, out: `${res.stdout}${res.stderr}` };
  }

  for (const scoped of [['@scope', 'fast-hash'], ['@scope', 'pkg', 'node_modules', 'fast-hash']]) {
    it(`exits 0 with the notice in node_modules/${scoped.join('/')}`, function () {
      const dir = plantedCopy(path.join(tmp, 'scoped', 'node_modules', ...scoped), true);
      const project = path.join(tmp, 'scoped');
      for (const env of [{ npm_lifecycle_event: 'install', npm_config_local_prefix: project, INIT_CWD: project }, {}]) {
        const res = spawnSync(process.execPath, [path.join(dir, 'scripts', 'build.js')],
          { cwd: dir, encoding: 'utf8', env: ownEnv(env) });
        const out = `${res.stdout}${res.stderr}`;
        assert.strictEqual(res.status, 0, `${JSON.stringify(env)}: ${out}`);
        assertNotice(out);
      }
    });
  }

  it('exits 0 with the notice as a file: dependency (npm links the folder)', function () {
    plantedCopy(path.join(tmp, 'file', 'fast-hash'), false);
    const app = path.join(tmp, 'file', 'app');
    writeJson(path.join(app, 'package.json'), { name: 'app', private: true, dependencies: { 'fast-hash': 'file:../fast-hash' } });
    const { status, out } = npmInstall(app);
    assert.strictEqual(status, 0, out);
    assert.ok(fs.lstatSync(path.join(app, 'node_modules', 'fast-hash')).isSymbolicLink(), 'npm did not link the folder');
    assertNotice(out);
  });

  it('exits 0 with the notice as a workspace', function () {
    const mono = path.join(tmp, 'mono');
    plantedCopy(path.join(mono, 'packages', 'fast-hash'), false);
    writeJson(path.join(mono, 'package.json'), { name: 'mono', private: true, workspaces: ['packages/*'] });
    const { status, out } = npmInstall(mono);
    assert.strictEqual(status, 0, out);
    assertNotice(out);
  });

  it('exits 0 with the notice as a git dependency (in the clone npm prepares, then in node_modules)', function () {
    const repo = plantedCopy(path.join(tmp, 'git', 'fast-hash'), false);
    const git = (...args) => {
      const res = spawnSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args],
        { cwd: repo, encoding: 'utf8' });
      assert.strictEqual(res.status, 0, res.stderr);
    };
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'planted');
    const app = path.join(tmp, 'git', 'app');
    writeJson(path.join(app, 'package.json'), { name: 'app', private: true,
      dependencies: { 'fast-hash': `git+file://${repo}` } });
    const { status, out } = npmInstall(app);
    assert.strictEqual(status, 0, out);
    assert.ok(fs.existsSync(path.join(app, 'node_modules', 'fast-hash', 'package.json')), out);
    assertNotice(out);
  });

  it("fails loudly when npm installs the package's own folder (the checkout)", function () {
    const dir = plantedCopy(path.join(tmp, 'checkout', 'fast-hash'), false);
    const { status, out } = npmInstall(dir);
    assert.notStrictEqual(status, 0, out);
    assert.ok(out.includes(REASON), out);
    assert.doesNotMatch(out, /the addon was not built/);
  });
});
