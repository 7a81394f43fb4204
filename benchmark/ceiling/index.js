'use strict';
// The addon of the benchmarks' ceilings: fast_hash_bench.node, the shipped
// addon's sources, defines and flags plus ./bench.c (benchCeiling,
// benchCall, benchHmac, benchHmacKey), compiled by ./binding.gyp into
// ./build. The shipped binary has no benchmark exports; only the benchmarks
// build this one, on first use and again whenever it is older than anything
// it is compiled from (src/*.c, src/*.h, ./bench.c, either binding.gyp). node-gyp's
// output goes to stderr, so what a benchmark prints on stdout is the same
// whether or not it compiled first.
//
// It is a Node-API module instance of its own: an algorithm id or an HmacKey
// handle given to its bench functions must come from its own resolve() and
// hmacKeyNew(), never from lib/binding/native.js's or lib/binding/index.js's.
//
//   const ceiling = require('./ceiling');
//   ceiling.load()       the addon (compiled first if needed); throws why not
//   ceiling.tryLoad()    { addon } or { addon: null, error: <one line> }
//   node benchmark/ceiling [--force]   compiles it (--force: even when fresh)
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const util = require('util');

const HERE = __dirname;
const ROOT = path.join(HERE, '..', '..');
const FILE = path.join(HERE, 'build', 'Release', 'fast_hash_bench.node');

// What the binary is compiled from.
function inputs() {
  const src = path.join(ROOT, 'src');
  return [
    ...fs.readdirSync(src).filter((f) => /\.[ch]$/.test(f)).map((f) => path.join(src, f)),
    path.join(ROOT, 'binding.gyp'),
    path.join(HERE, 'bench.c'),
    path.join(HERE, 'binding.gyp'),
  ];
}

// Why the binary must be compiled, or null when it is up to date.
function staleness() {
  let built;
  try {
    built = fs.statSync(FILE).mtimeMs;
  } catch {
    return 'not built yet';
  }
  const newer = inputs().filter((f) => fs.statSync(f).mtimeMs > built);
  return newer.length ? `${newer.map((f) => path.relative(ROOT, f)).join(', ')} changed` : null;
}

// Compiles it with the node-gyp devDependency, against the running Node's
// own headers when they are installed beside it (as scripts/build.js does).
function build(why) {
  if (process.versions.bun || process.release.name !== 'node') {
    throw new Error(`the ceiling addon is ${why}, and it is compiled under Node only`);
  }
  const { localNodeDir } = require(path.join(ROOT, 'scripts', 'build.js'));
  const args = [require.resolve('node-gyp/bin/node-gyp.js', { paths: [ROOT] }), 'rebuild', '--loglevel=warn'];
  const nodedir = localNodeDir();
  if (nodedir) args.push(`--nodedir=${nodedir}`);
  console.error(`fast-hash benchmarks: compiling the ceiling addon (${why}) into ${path.relative(ROOT, FILE)}`);
  const res = spawnSync(process.execPath, args, { cwd: HERE, stdio: ['ignore', 2, 2] });
  if (res.error) throw res.error;
  if (res.status !== 0) throw new Error(`node-gyp rebuild in ${path.relative(ROOT, HERE)} exited with ${res.status}`);
  if (!fs.existsSync(FILE)) throw new Error(`node-gyp left no ${path.relative(ROOT, FILE)}`);
}

let loaded = null;

function load() {
  if (loaded) return loaded;
  const why = staleness();
  if (why) build(why);
  const addon = require(FILE);
  // As lib/binding/native.js does: with FAST_HASH_FORCE_EVP=1 the ceilings take the
  // EVP path the addon under test takes.
  if (process.env.FAST_HASH_FORCE_EVP === '1') addon.forceEvp();
  loaded = addon;
  return addon;
}

function tryLoad() {
  try {
    return { addon: load() };
  } catch (err) {
    return { addon: null, error: err && err.message ? err.message.split('\n')[0] : String(err) };
  }
}

module.exports = { load, tryLoad, FILE };

if (require.main === module) {
  const USAGE = 'usage: node benchmark/ceiling [--force]';
  let values;
  try {
    ({ values } = util.parseArgs({ options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (err) {
    console.error(`${err.message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
  } else {
    const why = values.force ? 'asked for' : staleness();
    if (why) build(why);
    else console.log(`${path.relative(ROOT, FILE)} is up to date`);
  }
}
