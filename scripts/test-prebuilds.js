'use strict';
// npm run test:prebuilds: every binary the package ships, tested as a user
// gets it. The package is packed (prepack: scripts/prebuild.js builds the
// linux-x64 and linux-arm64 glibc binaries and the win32-x64 one) in a copy
// of the working tree, installed with --ignore-scripts into an empty
// project, and the correctness tests (CORRECTNESS below) are run against
// that installed package once per binary, with FAST_HASH_IMPLEMENTATION=native:
//   - the host's arch on the running Node;
//   - the other arch on its Node from the npm registry (node-linux-<arch>),
//     under qemu-user (`qemu-aarch64 -L /usr/aarch64-linux-gnu node ...`;
//     the sysroot comes from Debian's libc6-arm64-cross and
//     libstdc++6-arm64-cross), with scripts/emulated-exec.js preloaded so
//     that the children tests start with process.execPath run there too;
//   - win32-x64 on Windows Node from the npm registry (WINDOWS_NODE in
//     prebuild.js) under Wine (Debian's wine64; scripts/wine.js), in a Wine
//     prefix of its own. Wine starts the children tests spawn with
//     process.execPath itself. Node's stdout there is a file, and every
//     Wine run ends with `wineserver -k`, so nothing of Wine outlives it.
// Before mocha, each run checks that node-gyp-build picks the binary under
// test, that the library reports implementation 'native' and that it gives
// sha256("abc"); the Windows binary also so on Windows Node renamed
// (fast-hash-host.exe), since it binds to the host process, not to a file
// called node.exe.
//
// Prints one line per binary (platform, arch, what it needs of the system,
// passed/failed), then "prebuilds: N passed, N failed" for .ci/run. The
// foreign Nodes are cached like scripts/test-matrix.js's runtimes, in
// ${XDG_CACHE_HOME:-~/.cache}/fast-hash/runtimes/<package>@<version>, and
// the Wine prefix in ${XDG_CACHE_HOME:-~/.cache}/fast-hash/wine/prebuilds.
//
//   node scripts/test-prebuilds.js                  pack, install, test
//   node scripts/test-prebuilds.js win32-x64        the same, testing only
//       the binaries named (platform-arch); all are still packed
//   node scripts/test-prebuilds.js --install-tools  apt-get the missing
//       cross compilers, qemu-user, arm64 sysroot and Wine (root, Debian),
//       then exit
const { execFileSync, spawnSync } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const util = require('util');
const { TARGETS, WINDOWS_NODE, prebuildPath, requirement, missingTools, isHost, windowsNode } = require('./prebuild');
const wine = require('./wine');

const root = path.join(__dirname, '..');
const npm = 'npm';
const NODE_VERSION = '24.22.3';

// The correctness tests: known-answer vectors (test/fixtures/*.json), the
// node:crypto differential sweeps over every digest, input type, size and
// encoding (one-shot and incremental), the error cases, and the async and
// file paths (the thread pool).
const CORRECTNESS = [
  'hash.test.js', 'hmac.test.js', 'createHmacKey.test.js', 'verifyHmac.test.js',
  'hashMany.test.js', 'getHashes.test.js', 'hashAsync.test.js', 'hmacAsync.test.js',
  'hashFile.test.js', 'hashFileSync.test.js', 'createHasher.test.js', 'createHasher-hmac.test.js',
];
// Left out everywhere, by title: a wall-clock check of event-loop ticks
// during a 64 MiB hash, which measures the machine's load more than the
// binary (npm test runs it).
const TIMING_SKIPS = ['a 256 MiB hash does not block the event loop'];
// Left out under emulation too: the million-key GC child (memory, not
// correctness, and slow under emulation; npm test runs it) and the 1 MiB
// sweep, whose own 60 s timeout emulation exceeds (the one-million-"a"
// vectors still hash long inputs there).
const EMULATION_SKIPS = ['keys dropped without destroy', '1 MiB inputs, every algorithm'];
// Left out on Windows: the short-read tests write through a FIFO, which
// Windows does not have (no mkfifo; cli.test.js skips its FIFO test there
// itself). Regular files, directories and missing paths are tested there.
const WINDOWS_SKIPS = ['reads a FIFO delivered in several writes to its end'];

