'use strict';
// The child of test/clients.test.js: runs the rows of ./cases.js on the
// packages in node_modules and prints {results, hits, ...} as one JSON line.
//
//   node test/clients/child.js <fixtures dir>            their crypto is node:crypto
//   FH_CLIENTS_TARGET=<cjs> FH_CLIENTS_TARGET_URL=<esm url> FH_CLIENTS_HITS=<file> \
//     node -r ./test/clients/child.js test/clients/child.js <fixtures dir>
//
// Preloaded (-r) with FH_CLIENTS_TARGET set, this file installs the redirect
// before anything loads, in the main thread and, since a worker inherits
// -r from execArgv, in every worker thread (hasha hashes in one): a request
// for 'crypto' or 'node:crypto' made by a module inside one of PACKAGES'
// directories gets the target instead, through a Module._load hook for
// require() and a module.register() resolve hook for import. Every
// redirected request is appended to FH_CLIENTS_HITS (one JSON line), so the
// test can tell that it happened. Nothing else is touched: fast-hash's own
// require('node:crypto') (its JS implementation) is outside the scope.
//
// scripts/run-client-suites.js preloads this file too, for the packages'
// own test suites (FH_CLIENTS_SCOPES: the directories to redirect, joined
// or files, joined with path.delimiter, in place of PACKAGES in node_modules).
const fs = require('fs');
const path = require('path');
const Module = require('module');
const { pathToFileURL } = require('url');

const ROOT = path.join(__dirname, '..', '..');
const PACKAGES = ['etag', 'ssri', 'md5-file', 'hasha', 'folder-hash'];
const CRYPTO = new Set(['crypto', 'node:crypto']);
const HOOKED = Symbol.for('fast-hash.clients.hooked');

// Where the redirect can be installed here: require() through Module._load
// (not Bun's, not Deno's), import through module.register (Node >= 20.6).
function hookSupport() {
  if (process.versions.bun || process.versions.deno) return { cjs: false, esm: false, why: `${process.versions.bun ? 'Bun' : 'Deno'} resolves node builtins without Module._load or module.register hooks` };
  const esm = typeof Module.register === 'function';
  return { cjs: true, esm, why: esm ? '' : `module.register() is absent on Node ${process.version}` };
}

function scopes() {
  const list = process.env.FH_CLIENTS_SCOPES
    ? process.env.FH_CLIENTS_SCOPES.split(path.delimiter)
    : PACKAGES.map((p) => path.join(ROOT, 'node_modules', p));
  // A directory covers what is under it; a file, itself.
  return list.map((d) => fs.realpathSync(d) + (fs.statSync(d).isDirectory() ? path.sep : ''));
}

function installHooks() {
  if (globalThis[HOOKED]) return;
  globalThis[HOOKED] = true;
  const target = process.env.FH_CLIENTS_TARGET;
  const hits = process.env.FH_CLIENTS_HITS;
  const dirs = scopes();
  const record = (hit) => { if (hits) fs.appendFileSync(hits, `${JSON.stringify(hit)}\n`); };
  const inScope = (file) => dirs.some((d) => file.startsWith(d));

  const load = Module._load;
  Module._load = function (request, parent, ...rest) {
    if (CRYPTO.has(request) && parent && parent.filename && inScope(parent.filename)) {
      const got = load.call(this, target, parent, false);
      record({ kind: 'require', request, from: parent.filename, implementation: got.implementation ?? null });
      return got;
    }
    return load.call(this, request, parent, ...rest);
  };

  if (hookSupport().esm) {
    const url = process.env.FH_CLIENTS_TARGET_URL || pathToFileURL(target).href;
    const source = `
      import fs from 'node:fs';
      let cfg;
      export function initialize(data) { cfg = data; }
      export async function resolve(specifier, context, next) {
        const from = context.parentURL;
        if ((specifier === 'crypto' || specifier === 'node:crypto') && from && cfg.scopes.some((s) => from.startsWith(s))) {
          if (cfg.hits) fs.appendFileSync(cfg.hits, JSON.stringify({ kind: 'import', request: specifier, from, url: cfg.url }) + '\\n');
          return { url: cfg.url, shortCircuit: true };
        }
        return next(specifier, context);
      }`;
    const urlScopes = dirs.map((d) => pathToFileURL(d).href); // a directory's keeps its trailing /
    Module.register(`data:text/javascript,${encodeURIComponent(source)}`, { data: { scopes: urlScopes, url, hits } });
  }
}

// A result as JSON can carry it, the same on both sides when the values are.
function plain(v) {
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return { buffer: Buffer.from(v).toString('hex') };
  if (v === undefined) return { undefined: true };
  if (v && typeof v === 'object' && !Array.isArray(v) && typeof v.toString === 'function' && v.toString !== Object.prototype.toString) {
    return { string: v.toString(), json: JSON.parse(JSON.stringify(v)) };
  }
  return JSON.parse(JSON.stringify(v));
}

function errorOf(e) {
  if (!(e instanceof Error)) return { thrown: String(e) };
  return { error: e.name, message: e.message, code: e.code, ...(e.uncaught ? { uncaught: true } : {}) };
}

async function main(fixtures) {
  const { rows } = require('./cases');
  const fx = { dir: fixtures, tree: path.join(fixtures, 'tree') };
  const m = {
    etag: require('etag'),
    ssri: require('ssri'),
    md5File: require('md5-file'),
    folderHash: require('folder-hash'),
    hasha: await import('hasha'),
  };
  const results = {};
  // An error thrown in a callback while a row runs (a package's event
  // handler) is that row's result, not the end of the child.
  let fail = null;
  process.on('uncaughtException', (e) => {
    if (!fail) throw e;
    fail(e);
  });
  for (const row of rows) {
    try {
      const uncaught = new Promise((resolve, reject) => { fail = (e) => reject(Object.assign(e, { uncaught: true })); });
      results[row.name] = { value: plain(await Promise.race([row.fn(m, fx), uncaught])) };
    } catch (e) {
      results[row.name] = errorOf(e);
    }
    fail = null;
  }
  const out = { results, support: hookSupport(), hits: [] };
  if (process.env.FH_CLIENTS_HITS && fs.existsSync(process.env.FH_CLIENTS_HITS)) {
    out.hits = fs.readFileSync(process.env.FH_CLIENTS_HITS, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const url = process.env.FH_CLIENTS_TARGET_URL;
    if (url) out.importedImplementation = (await import(url)).implementation ?? null;
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

module.exports = { hookSupport, installHooks, PACKAGES };

if (process.env.FH_CLIENTS_TARGET && hookSupport().cjs) installHooks();
// Preloaded with -r and then named as the script, this file is not run a
// second time (the main module comes from require's cache): start main here.
const isScript = require.main === module || (require('worker_threads').isMainThread && !!process.argv[1] && path.resolve(process.argv[1]) === __filename);
if (isScript) {
  main(process.argv[2]).then(() => process.exit(0), (e) => {
    console.error(e);
    process.exit(1);
  });
}
