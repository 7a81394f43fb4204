'use strict';
// npm run test:valgrind: runs test/fixtures/valgrind-driver.js (every export,
// its error paths included) under memcheck, once as loaded and once with
// FAST_HASH_FORCE_EVP=1 (the EVP path for every digest), against the addon
// in build/ (or the prebuild node-gyp-build would load). Linux only.
//
// Node and V8 are not ours and are not clean under memcheck (V8's
// conservative stack scan reads uninitialised words, Node leaves memory
// unfreed at exit), so an error fails the run only when one of its stack
// frames is in our .node file; the others are counted and ignored. Valgrind
// writes XML, which names each frame's object file even where symbols are
// missing.
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const root = path.join(__dirname, '..');
const driver = path.join(root, 'test', 'fixtures', 'valgrind-driver.js');

// Definite leaks that are not per-call and happen with node:crypto alone:
// OpenSSL keeps one error-queue state per thread, freed only when the thread
// exits, and libuv's thread-pool threads never do (crypto.pbkdf2() leaves
// the same record). Our async jobs reach it through ERR_clear_error().
const SUPPRESSIONS = `
{
   openssl-per-thread-error-state
   Memcheck:Leak
   match-leak-kinds: definite
   fun:malloc
   fun:CRYPTO_zalloc
   ...
   fun:ossl_err_get_state_int
}
`;

// Every non-leak error kind is a memory error (InvalidRead/Write/Free,
// Uninit*, SyscallParam, Overlap, ...); of the leaks only definite ones count.
const counts = (kind) => !kind.startsWith('Leak_') || kind === 'Leak_DefinitelyLost';

const unescape = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
  .replace(/&apos;/g, "'").replace(/&amp;/g, '&');
const field = (xml, tag) => {
  const m = xml.match(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`));
  return m ? unescape(m[1]) : '';
};

function parse(xml) {
  return [...xml.matchAll(/<error>([\s\S]*?)<\/error>/g)].map(([, body]) => ({
    kind: field(body, 'kind'),
    what: field(body, 'what') || field(field(body, 'xwhat'), 'text'),
    frames: [...body.matchAll(/<frame>([\s\S]*?)<\/frame>/g)].map(([, f]) => ({
      fn: field(f, 'fn') || field(f, 'ip'),
      where: field(f, 'file') ? `${field(f, 'file')}:${field(f, 'line')}` : field(f, 'obj'),
      obj: field(f, 'obj'),
    })),
  }));
}

function runOnce(label, env, addon, dir) {
  const xmlFile = path.join(dir, `${label}.xml`);
  const args = [
    '--tool=memcheck', '--leak-check=full', '--errors-for-leak-kinds=definite',
    '--show-leak-kinds=definite', `--suppressions=${path.join(dir, 'fast-hash.supp')}`,
    // Deep stacks: our frame can sit under OpenSSL's and Node-API's.
    '--num-callers=40', '--xml=yes', `--xml-file=${xmlFile}`,
    `--log-file=${path.join(dir, `${label}.log`)}`,
    process.execPath, '--expose-gc', driver,
  ];
  const started = Date.now();
  const res = spawnSync('valgrind', args, { cwd: root, env: { ...process.env, ...env }, stdio: 'inherit' });
  if (res.error) throw res.error;
  const xml = fs.readFileSync(xmlFile, 'utf8');
  const errors = parse(xml).filter((e) => counts(e.kind));
  const ours = errors.filter((e) => e.frames.some((f) => f.obj === addon));
  for (const e of ours) {
    console.error(`\n${label}: ${e.kind}: ${e.what}`);
    for (const f of e.frames.slice(0, 15)) console.error(`    ${f.fn} (${f.where})`);
  }
  const suppressed = [...field(xml, 'suppcounts').matchAll(/<count>(\d+)<\/count>/g)]
    .reduce((sum, [, n]) => sum + Number(n), 0);
  const secs = Math.round((Date.now() - started) / 1000);
  console.log(`valgrind ${label}: driver exit ${res.status}, ${ours.length} finding(s) in fast-hash, ` +
    `${errors.length - ours.length} ignored in node/V8, ${suppressed} suppressed, ${secs}s`);
  return res.status === 0 && ours.length === 0;
}

function main() {
  const addon = fs.realpathSync(require('node-gyp-build').path(root));
  // An ASan build (left by an interrupted test:sanitize) cannot run under valgrind.
  if (fs.readFileSync(addon).includes('libasan.so')) {
    console.error(`${addon} is a sanitizer build: run npm run build first`);
    return 1;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-valgrind-'));
  try {
    fs.writeFileSync(path.join(dir, 'fast-hash.supp'), SUPPRESSIONS);
    console.log(`valgrind: ${path.relative(root, addon)}`);
    const ok = [
      runOnce('default', {}, addon, dir),
      runOnce('forced-evp', { FAST_HASH_FORCE_EVP: '1' }, addon, dir),
    ].every(Boolean);
    console.log(ok ? 'valgrind: passed' : 'valgrind: FAILED');
    return ok ? 0 : 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = main();