// A whole mocha run's limit: a test blocked in a system call (a FIFO nobody
// opens) stops the event loop, and with it mocha's own timeouts.
const RUN_LIMIT_MS = 20 * 60 * 1000;
// A whole mocha run under Wine, and one `node -e`: well above what they take
// (benchmark/README.md, "Times and scatter measured on this VM"), so only a
// hang reaches them.
const WINE_RUN_LIMIT_MS = 5 * 60 * 1000;
const STEP_LIMIT_MS = 2 * 60 * 1000;

// Debian's packages for emulating each foreign arch.
const EMULATION_PACKAGES = {
  arm64: ['qemu-user', 'libc6-arm64-cross', 'libstdc++6-arm64-cross'],
  x64: ['qemu-user', 'libc6-amd64-cross', 'libstdc++6-amd64-cross'],
};
const QEMU = { arm64: 'aarch64', x64: 'x86_64' };

function run(cmd, args, opts = {}) {
  console.error(`$ ${path.basename(cmd)} ${args.join(' ')}`);
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...opts });
}

function commandExists(cmd) {
  return spawnSync('sh', ['-c', 'command -v "$1"', 'sh', cmd], { stdio: 'ignore' }).status === 0;
}

// The sysroot qemu-user loads a foreign arch's libraries from.
function sysroot(target) {
  return `/usr/${target.triple}`;
}

// Debian packages missing to build and emulate every target.
function missingPackages() {
  const missing = new Set(missingTools());
  for (const t of TARGETS.filter((x) => !isHost(x))) {
    if (t.platform === 'win32') {
      if (!wine.installed()) missing.add('wine64');
      continue;
    }
    if (!commandExists(`qemu-${QEMU[t.arch]}`)) missing.add('qemu-user');
    const lib = path.join(sysroot(t), 'lib');
    const [, libc, libstdcxx] = EMULATION_PACKAGES[t.arch];
    if (!fs.existsSync(path.join(lib, 'libc.so.6'))) missing.add(libc);
    if (!fs.existsSync(path.join(lib, 'libstdc++.so.6'))) missing.add(libstdcxx);
  }
  return [...missing];
}

