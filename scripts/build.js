'use strict';
// Compiles the addon with node-gyp. When the running Node's own headers sit
// beside it (<prefix>/include/node, with Node's OpenSSL headers) and match
// process.version, node-gyp is pointed at them with --nodedir, so the build
// needs no network. Otherwise node-gyp does what it always does (download).
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

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

function main() {
  const gyp = require.resolve('node-gyp/bin/node-gyp.js');
  const args = [gyp, 'rebuild'];
  const nodedir = localNodeDir();
  if (nodedir) {
    args.push(`--nodedir=${nodedir}`);
    console.log(`fast-hash: building against the headers of ${process.version} in ${nodedir}`);
  } else {
    console.log('fast-hash: no matching local Node headers; node-gyp will fetch them');
  }
  const res = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: path.join(__dirname, '..') });
  if (res.error) throw res.error;
  process.exitCode = res.status === null ? 1 : res.status;
}

if (require.main === module) main();
module.exports = { localNodeDir };
