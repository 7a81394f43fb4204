'use strict';
// The tarball test: pack the package as npm would publish it, install it into
// new empty projects, and use it from there the way a user would.
//
//   1. npm pack (prepack builds prebuilds/ for this platform) in a copy of the
//      package, so this working tree is left alone;
//   2. publint and @arethetypeswrong/cli on the tarball;
//   3. npm install --ignore-scripts: nothing is compiled, the prebuild loads;
//      require() and import give the FIPS 180-4 digest of "abc", the command
//      runs, and a TypeScript file using every export type-checks under
//      "module": "nodenext" as CommonJS and as ESM;
//   4. npm install with FAST_HASH_FORCE_BUILD=1: the tarball compiles from
//      its sources (offline when Node's headers are installed).
// Needs the npm registry for the package's own dependencies.
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

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

// A copy of what `npm pack` reads, with the repo's node_modules for the
// prepack step (prebuildify, node-gyp).
function packageCopy(dir) {
  const files = run('git', ['ls-files', '-z'], root).split('\0').filter(Boolean);
  for (const file of files) {
    fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    fs.copyFileSync(path.join(root, file), path.join(dir, file));
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
}

function project(dir, tarball, env) {
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "consumer", "private": true }\n');
  run(npm, ['install', '--no-audit', '--no-fund', ...(env ? [] : ['--ignore-scripts']), tarball], dir, env);
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

function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-pack-'));
  try {
    const src = path.join(tmp, 'src');
    fs.mkdirSync(src);
    packageCopy(src);
    const [packed] = JSON.parse(run(npm, ['pack', '--json', '--pack-destination', tmp], src));
    const tarball = path.join(tmp, packed.filename);
    const shipped = packed.files.map((f) => f.path);
    console.log(`packed ${packed.filename}: ${shipped.length} files`);
    if (!shipped.some((f) => /^prebuilds\/.+\.node$/.test(f))) throw new Error('no prebuild in the tarball');
    if (shipped.some((f) => /^(test|benchmark|build)\//.test(f))) throw new Error('test or build files shipped');

    console.log(run(bin('publint'), ['run', src, '--strict'], src).trim());
    console.log(run(bin('attw'), [tarball, '--format', 'ascii'], tmp).trim());

    const noScripts = path.join(tmp, 'no-scripts');
    project(noScripts, tarball);
    if (fs.existsSync(path.join(noScripts, 'node_modules', 'fast-hash', 'build'))) {
      throw new Error('something was compiled with --ignore-scripts');
    }
    useIt(noScripts);
    typeCheck(noScripts);

    const compiled = path.join(tmp, 'compiled');
    project(compiled, tarball, { FAST_HASH_FORCE_BUILD: '1' });
    if (!fs.existsSync(path.join(compiled, 'node_modules', 'fast-hash', 'build', 'Release', 'fast_hash.node'))) {
      throw new Error('FAST_HASH_FORCE_BUILD=1 did not compile');
    }
    useIt(compiled);
    console.log('package test passed');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main();
