'use strict';
// Real clients of node:crypto's createHash, run on fast-hash's: etag,
// ssri, md5-file, hasha (ESM, hashes in a worker thread too) and
// folder-hash, as installed in node_modules (devDependencies), not copies.
//
// test/clients/child.js runs the rows of test/clients/cases.js (each calls
// one of their public functions: strings, buffers, files, streams, folders)
// twice: as the packages are, and with every `require('crypto')`,
// `require('node:crypto')` and `import ... from 'node:crypto'` made inside
// their directories answered with this package (require.resolve('..')),
// through a Module._load hook and a module.register() resolve hook
// installed by a preload (-r), so that hasha's worker gets it too. Each row
// must give the same value or the same error (class and message; a `code`
// too where node:crypto gives one). The children log every redirected
// request, so the test also checks that the redirect happened, in each
// package, to this package's exports (its `implementation` marker), and
// that a wrong createHash would be seen (a shim that hashes one byte more).
//
// Where the hooks are not there the rows are skipped, with the reason in
// their titles: Bun and Deno (their require and import of node builtins go
// through neither hook), and hasha's rows where module.register() is absent.
// On the JavaScript implementation (FAST_HASH_IMPLEMENTATION=js, inherited
// by the children) the same rows run on its createHash.
const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const { pathToFileURL } = require('url');
const { rows, makeFixtures } = require('./clients/cases');
const { hookSupport, PACKAGES } = require('./clients/child');

const ROOT = path.join(__dirname, '..');
const CHILD = path.join(__dirname, 'clients', 'child.js');
const fastHash = require('..');
// FH_CLIENTS_TEST_TARGET (a module path, or node:crypto) and
// FH_CLIENTS_TEST_TARGET_URL (its ESM url) put another module in fast-hash's
// place, to check the harness itself: node:crypto must pass every row.
const TARGET = process.env.FH_CLIENTS_TEST_TARGET || require.resolve('..');
const TARGET_URL = process.env.FH_CLIENTS_TEST_TARGET_URL ||
  pathToFileURL(path.join(ROOT, require('../package.json').exports['.'].import.default)).href;
const MARKER = require(TARGET).implementation ?? null;
const ESM_PACKAGES = new Set(['hasha']);

// Runs the child on the fixtures in `dir`; with `target` (a module path or
// 'node:crypto', and its ESM url), the packages' crypto is that. Resolves
// to its JSON.
function runChild(dir, target, targetUrl) {
  const hits = target && path.join(dir, `hits-${Math.random().toString(36).slice(2)}.jsonl`);
  const env = { ...process.env };
  for (const k of ['FH_CLIENTS_TARGET', 'FH_CLIENTS_TARGET_URL', 'FH_CLIENTS_HITS', 'FH_CLIENTS_SCOPES']) delete env[k];
  if (target) Object.assign(env, { FH_CLIENTS_TARGET: target, FH_CLIENTS_TARGET_URL: targetUrl, FH_CLIENTS_HITS: hits });
  const args = [...(target ? ['-r', CHILD] : []), CHILD, path.join(dir, 'fixtures')];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t) => { stdout += t; });
    child.stderr.setEncoding('utf8').on('data', (t) => { stderr += t; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60000);
    child.on('error', reject);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      if (status !== 0) return reject(new Error(`child (${target || 'node:crypto'}) ended with ${status ?? signal}\n${stderr.slice(-4000)}`));
      try {
        resolve(JSON.parse(stdout.trim().split('\n').pop()));
      } catch (e) {
        reject(new Error(`child (${target || 'node:crypto'}) printed no JSON: ${e.message}\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`));
      }
    });
  });
}

// A row's result on the redirected side, compared with node:crypto's: an
// error's `code` is compared only where node:crypto's error has one
// (fast-hash adds codes to errors that have none).
function assertSame(got, want, what) {
  if (got && want && got.error !== undefined && want.error !== undefined && !('code' in want)) {
    got = { ...got };
    delete got.code;
  }
  assert.deepStrictEqual(got, want, `${what}: differs from node:crypto\nfast-hash:   ${JSON.stringify(got).slice(0, 600)}\nnode:crypto: ${JSON.stringify(want).slice(0, 600)}`);
}

