'use strict';
// Runs the own test suites of etag, ssri, md5-file, hasha and folder-hash,
// and Node's crypto hash/hmac tests, from source checkouts outside this
// repository, with only the `crypto` of the code under test pointed at
// fast-hash: test/clients/child.js preloaded through NODE_OPTIONS=--require
// (so that child processes and worker threads get it too), its scope being
// the package's own source files, not its tests (which keep node:crypto
// for their expected values).
//
//   node scripts/run-client-suites.js [dir] [suite...]
//
// dir (default ../client-suites beside the repository) holds one checkout
// per suite, named as SUITES below, with its devDependencies installed
// (npm install in each), and node/test/{parallel,common} for Node's tests.
// Each suite runs three times: baseline (no redirect), native and js
// (FAST_HASH_IMPLEMENTATION=js). Prints a table and each failing test's
// name; the whole output of each run is kept in dir/logs/.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { pathToFileURL } = require('url');

const ROOT = path.join(__dirname, '..');
const HOOK = path.join(ROOT, 'test', 'clients', 'child.js');
const TARGET = require.resolve(ROOT);
const TARGET_URL = pathToFileURL(path.join(ROOT, require('../package.json').exports['.'].import.default)).href;
const mocha = (bin, ...args) => [bin, '--reporter', 'tap', ...args];

// name: { cmd (run in the checkout), scope (the files whose crypto is redirected) }
const SUITES = {
  etag: { cmd: mocha('node_modules/mocha/bin/_mocha', '--check-leaks', 'test/'), scope: ['index.js'] },
  ssri: { cmd: ['--test', '--test-reporter=tap', 'test'], scope: ['lib'] },
  'md5-file': { cmd: mocha('node_modules/mocha/bin/_mocha', 'test.js'), scope: ['index.js'] },
  hasha: { cmd: ['--test', '--test-reporter=tap', 'test.js'], scope: ['index.js', 'thread.js'] },
  'folder-hash': { cmd: mocha('node_modules/mocha/bin/mocha.js', 'test'), scope: ['index.js'] },
  // Node's tests are scripts: one check each, passed when it exits with 0.
  node: { files: 'test/parallel', scope: ['test/parallel'] },
};
const MODES = { baseline: null, native: 'native', js: 'js' };

function run(dir, args, mode, scope, log) {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('FH_CLIENTS_') || k === 'FAST_HASH_IMPLEMENTATION') delete env[k];
  const hits = path.join(path.dirname(log), `${path.basename(log, '.log')}.hits`);
  fs.rmSync(hits, { force: true });
  if (MODES[mode]) {
    Object.assign(env, {
      FAST_HASH_IMPLEMENTATION: MODES[mode],
      FH_CLIENTS_TARGET: TARGET,
      FH_CLIENTS_TARGET_URL: TARGET_URL,
      FH_CLIENTS_HITS: hits,
      FH_CLIENTS_SCOPES: scope.map((s) => path.join(dir, s)).join(path.delimiter),
      NODE_OPTIONS: `${env.NODE_OPTIONS || ''} --require ${JSON.stringify(HOOK)}`.trim(),
    });
  }
  const res = spawnSync(process.execPath, args, { cwd: dir, env, encoding: 'utf8', timeout: 300000, maxBuffer: 64 << 20 });
  const out = `${res.stdout}\n${res.stderr}`;
  fs.writeFileSync(log, `$ node ${args.join(' ')}  (${mode}, exit ${res.status ?? res.signal})\n${out}`);
  const redirected = fs.existsSync(hits) ? fs.readFileSync(hits, 'utf8').split('\n').filter(Boolean).length : 0;
  return { status: res.status, out, redirected };
}

// Counts from a TAP stream (mocha's tap reporter, node --test's): the
// summary lines, and the names of the failures.
function tapCounts(out) {
  const n = (what) => {
    const m = new RegExp(`^# ${what} (\\d+)`, 'm').exec(out);
    return m ? Number(m[1]) : NaN;
  };
  const failures = [...out.matchAll(/^(\s*)not ok \d+ - (.*)$/gm)].map((m) => `${m[1].length ? '  ' : ''}${m[2]}`);
  return { total: n('tests'), pass: n('pass'), fail: n('fail'), failures };
}

function runSuite(base, name, mode) {
  const suite = SUITES[name];
  const dir = path.join(base, name);
  const logs = path.join(base, 'logs');
  fs.mkdirSync(logs, { recursive: true });
  if (suite.files) {
    const files = fs.readdirSync(path.join(dir, suite.files)).filter((f) => f.endsWith('.js')).sort();
    const r = { total: files.length, pass: 0, fail: 0, failures: [], redirected: 0 };
    for (const f of files) {
      const log = path.join(logs, `${name}-${path.basename(f, '.js')}-${mode}.log`);
      const res = run(dir, [path.join(suite.files, f)], mode, suite.scope, log);
      r.redirected += res.redirected;
      if (res.status === 0) r.pass++;
      else {
        r.fail++;
        const why = /^(\w*Error[^\n]*|\s+(?:code|message|actual|expected|operator)\b[^\n]*)$/gm;
        r.failures.push(`${f}: ${[...res.out.matchAll(why)].map((m) => m[1].trim()).slice(0, 5).join(' | ')}`);
      }
    }
    return r;
  }
  const res = run(dir, suite.cmd, mode, suite.scope, path.join(logs, `${name}-${mode}.log`));
  return { ...tapCounts(res.out), status: res.status, redirected: res.redirected };
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const base = path.resolve(args[0] && !SUITES[args[0]] ? args.shift() : path.join(ROOT, '..', 'client-suites'));
  const names = args.length ? args : Object.keys(SUITES);
  const table = [];
  for (const name of names) {
    if (!fs.existsSync(path.join(base, name))) {
      console.log(`${name}: no checkout at ${path.join(base, name)}, skipped`);
      continue;
    }
    for (const mode of Object.keys(MODES)) {
      const r = runSuite(base, name, mode);
      table.push({ suite: name, mode, total: r.total, pass: r.pass, fail: r.fail, redirected: r.redirected });
      if (r.failures.length) console.log(`${name} (${mode}) failures:\n  ${r.failures.join('\n  ')}`);
    }
  }
  console.table(table);
  if (table.some((r) => r.mode !== 'baseline' && r.redirected === 0)) {
    console.log('A redirected run with no redirected request: its crypto was not pointed at fast-hash.');
    process.exitCode = 1;
  }
}

module.exports = { SUITES, tapCounts };
