'use strict';
// npm run prebuild (and prepack): the binaries the package ships, in
// prebuildify's layout, tagged with the libc the way node-gyp-build matches
// it (a `glibc` or `musl` tag in the file name; node-gyp-build takes musl
// when /etc/alpine-release exists, else glibc):
//
//   prebuilds/linux-x64/fast-hash.glibc.node
//   prebuilds/linux-arm64/fast-hash.glibc.node
//
// One Node-API binary per arch serves every Node line. Both are made on one
// Linux machine with gcc: the host's arch with its own gcc, the other with
// Debian's cross gcc (gcc-aarch64-linux-gnu on x64), against the same Node
// headers: their openssl/configuration.h picks OpenSSL's configuration for
// the arch the compiler targets (__aarch64__, __x86_64__).
//
// Each binary is compiled from a copy of binding.gyp and src/ (the sources
// the tarball ships), so the working tree's build/ is left alone, then
// stripped, then checked: the ELF machine, no symbol table, libc.so.6 the
// only library needed, and no glibc symbol version above GLIBC_FLOOR.
// Everything else in prebuilds/ is removed first: only binaries that
// scripts/test-prebuilds.js tests are ever packed. Without the tools for
// every target, it stops with one line naming the packages to install.
//
//   npm run prebuild                          every target
//   FAST_HASH_PREBUILDS=host npm pack         this machine's binary only
//   FAST_HASH_PREBUILDS=linux-arm64 ...       the targets named
const { execFileSync, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { localNodeDir, findNodeGyp } = require('./build');

const root = path.join(__dirname, '..');

// The oldest glibc the binaries may need: 2.17 is the first glibc with
// aarch64 (so every arm64 symbol is versioned 2.17 or later) and the glibc
// of Node's own glibc-217 builds for x64; official Node builds need 2.28.
// A binary within it loads wherever Node itself runs.
const GLIBC_FLOOR = '2.17';

// What is built. triple: the GNU prefix of the cross tools for the arch;
// machine: what `readelf -h` calls it.
const TARGETS = [
  { platform: 'linux', arch: 'x64', libc: 'glibc', triple: 'x86_64-linux-gnu', machine: 'Advanced Micro Devices X86-64' },
  { platform: 'linux', arch: 'arm64', libc: 'glibc', triple: 'aarch64-linux-gnu', machine: 'AArch64' },
];

// The targets a run builds: every one, or those FAST_HASH_PREBUILDS names
// (comma-separated <platform>-<arch>, or `host` for this machine's own),
// for a tarball that only this machine's tools can make and test (the
// package test in `npm test`). Throws on a name that is no target.
function selectedTargets(env = process.env) {
  const wanted = (env.FAST_HASH_PREBUILDS || '').split(',').map((w) => w.trim()).filter(Boolean);
  if (!wanted.length) return TARGETS;
  const host = `${process.platform}-${os.arch()}`;
  const names = wanted.map((w) => (w === 'host' ? host : w));
  const unknown = names.filter((n) => !TARGETS.some((t) => `${t.platform}-${t.arch}` === n));
  if (unknown.length) {
    throw new Error(`FAST_HASH_PREBUILDS names ${unknown.join(', ')}; the targets are ` +
      `${TARGETS.map((t) => `${t.platform}-${t.arch}`).join(', ')}`);
  }
  return TARGETS.filter((t) => names.includes(`${t.platform}-${t.arch}`));
}

// Where a target's binary goes, relative to the package root.
function prebuildPath(target) {
  return path.join('prebuilds', `${target.platform}-${target.arch}`, `fast-hash.${target.libc}.node`);
}

// The name of a binutils/gcc tool for the target: the plain one for the
// host's own arch, the triple-prefixed cross tool otherwise.
function tool(target, name) {
  return target.arch === os.arch() ? name : `${target.triple}-${name}`;
}

// Debian's name for each arch, in its cross packages' names.
const DEBIAN_ARCH = { x64: 'amd64', arm64: 'arm64' };

function exists(cmd) {
  return spawnSync('sh', ['-c', `command -v "$1"`, 'sh', cmd], { stdio: 'ignore' }).status === 0;
}

// The tools missing for the targets, as Debian package names to install.
function missingTools(targets = TARGETS) {
  const missing = new Set();
  for (const t of targets) {
    if (!exists(tool(t, 'gcc'))) missing.add(t.arch === os.arch() ? 'gcc' : `gcc-${t.triple.replace(/_/g, '-')}`);
    for (const name of ['strip', 'objdump', 'readelf']) {
      if (!exists(tool(t, name))) missing.add(t.arch === os.arch() ? 'binutils' : `binutils-${t.triple.replace(/_/g, '-')}`);
    }
    // A cross gcc compiles against its sysroot's C headers, which Debian
    // ships apart (the gcc package only recommends them).
    if (t.arch !== os.arch() && !fs.existsSync(path.join('/usr', t.triple, 'include', 'stdio.h'))) {
      missing.add(`libc6-dev-${DEBIAN_ARCH[t.arch]}-cross`);
    }
  }
  return [...missing];
}

// The highest GLIBC_x.y version among the binary's dynamic symbols
// (objdump -T), as a string; '' when it needs none.
function glibcFloor(file, target) {
  const out = execFileSync(tool(target, 'objdump'), ['-T', file], { encoding: 'utf8' });
  const versions = [...out.matchAll(/\bGLIBC_(\d+(?:\.\d+)*)\b/g)].map((m) => m[1]);
  return versions.sort(compareVersions).pop() || '';
}

function compareVersions(a, b) {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] || 0) !== (y[i] || 0)) return (x[i] || 0) - (y[i] || 0);
  }
  return 0;
}

