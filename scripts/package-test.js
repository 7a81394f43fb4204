'use strict';
// The tarball test: pack the package as npm would publish it, install it into
// new empty projects, and use it from there the way a user would.
//
//   1. npm pack with FAST_HASH_PREBUILDS=host (prepack: scripts/prebuild.js
//      builds this machine's binary only, with its own compiler: the
//      cross-built ones are scripts/test-prebuilds.js's to pack and test) in
//      a copy of the package, so this working tree is left alone; the
//      tarball holds exactly that binary, stripped, for its arch, within the
//      glibc floor;
//   2. publint and @arethetypeswrong/cli on the tarball;
//   3. npm install --ignore-scripts: exactly two packages are installed,
//      fast-hash and node-gyp-build (node-gyp comes with npm, not with us);
//      nothing is compiled; the prebuild loads on this Node, with
//      implementation 'native'; require() and import give
//      the FIPS 180-4 digest of "abc", the command runs, and a TypeScript file
//      using every export type-checks under "module": "nodenext" as CommonJS
//      and as ESM;
//   4. npm rebuild fast-hash there, with FAST_HASH_FORCE_BUILD=1: the way to
//      compile after installing without scripts;
//   5. npm install with FAST_HASH_FORCE_BUILD=1: the tarball compiles from
//      its sources, offline when Node's headers are installed.
// Steps 4 and 5 check from the install step's output that it compiled with
// the node-gyp npm ships (npm's `node-gyp` setting).
// Needs the npm registry for the package's own dependencies, and what
// compiling the addon needs (a C compiler, make, Python), nothing more.
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { localNodeDir } = require('./build');
const { selectedTargets, prebuildPath, checkBinary, missingTools } = require('./prebuild');
const { runtimeFor, probe, packageCopy } = require('./test-prebuilds');

// The binaries this test packs: this machine's own.
const HOST = { FAST_HASH_PREBUILDS: 'host' };
const TARGETS = selectedTargets(HOST);

const root = path.join(__dirname, '..');
const ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function run(cmd, args, cwd, env = {}) {
  console.log(`$ ${path.basename(cmd)} ${args.join(' ')}`);
  return execFileSync(cmd, args, {
    cwd, env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'],
  });
}

