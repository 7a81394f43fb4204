'use strict';
// The install step. A prebuilt binary that loads here is used as it is;
// otherwise (none for this platform, or one that fails to load, e.g. built
// for another libc) the addon is compiled with node-gyp. node-gyp is not a
// dependency (it would add about a hundred packages to every install): the
// compile uses the node-gyp npm ships, as npm does for a package that has a
// binding.gyp and no install script (see findNodeGyp). When the running
// Node's own headers sit beside it (<prefix>/include/node, with Node's
// OpenSSL headers) and match process.version, node-gyp is pointed at them
// with --nodedir, so compiling needs no network; otherwise node-gyp does what
// it always does (download them).
//
//   node scripts/build.js           install: use a prebuild if one loads
//   node scripts/build.js --force   always compile (also FAST_HASH_FORCE_BUILD=1)
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');

function localNodeDir() {
  const prefix = path.resolve(path.dirname(process.execPath), '..');
  const include = path.join(prefix, 'include', 'node');
  const needed = ['node_api.h', 'common.gypi', path.join('openssl', 'evp.h')];
  if (!needed.every((f) => fs.existsSync(path.join(include, f)))) return null;
  let header;
  try {
    header = fs.readFileSync(path.join(include, 'node_version.h'), 'latin1');
  } catch {
    return null;
  }
  const part = (name) => (header.match(new RegExp(`#define ${name} (\\d+)`)) || [])[1];
  const version = `v${part('NODE_MAJOR_VERSION')}.${part('NODE_MINOR_VERSION')}.${part('NODE_PATCH_VERSION')}`;
  return version === process.version ? prefix : null;
}

// The binary node-gyp-build would load, if it loads; else why not.
function loadableBinary() {
  let file;
  try {
    file = require('node-gyp-build').path(root);
  } catch {
    return { file: null };
  }
  try {
    require(file);
    return { file };
  } catch (err) {
    return { file: null, broken: file, reason: err.message };
  }
}

// The node-gyp to compile with, first found of:
//   1. npm_config_node_gyp: npm sets it for every lifecycle script to its
//      `node-gyp` setting, which defaults to the node-gyp npm ships (so a
//      user's own choice of node-gyp is honoured too);
//   2. the node-gyp beside the npm running this script (npm_execpath),
//      which need not be the npm installed with this Node;
//   3. the node-gyp of the npm installed with this Node
//      (<prefix>/lib/node_modules/npm, or <prefix>/node_modules/npm on
//      Windows), for `node scripts/build.js` run by hand;
//   4. a node-gyp this package can require, i.e. the devDependency in a
//      development checkout.
// Returns { file, from } or null.
function findNodeGyp() {
  const bin = (npmDir) => path.join(npmDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  const prefix = path.resolve(path.dirname(process.execPath), '..');
  const candidates = [];
  if (process.env.npm_config_node_gyp) {
    candidates.push({ file: process.env.npm_config_node_gyp, from: 'npm_config_node_gyp' });
  }
  if (process.env.npm_execpath) {
    candidates.push({ file: bin(path.join(path.dirname(process.env.npm_execpath), '..')), from: 'npm_execpath' });
  }
  candidates.push({ file: bin(path.join(prefix, 'lib', 'node_modules', 'npm')), from: "this Node's npm" });
  candidates.push({ file: bin(path.join(path.dirname(process.execPath), 'node_modules', 'npm')), from: "this Node's npm" });
  const found = candidates.find((c) => fs.existsSync(c.file));
  if (found) return { file: path.resolve(found.file), from: found.from };
  try {
    return { file: require.resolve('node-gyp/bin/node-gyp.js', { paths: [root] }), from: 'require.resolve' };
  } catch {
    return null;
  }
}

function nodeGypVersion(file) {
  try {
    return JSON.parse(fs.readFileSync(path.join(path.dirname(file), '..', 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown version';
  }
}

function compile() {
  const gyp = findNodeGyp();
  if (!gyp) {
    console.error('fast-hash: cannot compile: no node-gyp found (none at npm_config_node_gyp, ' +
      "beside the running npm or in this Node's npm). Run `npm rebuild fast-hash` with npm, " +
      'which ships node-gyp, or install node-gyp and set npm_config_node_gyp to its bin/node-gyp.js.');
    return 1;
  }
  console.log(`fast-hash: node-gyp ${nodeGypVersion(gyp.file)} at ${gyp.file} (from ${gyp.from})`);
  const args = [gyp.file, 'rebuild'];
  const nodedir = localNodeDir();
  if (nodedir) {
    args.push(`--nodedir=${nodedir}`);
    console.log(`fast-hash: compiling against the headers of ${process.version} in ${nodedir}`);
  } else {
    console.log('fast-hash: compiling; no matching local Node headers, node-gyp will fetch them');
  }
  const res = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root });
  if (res.error) throw res.error;
  return res.status === null ? 1 : res.status;
}

function main() {
  const force = process.argv.includes('--force') || process.env.FAST_HASH_FORCE_BUILD === '1';
  if (!force) {
    const found = loadableBinary();
    if (found.file) {
      console.log(`fast-hash: using ${path.relative(root, found.file)}`);
      return 0;
    }
    if (found.broken) {
      console.log(`fast-hash: ${path.relative(root, found.broken)} does not load here ` +
        `(${found.reason}); compiling from source instead`);
    }
  }
  return compile();
}

if (require.main === module) process.exitCode = main();
module.exports = { localNodeDir, findNodeGyp };