// Throws unless the binary is what the target ships: its arch, stripped,
// needing only libc.so.6 and nothing above GLIBC_FLOOR. Returns the floor.
function checkBinary(file, target) {
  const readelf = (flag) => execFileSync(tool(target, 'readelf'), [flag, '-W', file], { encoding: 'utf8' });
  const machine = (readelf('-h').match(/^\s*Machine:\s*(.+)$/m) || [])[1];
  if (machine !== target.machine) throw new Error(`${file}: machine ${machine}, want ${target.machine}`);
  if (/\]\s+\.symtab\s/.test(readelf('-S'))) throw new Error(`${file}: not stripped (has .symtab)`);
  const needed = [...readelf('-d').matchAll(/\(NEEDED\).*\[(.+)\]/g)].map((m) => m[1]);
  if (needed.some((lib) => lib !== 'libc.so.6')) throw new Error(`${file}: needs ${needed.join(', ')}`);
  const floor = glibcFloor(file, target);
  if (compareVersions(floor || '0', GLIBC_FLOOR) > 0) {
    throw new Error(`${file}: needs GLIBC_${floor}, above the floor GLIBC_${GLIBC_FLOOR}`);
  }
  return floor;
}

// Compiles, strips and checks one target's binary into <out>/prebuilds/.
// Returns { file, floor, bytes }.
function buildTarget(target, out) {
  const gyp = findNodeGyp();
  if (!gyp) throw new Error('no node-gyp found (see scripts/build.js)');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `fast-hash-prebuild-${target.arch}-`));
  try {
    fs.copyFileSync(path.join(root, 'binding.gyp'), path.join(work, 'binding.gyp'));
    fs.cpSync(path.join(root, 'src'), path.join(work, 'src'), { recursive: true });
    const args = [gyp.file, 'rebuild', '--release', `--arch=${target.arch}`, '--jobs=max', '--loglevel=warn'];
    const nodedir = localNodeDir();
    if (nodedir) args.push(`--nodedir=${nodedir}`);
    // gyp's make generator links with $(CXX) unless LINK is set; the
    // sources are C only, so the target's gcc compiles and links.
    const cc = tool(target, 'gcc');
    const env = target.arch === os.arch() ? process.env
      : { ...process.env, CC: cc, CXX: tool(target, 'g++'), LINK: cc, AR: tool(target, 'ar') };
    console.error(`== prebuild ${target.platform}-${target.arch} (${cc}${nodedir ? `, headers in ${nodedir}` : ''})`);
    const res = spawnSync(process.execPath, args, { cwd: work, env, stdio: ['ignore', 2, 2] });
    if (res.error) throw res.error;
    if (res.status !== 0) throw new Error(`node-gyp exited with ${res.status} for ${target.arch}`);
    const file = path.join(out, prebuildPath(target));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.copyFileSync(path.join(work, 'build', 'Release', 'fast_hash.node'), file);
    execFileSync(tool(target, 'strip'), ['--strip-all', file]);
    const floor = checkBinary(file, target);
    const bytes = fs.statSync(file).size;
    console.error(`prebuild ${prebuildPath(target)}: ${bytes} bytes, stripped, needs GLIBC_${floor}`);
    return { file, floor, bytes };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

// npm also runs a script named `prebuild` before `npm run build` (a
// pre-hook); that command compiles build/Release only, so this script steps
// aside then. The npm process up the parent chain carries the command in its
// title ("npm run build"). Returns the other script's name, or null.
function preHookOf() {
  if (process.env.npm_lifecycle_event !== 'prebuild' || process.platform !== 'linux') return null;
  let pid = process.ppid;
  for (let depth = 0; depth < 4 && pid > 1; depth++) {
    let title;
    let stat;
    try {
      title = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return null;
    }
    const words = title.split(/\s+/);
    if (words[0] === 'npm') {
      const script = ['run', 'run-script', 'rum', 'urn'].includes(words[1]) ? words[2] : undefined;
      return script && script !== 'prebuild' ? script : null;
    }
    pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  }
  return null;
}

function main() {
  const hookOf = preHookOf();
  if (hookOf) {
    console.error(`prebuild: skipped (npm's pre-hook of \`npm run ${hookOf}\`; \`npm run prebuild\` makes the prebuilds)`);
    return 0;
  }
  if (process.platform !== 'linux' || !TARGETS.some((t) => t.arch === os.arch())) {
    console.error(`prebuild: the prebuilds are made on Linux x64 or arm64, not ${process.platform}-${os.arch()}. ` +
      'To compile the addon for this machine: npm run build (or npx node-gyp rebuild).');
    return 1;
  }
  const targets = selectedTargets();
  const missing = missingTools(targets);
  if (missing.length) {
    console.error(`prebuild: missing tools; on Debian: apt-get install -y ${missing.join(' ')} ` +
      '(or node scripts/test-prebuilds.js --install-tools; FAST_HASH_PREBUILDS=host packs only this machine\'s binary)');
    return 1;
  }
  fs.rmSync(path.join(root, 'prebuilds'), { recursive: true, force: true });
  for (const target of targets) buildTarget(target, root);
  return 0;
}

if (require.main === module) process.exitCode = main();
module.exports = { TARGETS, GLIBC_FLOOR, selectedTargets, prebuildPath, tool, missingTools, glibcFloor, checkBinary };