function check(label, got, want) {
  if (got !== want) throw new Error(`${label}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  console.log(`ok - ${label}`);
}

// Without env: --ignore-scripts. With env: the install step runs in the
// foreground, so its output is returned for compiledWithNpmsNodeGyp.
function project(dir, tarball, env) {
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "consumer", "private": true }\n');
  const scripts = env ? ['--foreground-scripts'] : ['--ignore-scripts'];
  return run(npm, ['install', '--no-audit', '--no-fund', ...scripts, tarball], dir, env);
}

function bytesUnder(dir) {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    total += entry.isDirectory() ? bytesUnder(file) : fs.lstatSync(file).size;
  }
  return total;
}

// Every package in the consumer's tree (npm's view), compared with what is
// in its node_modules, so neither a nested nor an unlisted package slips by.
function installedPackages(dir) {
  const fromLs = run(npm, ['ls', '--all', '--parseable'], dir).trim().split('\n')
    .filter((line) => line && path.resolve(line) !== path.resolve(dir))
    .map((line) => path.relative(path.join(dir, 'node_modules'), line).split(path.sep).join('/'))
    .sort();
  const onDisk = [];
  const walk = (nm, prefix) => {
    if (!fs.existsSync(nm)) return;
    for (const name of fs.readdirSync(nm)) {
      if (name.startsWith('.')) continue;
      if (name.startsWith('@')) {
        for (const sub of fs.readdirSync(path.join(nm, name))) {
          onDisk.push(`${prefix}${name}/${sub}`);
          walk(path.join(nm, name, sub, 'node_modules'), `${prefix}${name}/${sub}/node_modules/`);
        }
      } else {
        onDisk.push(prefix + name);
        walk(path.join(nm, name, 'node_modules'), `${prefix}${name}/node_modules/`);
      }
    }
  };
  walk(path.join(dir, 'node_modules'), '');
  check('npm ls and node_modules agree', onDisk.sort().join(', '), fromLs.join(', '));
  return fromLs;
}

// The node-gyp npm ships, as npm hands it to install scripts.
function npmsNodeGyp(dir) {
  return fs.realpathSync(run(npm, ['config', 'get', 'node-gyp'], dir).trim());
}

function compiledWithNpmsNodeGyp(label, output, dir) {
  const used = output.match(/^fast-hash: node-gyp \S+ at (.+) \(from (.+)\)$/m);
  if (!used) throw new Error(`${label}: the install step did not say which node-gyp it used:\n${output}`);
  console.log(output.split('\n').filter((line) => line.startsWith('fast-hash: ')).join('\n'));
  check(`${label}: node-gyp from npm_config_node_gyp`, used[2], 'npm_config_node_gyp');
  check(`${label}: npm's node-gyp (${used[1]})`, fs.realpathSync(used[1]), npmsNodeGyp(dir));
  const nodedir = localNodeDir();
  if (nodedir) {
    check(`${label}: offline, against the headers in ${nodedir}`,
      output.includes(`fast-hash: compiling against the headers of ${process.version} in ${nodedir}`), true);
  }
  if (!fs.existsSync(path.join(dir, 'node_modules', 'fast-hash', 'build', 'Release', 'fast_hash.node'))) {
    throw new Error(`${label}: no build/Release/fast_hash.node`);
  }
}

const USAGE_TS = `
import * as assert from 'node:assert';
import { hash, hmac, verifyHmac, createHmacKey, hashMany, hashAsync, hmacAsync,
  hashFile, hashFileSync, getHashes } from 'fast-hash';
import type { HmacKey } from 'fast-hash';
const hex: string = hash('sha256', 'abc');
const buf: Buffer = hash('sha256', 'abc', 'buffer');
const mac: string = hmac('sha256', 'k', 'm');
const ok: boolean = verifyHmac('sha256', 'k', 'm', mac);
const key: HmacKey = createHmacKey('sha256', 'k');
const many: string[] = hashMany('md5', ['a', new Uint8Array(1)]);
const names: string[] = getHashes();
async function later(): Promise<void> {
  const a: string = await hashAsync('sha256', 'abc');
  const b: Buffer = await hmacAsync('sha256', 'k', 'm', 'buffer');
  const f: string = await hashFile('sha256', 'package.json');
  const s: string = hashFileSync('sha256', 'package.json');
  void [a, b, f, s];
}
assert.ok(hex && buf && ok && key && many && names && later);
`;

function typeCheck(dir) {
  for (const [type, file] of [['commonjs', 'usage.cts'], ['module', 'usage.mts']]) {
    fs.writeFileSync(path.join(dir, file), USAGE_TS);
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022',
        types: ['node'], typeRoots: [path.join(root, 'node_modules', '@types')],
      },
      files: [file],
    }));
    run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], dir);
    console.log(`ok - types check as ${type} (${file})`);
  }
}

function useIt(dir) {
  check('require() hashes', run(process.execPath, ['-p', "require('fast-hash').hash('sha256', 'abc')"], dir).trim(), ABC);
  check('import hashes', run(process.execPath, ['--input-type=module', '-e',
    "import { hash } from 'fast-hash'; console.log(hash('sha256', 'abc'))"], dir).trim(), ABC);
  fs.writeFileSync(path.join(dir, 'abc.txt'), 'abc');
  check('the command runs', run(path.join(dir, 'node_modules', '.bin', 'fast-hash'), ['abc.txt'], dir),
    `${ABC}  abc.txt\n`);
}

