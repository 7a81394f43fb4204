'use strict';
// The core test files again on the JavaScript implementation
// (FAST_HASH_IMPLEMENTATION=js), as part of `npm test`: the suite for what
// Bun, Deno and machines without the addon run, on this Node. The other
// runtimes get the whole suite through `npm run test:matrix`.
const { spawnSync } = require('child_process');
const path = require('path');

const CORE = [
  'binding-conformance', 'hash', 'hmac', 'verifyHmac', 'createHmacKey', 'createHasher', 'createHasher-hmac',
  'hashMany', 'hashAsync', 'hmacAsync', 'hashFile', 'hashFileSync', 'detached', 'getHashes', 'wipes-js',
  'hashStream', 'hashStream-errors', 'hashStream-reuse', 'hashStream-endless', 'hashStream-batches', 'hmacStream',
  'hashStream-shared', 'hashStream-memory', 'hashStream-views',
  'passThrough',
  'runtimeCalls',
];

const root = path.join(__dirname, '..');
const mocha = path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
const files = CORE.map((name) => path.join('test', `${name}.test.js`));
console.log('== the core test files on the JavaScript implementation (FAST_HASH_IMPLEMENTATION=js)');
const run = spawnSync(process.execPath, [mocha, '--no-config', '--timeout', '20000', ...process.argv.slice(2), ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, FAST_HASH_IMPLEMENTATION: 'js' },
});
process.exit(run.status === null ? 1 : run.status);
