'use strict';
// Builds prebuilds/<platform>-<arch>/ with prebuildify (one Node-API binary
// serves every Node version), offline when the running Node's headers are
// installed beside it: node-gyp takes --nodedir from npm_config_nodedir.
const { spawnSync } = require('child_process');
const path = require('path');
const { localNodeDir } = require('./build');

const nodedir = localNodeDir();
const env = { ...process.env };
if (nodedir) env.npm_config_nodedir = nodedir;
const bin = path.join(path.dirname(require.resolve('prebuildify/package.json')), 'bin.js');
const res = spawnSync(process.execPath, [bin, '--napi', '--strip'], {
  // Progress to stderr: `npm pack --json` owns stdout.
  cwd: path.join(__dirname, '..'), env, stdio: ['inherit', 2, 2],
});
if (res.error) throw res.error;
process.exitCode = res.status === null ? 1 : res.status;