// The tarball's binaries are exactly TARGETS', and each installed one is what prebuild.js promises: its arch,
// stripped, libc.so.6 only, within the glibc floor.
function shipsTheTestedBinaries(shipped, pkgDir) {
  const want = TARGETS.map((t) => prebuildPath(t).split(path.sep).join('/')).sort();
  check(`the tarball holds exactly ${want.join(', ')}`,
    shipped.filter((f) => f.endsWith('.node')).sort().join(', '), want.join(', '));
  for (const t of TARGETS) {
    const floor = checkBinary(path.join(pkgDir, prebuildPath(t)), t);
    console.log(`ok - ${prebuildPath(t)}: ${t.arch}, stripped, needs GLIBC_${floor}`);
  }
}

// Each binary loads on this Node: node-gyp-build picks it, FAST_HASH_IMPLEMENTATION=native makes a failed
// load throw instead of falling back, and it digests "abc".
function eachPrebuildLoads(dir) {
  const pkgDir = fs.realpathSync(path.join(dir, 'node_modules', 'fast-hash'));
  for (const t of TARGETS) {
    const seen = probe(t, dir);
    check(`${prebuildPath(t)} loads on ${runtimeFor(t).label}: implementation, arch, binary, sha256("abc")`,
      [seen.implementation, seen.arch, fs.realpathSync(seen.file), seen.abc].join(' '),
      ['native', t.arch, path.join(pkgDir, prebuildPath(t)), ABC].join(' '));
  }
}

function main() {
  if (!TARGETS.length) throw new Error(`no prebuild target for ${process.platform}-${os.arch()}`);
  const missing = missingTools(TARGETS);
  if (missing.length) throw new Error(`packing needs ${missing.join(' ')}`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-pack-'));
  try {
    const src = path.join(tmp, 'src');
    fs.mkdirSync(src);
    packageCopy(src);
    const [packed] = JSON.parse(run(npm, ['pack', '--json', '--pack-destination', tmp], src, HOST));
    const tarball = path.join(tmp, packed.filename);
    const shipped = packed.files.map((f) => f.path);
    console.log(`packed ${packed.filename}: ${shipped.length} files, ${packed.size} bytes ` +
      `(${packed.unpackedSize} unpacked)`);
    if (shipped.some((f) => /^(test|benchmark|build)\//.test(f))) throw new Error('test or build files shipped');

    console.log(run(bin('publint'), ['run', src, '--strict'], src).trim());
    console.log(run(bin('attw'), [tarball, '--format', 'ascii'], tmp).trim());

    const noScripts = path.join(tmp, 'no-scripts');
    project(noScripts, tarball);
    const installed = installedPackages(noScripts);
    console.log(`${installed.length} packages, ${bytesUnder(path.join(noScripts, 'node_modules'))} bytes ` +
      'in node_modules');
    check(`installs ${installed.length} packages: ${installed.join(', ')}`, installed.join(', '),
      'fast-hash, node-gyp-build');
    if (fs.existsSync(path.join(noScripts, 'node_modules', 'fast-hash', 'build'))) {
      throw new Error('something was compiled with --ignore-scripts');
    }
    shipsTheTestedBinaries(shipped, path.join(noScripts, 'node_modules', 'fast-hash'));
    eachPrebuildLoads(noScripts);
    useIt(noScripts);
    typeCheck(noScripts);

    const rebuilt = run(npm, ['rebuild', '--foreground-scripts', 'fast-hash'], noScripts,
      { FAST_HASH_FORCE_BUILD: '1' });
    compiledWithNpmsNodeGyp('npm rebuild fast-hash', rebuilt, noScripts);
    useIt(noScripts);

    const compiled = path.join(tmp, 'compiled');
    const output = project(compiled, tarball, { FAST_HASH_FORCE_BUILD: '1' });
    compiledWithNpmsNodeGyp('npm install, FAST_HASH_FORCE_BUILD=1', output, compiled);
    useIt(compiled);
    console.log('package test passed');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main();