// A stand-in for fast-hash that is wrong on purpose: every createHash has
// one byte more hashed. The harness must tell it apart.
function writeBrokenShim(dir) {
  const cjs = path.join(dir, 'broken.cjs');
  fs.writeFileSync(cjs, [
    "const c = require('node:crypto');",
    "module.exports = { getHashes: c.getHashes, createHmac: c.createHmac, implementation: 'broken',",
    "  createHash: (a, o) => c.createHash(a, o).update('!') };",
  ].join('\n'));
  const mjs = path.join(dir, 'broken.mjs');
  fs.writeFileSync(mjs, "import { createRequire } from 'node:module';\nexport default createRequire(import.meta.url)('./broken.cjs');\n");
  return [cjs, pathToFileURL(mjs).href];
}

const support = hookSupport();
const skipWhy = (pkg) => {
  if (!support.cjs) return support.why;
  if (ESM_PACKAGES.has(pkg) && !support.esm) return support.why;
  return null;
};
const skipped = (title, why) => `${title} [skipped: ${why}]`;

describe(`clients (${PACKAGES.join(', ')}): their crypto pointed at fast-hash (${fastHash.implementation})`, function () {
  this.timeout(60000);
  let dir;
  let plain;
  let redirected;
  let broken;

  before(async function () {
    if (!support.cjs) return;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-clients-'));
    fs.mkdirSync(path.join(dir, 'fixtures'));
    makeFixtures(path.join(dir, 'fixtures'));
    const [cjs, mjs] = writeBrokenShim(dir);
    [plain, redirected, broken] = await Promise.all([
      runChild(dir), runChild(dir, TARGET, TARGET_URL), runChild(dir, cjs, mjs),
    ]);
  });

  after(function () {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('the redirect', function () {
    for (const pkg of PACKAGES) {
      const kind = ESM_PACKAGES.has(pkg) ? 'import' : 'require';
      const title = `${pkg}: its ${kind} of crypto got fast-hash's exports`;
      const why = skipWhy(pkg);
      if (why) {
        it.skip(skipped(title, why));
        continue;
      }
      it(title, function () {
        const dirOf = fs.realpathSync(path.join(ROOT, 'node_modules', pkg));
        const mine = redirected.hits.filter((h) => {
          const file = h.from.startsWith('file:') ? require('url').fileURLToPath(h.from) : h.from;
          return file.startsWith(dirOf + path.sep);
        });
        assert.ok(mine.length > 0, `no request for crypto from ${pkg} was redirected: ${JSON.stringify(redirected.hits)}`);
        for (const h of mine) {
          assert.strictEqual(h.kind, kind);
          if (kind === 'require') assert.strictEqual(h.implementation, MARKER, JSON.stringify(h));
          else assert.strictEqual(h.url, TARGET_URL);
        }
        if (kind === 'import') {
          assert.strictEqual(redirected.importedImplementation, MARKER);
          // hasha's worker thread imports node:crypto too, and was redirected.
          if (pkg === 'hasha') assert.ok(mine.some((h) => h.from.endsWith('/thread.js')), JSON.stringify(mine));
        }
        assert.strictEqual(plain.hits.length, 0);
      });
    }

    const title = 'the rows tell a wrong createHash apart (a shim hashing one byte more)';
    if (!support.cjs) it.skip(skipped(title, support.why));
    else {
      it(title, function () {
        for (const pkg of PACKAGES) {
          if (skipWhy(pkg)) continue;
          const differ = rows.filter((r) => r.pkg === pkg && JSON.stringify(broken.results[r.name]) !== JSON.stringify(plain.results[r.name]));
          assert.ok(differ.length > 0, `no ${pkg} row differs with the broken shim`);
        }
      });
    }
  });

  for (const pkg of PACKAGES) {
    describe(pkg, function () {
      const why = skipWhy(pkg);
      for (const row of rows.filter((r) => r.pkg === pkg)) {
        if (why) {
          it.skip(skipped(row.name, why));
          continue;
        }
        it(row.name, function () {
          assert.ok(row.name in plain.results, 'no result on node:crypto');
          assertSame(redirected.results[row.name], plain.results[row.name], row.name);
        });
      }
    });
  }
});