// apt-get install of whatever missingPackages() names; 0 when nothing is
// missing afterwards.
function installTools() {
  const missing = missingPackages();
  if (!missing.length) {
    console.log('prebuild tools: all present');
    return 0;
  }
  console.log(`prebuild tools: installing ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...missing]]) {
    const res = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (res.status !== 0) return 1;
  }
  const still = missingPackages();
  if (still.length) console.log(`prebuild tools: still missing ${still.join(' ')}`);
  return still.length ? 1 : 0;
}

function cacheDir() {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'fast-hash', 'runtimes');
}

// The Node binary for a foreign arch from the npm registry, installed into
// the cache on first use (--force: npm refuses a package for another CPU).
function foreignNode(arch) {
  const pkg = `node-linux-${arch}@${NODE_VERSION}`;
  const dir = path.join(cacheDir(), pkg);
  const bin = path.join(dir, 'node_modules', `node-linux-${arch}`, 'bin', 'node');
  if (!fs.existsSync(bin)) {
    run(npm, ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts',
      '--force', pkg], { stdio: ['ignore', 2, 'inherit'] });
  }
  if (!fs.existsSync(bin)) throw new Error(`npm install ${pkg} left no ${bin}`);
  return bin;
}

// The Wine prefix of these runs: ours alone, so that its `wineserver -k`
// ends nothing but them.
const WINE_PREFIX = 'prebuilds';

function wineEnd() {
  wine.end(wine.prefixDir(WINE_PREFIX));
}

// How to start Node for a target: { cmd, args, env, label, emulated, wine }.
// The host's arch runs on this Node; another Linux arch on its own Node
// under qemu-user, with emulated-exec.js preloaded (env); Windows on
// Windows Node under Wine.
function runtimeFor(target) {
  if (isHost(target)) {
    return { cmd: process.execPath, args: [], env: {}, label: `node ${process.version}`, emulated: false };
  }
  if (target.platform === 'win32') {
    const prefix = wine.ensurePrefix(WINE_PREFIX);
    return {
      cmd: wine.WINE,
      args: [windowsNode()],
      // NODE_OPTIONS: this machine's options name this machine's paths.
      env: { ...wine.env(prefix), NODE_OPTIONS: undefined },
      label: `node v${WINDOWS_NODE.split('@')[1]} (win32) under Wine`,
      emulated: false,
      wine: true,
    };
  }
  const qemu = `qemu-${QEMU[target.arch]}`;
  const preload = `--require "${path.join(__dirname, 'emulated-exec.js')}"`;
  return {
    cmd: qemu,
    args: ['-L', sysroot(target), foreignNode(target.arch)],
    env: {
      FAST_HASH_EMULATOR: JSON.stringify([qemu, '-L', sysroot(target)]),
      NODE_OPTIONS: [process.env.NODE_OPTIONS, preload].filter(Boolean).join(' '),
    },
    label: `node v${NODE_VERSION} under ${qemu}`,
    emulated: true,
  };
}

// The environment for a run on rt: the library must load the addon, and
// nothing may steer node-gyp-build away from its own detection or the
// addon off its usual paths.
function testEnv(rt) {
  const env = { ...process.env, FAST_HASH_IMPLEMENTATION: 'native', ...rt.env };
  for (const name of ['FAST_HASH_PREBUILD', 'PREBUILDS_ONLY', 'LIBC', 'npm_config_arch', 'npm_config_platform',
    'FAST_HASH_FORCE_EVP']) {
    delete env[name];
  }
  for (const name of Object.keys(env)) if (env[name] === undefined) delete env[name];
  return env;
}

// A copy of what `npm pack` reads (the working tree's tracked files), with
// the repo's node_modules for the prepack step.
function packageCopy(dir) {
  const files = run('git', ['ls-files', '-z'], { cwd: root }).split('\0').filter(Boolean);
  for (const file of files) {
    if (!fs.existsSync(path.join(root, file))) continue; // deleted in the working tree
    fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    fs.copyFileSync(path.join(root, file), path.join(dir, file));
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
}

// Packs the package in a copy under tmp and installs the tarball with
// --ignore-scripts into an empty project. Returns { tarball, packed, project,
// pkg: the installed package's directory }.
function packAndInstall(tmp) {
  const src = path.join(tmp, 'src');
  fs.mkdirSync(src);
  packageCopy(src);
  const [packed] = JSON.parse(run(npm, ['pack', '--json', '--pack-destination', tmp], { cwd: src }));
  const tarball = path.join(tmp, packed.filename);
  const project = path.join(tmp, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), '{ "name": "consumer", "private": true }\n');
  run(npm, ['install', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: project });
  return { tarball, packed, project, pkg: path.join(project, 'node_modules', 'fast-hash') };
}

// Runs `code` on the target's Node in dir; returns its stdout. Both of its
// outputs go through files (Windows Node under Wine cannot write to a pipe).
function evalOn(target, code, dir, rt = runtimeFor(target)) {
  const base = path.join(os.tmpdir(), `fast-hash-eval-${process.pid}`);
  const fds = [fs.openSync(`${base}.out`, 'w'), fs.openSync(`${base}.err`, 'w')];
  let res;
  try {
    res = spawnSync(rt.cmd, [...rt.args, '-e', code], {
      cwd: dir, env: testEnv(rt), stdio: ['ignore', ...fds], timeout: STEP_LIMIT_MS, killSignal: 'SIGKILL',
    });
  } finally {
    fds.forEach((fd) => fs.closeSync(fd));
    if (rt.wine) wineEnd();
  }
  const [stdout, stderr] = ['out', 'err'].map((ext) => fs.readFileSync(`${base}.${ext}`, 'utf8'));
  ['out', 'err'].forEach((ext) => fs.rmSync(`${base}.${ext}`, { force: true }));
  if (res.status !== 0) throw new Error(`${rt.label}: ${stderr || stdout || res.error}`);
  return stdout;
}

// What a target's Node makes of the installed package: the binary
// node-gyp-build resolves, the implementation and process.arch.
// The binary's path is this machine's (Wine's Z: drive is /).
function probe(target, project, rt = runtimeFor(target)) {
  const seen = JSON.parse(evalOn(target, `const f = require('fast-hash');
    const file = require('node-gyp-build').path(require('path').dirname(require.resolve('fast-hash/package.json')));
    console.log(JSON.stringify({ implementation: f.implementation, arch: process.arch, file,
      abc: f.hash('sha256', 'abc') }));`, project, rt));
  if (target.platform === 'win32') seen.file = wine.unixPath(seen.file);
  return seen;
}

// Mocha on the target's Node over the test files copied into the installed
// package, leaving out the tests whose titles match `skip`. Returns
// { passed, failed, pending, ms, log }.
function mocha(target, pkg, files, skip) {
  const rt = runtimeFor(target);
  const args = [...rt.args, path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'),
    '--no-config', '--exit', '--timeout', '600000', '--reporter', 'spec'];
  if (skip.length) args.push('--grep', skip.join('|'), '--invert');
  args.push(...files.map((f) => path.join('test', f)));
  const log = path.join(os.tmpdir(), `fast-hash-prebuild-${target.platform}-${target.arch}-${process.pid}.log`);
  const started = Date.now();
  const limit = rt.wine ? WINE_RUN_LIMIT_MS : RUN_LIMIT_MS;
  // Straight into the log, which can be followed while emulation runs.
  const fd = fs.openSync(log, 'w');
  let res;
  try {
    res = spawnSync(rt.cmd, args, {
      cwd: pkg, env: testEnv(rt), stdio: ['ignore', fd, fd], timeout: limit, killSignal: 'SIGKILL',
    });
  } finally {
    fs.closeSync(fd);
    // Killing wine64 leaves the Windows processes to the wineserver.
    if (rt.wine) wineEnd();
  }
  if (res.error) fs.appendFileSync(log, `\ntest-prebuilds: ${res.error.code === 'ETIMEDOUT' ? `killed after ${seconds(limit)}` : res.error}\n`);
  const output = fs.readFileSync(log, 'utf8');
  const count = (word) => Number((output.match(new RegExp(`^\\s*(\\d+) ${word}`, 'm')) || [])[1] || 0);
  const result = { passed: count('passing'), failed: count('failing'), pending: count('pending'), ms: Date.now() - started, log };
  // A run that dies before mocha counts still failed.
  if (res.status !== 0 && result.failed === 0) result.failed = 1;
  return result;
}

// The tests and fixtures the runs need, copied into the installed package
// (its own lib/ is what `require('..')` in a test then loads).
function copyTests(pkg) {
  const dest = path.join(pkg, 'test');
  fs.mkdirSync(dest);
  for (const file of [...CORRECTNESS, 'common.js']) {
    fs.copyFileSync(path.join(root, 'test', file), path.join(dest, file));
  }
  fs.cpSync(path.join(root, 'test', 'fixtures'), path.join(dest, 'fixtures'), { recursive: true });
}

function seconds(ms) {
  return `${Math.round(ms / 1000)} s`;
}

// Tests one target's binary in the installed package; prints its summary
// line and returns { passed, failed }.
// Windows Node under another file name, as an embedding or renamed Node
// runs (a hard link beside node.exe, made once): the binary must bind to
// the process that loads it, not to a file called node.exe.
function renamedHost(rt) {
  const exe = rt.args[0];
  const renamed = path.join(path.dirname(exe), 'fast-hash-host.exe');
  if (!fs.existsSync(renamed)) {
    try {
      fs.linkSync(exe, renamed);
    } catch {
      fs.copyFileSync(exe, renamed);
    }
  }
  return { ...rt, args: [renamed, ...rt.args.slice(1)], label: `${rt.label} as ${path.basename(renamed)}` };
}

// Tests one target's binary in the installed package; prints its summary
// line and returns { passed, failed }.
function testTarget(target, installed) {
  const file = path.join(installed.pkg, prebuildPath(target));
  const name = [`${target.platform}-${target.arch}`, target.libc].filter(Boolean).join(' ');
  if (!fs.existsSync(file)) {
    console.log(`prebuild ${name}: not in the tarball: 0 passed, 1 failed`);
    return { passed: 0, failed: 1 };
  }
  const need = requirement(file, target);
  const rt = runtimeFor(target);
  const abc = crypto.createHash('sha256').update('abc').digest('hex');
  const want = { implementation: 'native', arch: target.arch, file: fs.realpathSync(file), abc };
  for (const host of rt.wine ? [rt, renamedHost(rt)] : [rt]) {
    const seen = probe(target, installed.project, host);
    const got = { implementation: seen.implementation, arch: seen.arch, file: fs.realpathSync(seen.file), abc: seen.abc };
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      console.log(`prebuild ${name} (${need}), ${host.label}: loads as ${JSON.stringify(got)}, ` +
        `want ${JSON.stringify(want)}: 0 passed, 1 failed`);
      return { passed: 0, failed: 1 };
    }
  }
  const skip = [...TIMING_SKIPS, ...(rt.emulated ? EMULATION_SKIPS : []), ...(rt.wine ? WINDOWS_SKIPS : [])];
  const r = mocha(target, installed.pkg, CORRECTNESS, skip);
  const left = skip.length ? `; left out: ${skip.map((t) => `"${t}"`).join(', ')}` : '';
  console.log(`prebuild ${name} (${need}), ${rt.label}: implementation native, ` +
    `${r.passed} passed, ${r.failed} failed, ${r.pending} pending in ${seconds(r.ms)}${left} (log: ${r.log})`);
  return { passed: r.passed, failed: r.failed };
}

// The targets named on the command line (`win32-x64`, `linux-arm64`), or
// all; null when a name is unknown.
function selectTargets(names) {
  const id = (t) => `${t.platform}-${t.arch}`;
  if (names.some((n) => !TARGETS.some((t) => id(t) === n))) return null;
  return names.length ? TARGETS.filter((t) => names.includes(id(t))) : TARGETS;
}

const USAGE = 'usage: node scripts/test-prebuilds.js [--install-tools] [platform-arch ...]';

function main(argv) {
  let values, positionals;
  try {
    ({ values, positionals } = util.parseArgs({
      args: argv,
      options: { 'install-tools': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    }));
  } catch (err) {
    console.error(`test:prebuilds: ${err.message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values['install-tools']) return installTools();
  const targets = selectTargets(positionals);
  if (!targets) {
    console.log(`test:prebuilds: known targets: ${TARGETS.map((t) => `${t.platform}-${t.arch}`).join(', ')}`);
    console.log(USAGE);
    return 2;
  }
  const missing = missingPackages();
  if (missing.length) {
    console.log(`test:prebuilds: missing ${missing.join(' ')} ` +
      '(node scripts/test-prebuilds.js --install-tools, as root on Debian)');
    console.log('prebuilds: 0 passed, 1 failed');
    return 1;
  }
  const started = Date.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-prebuilds-'));
  let passed = 0;
  let failed = 0;
  try {
    const installed = packAndInstall(tmp);
    console.log(`packed ${installed.packed.filename} (${installed.packed.size} bytes), ` +
      'installed with --ignore-scripts');
    copyTests(installed.pkg);
    for (const target of targets) {
      let result;
      try {
        result = testTarget(target, installed);
      } catch (err) {
        console.log(`prebuild ${target.platform}-${target.arch}: ${err.message}: 0 passed, 1 failed`);
        result = { passed: 0, failed: 1 };
      }
      passed += result.passed;
      failed += result.failed;
    }
  } catch (err) {
    console.log(`test:prebuilds: ${err.message}`);
    failed += 1;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`prebuilds: ${passed} passed, ${failed} failed (${seconds(Date.now() - started)})`);
  return failed ? 1 : 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
module.exports = { runtimeFor, probe, packageCopy, missingPackages };
