'use strict';
// The install step. A prebuilt binary that loads here is used as it is;
// otherwise (none for this platform, or one that fails to load, e.g. built
// for another libc) the addon is compiled with node-gyp. When the running
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

function compile() {
  const gyp = require.resolve('node-gyp/bin/node-gyp.js');
  const args = [gyp, 'rebuild'];
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
module.exports = { localNodeDir };
