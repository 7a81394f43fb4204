'use strict';
// npm run test:sanitize: rebuilds the addon with AddressSanitizer + UBSan
// (binding.gyp's sanitize=1), runs the mocha suite against it, then rebuilds
// the normal addon, pass or fail, so build/ is left as it was. Exits non-zero
// on a failing test or on any sanitizer report. GCC and Linux only.
//
// Node itself is not instrumented, so the sanitizer runtimes are preloaded
// into it (LD_PRELOAD) and the addon's calls are checked from inside.
const { spawnSync, execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { localNodeDir } = require('./build');

const root = path.join(__dirname, '..');

function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (res.error) throw res.error;
  return res.status === null ? 1 : res.status;
}

function build(sanitize) {
  const args = [require.resolve('node-gyp/bin/node-gyp.js'), 'rebuild', '--loglevel=warn'];
  const nodedir = localNodeDir();
  if (nodedir) args.push(`--nodedir=${nodedir}`); // offline, as scripts/build.js does
  if (sanitize) args.push('--', '-Dsanitize=1'); // a gyp variable, past node-gyp's own options
  console.log(`fast-hash: ${sanitize ? 'sanitized' : 'normal'} build`);
  if (run(process.execPath, args) !== 0) throw new Error('node-gyp rebuild failed');
}

// gcc prints the bare name back when it has no such library.
function runtime(name) {
  const file = execFileSync('gcc', [`-print-file-name=${name}`], { encoding: 'utf8' }).trim();
  if (!path.isAbsolute(file)) throw new Error(`gcc has no ${name}`);
  return file;
}

// gcc's UBSan runtime is a library apart from ASan's, and its call to set
// its own log_path binds to ASan's exported copy (ASan comes first), so its
// reports would only reach stderr, which tests capture from the child
// processes they spawn. This preloaded constructor sets UBSan's own report
// path.
const UBSAN_LOG_SHIM = `
#include <dlfcn.h>
#include <stdlib.h>
__attribute__((constructor)) static void set_ubsan_log_path(void) {
  void *ubsan = dlopen("libubsan.so.1", RTLD_NOW | RTLD_NOLOAD);
  void (*set)(const char *) = ubsan == NULL ? NULL :
      (void (*)(const char *))dlsym(ubsan, "__sanitizer_set_report_path");
  const char *path = getenv("FAST_HASH_UBSAN_LOG");
  if (set != NULL && path != NULL) set(path);
}
`;

function ubsanLogShim(dir) {
  const src = path.join(dir, 'ubsan-log.c');
  const lib = path.join(dir, 'ubsan-log.so');
  fs.writeFileSync(src, UBSAN_LOG_SHIM);
  execFileSync('gcc', ['-shared', '-fPIC', '-o', lib, src, '-ldl']);
  return lib;
}

function runSuite(tmp, logDir) {
  const env = {
    ...process.env,
    // ASan must come first in the process; UBSan's runtime is separate in gcc.
    LD_PRELOAD: [runtime('libasan.so'), runtime('libubsan.so'), ubsanLogShim(tmp), process.env.LD_PRELOAD]
      .filter(Boolean).join(' '),
    FAST_HASH_UBSAN_LOG: path.join(logDir, 'ubsan'),
    // detect_leaks=0: LeakSanitizer does not scan the V8 heap, so native
    // memory that only JS objects point to looks leaked, and Node leaves much
    // unfreed at exit (leaks are scripts/valgrind.js's job).
    // log_path (FAST_HASH_UBSAN_LOG for UBSan): tests spawn child processes
    // (the CLI, the GC fixture), some expecting them to fail; every
    // process's report lands in logDir, and any file there fails the run
    // whatever the exit codes said.
    // allocator_may_return_null: a huge requested length must reach our
    // out-of-memory path, not abort inside ASan's allocator.
    // quarantine_size_mb=16 (default 256): freed blocks held back to catch
    // use-after-free count as RSS, and the HmacKey GC test asserts that RSS
    // stays flat (< 64 MiB) over a million dropped keys.
    ASAN_OPTIONS: [
      'detect_leaks=0', 'verify_asan_link_order=0', 'halt_on_error=1', 'abort_on_error=0',
      'exitcode=86', 'allocator_may_return_null=1', 'quarantine_size_mb=16',
      `log_path=${path.join(logDir, 'asan')}`,
    ].join(':'),
    UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1:exitcode=87',
    // The instrumented addon is several times slower: a shorter soak (the
    // same mix of calls) keeps the run within minutes.
    FAST_HASH_SOAK_CALLS: process.env.FAST_HASH_SOAK_CALLS || '300000',
  };
  // npm test's files (.mocharc.json) and npm run test:long's (named here:
  // spec files on the command line are added to the config's), but
  // package.test.js packs and installs tarballs: slow, and not about memory;
  // lint.test.js checks the sources (ESLint, clang-format, whose binary
  // ASan's preloaded runtime has no business in).
  const long = JSON.parse(fs.readFileSync(path.join(root, '.mocharc.long.json'), 'utf8')).spec;
  const mocha = path.join(root, 'node_modules', '.bin', 'mocha');
  return run(mocha, ['--ignore', 'test/package.test.js', '--ignore', 'test/lint.test.js', ...long], { env });
}

// With allocator_may_return_null=1 ASan still logs a warning for each
// allocation it refuses (the fuzzer asks for outputs of 2^40 bytes, which
// must come back as a coded error): a log of nothing else is no report.
function onlyRefusedAllocations(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  return lines.length > 0 && lines.every((l) => /WARNING: AddressSanitizer failed to allocate/.test(l));
}

function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-sanitize-'));
  const logDir = path.join(tmp, 'logs');
  fs.mkdirSync(logDir);
  const started = Date.now();
  let status;
  let reports;
  try {
    try {
      build(true);
      status = runSuite(tmp, logDir);
    } finally {
      build(false);
    }
    reports = fs.readdirSync(logDir).sort().filter((file) => !onlyRefusedAllocations(path.join(logDir, file)));
    for (const file of reports) {
      console.error(`\n--- ${file} ---\n${fs.readFileSync(path.join(logDir, file), 'utf8')}`);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const secs = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`sanitize: mocha exit ${status}, ${reports.length} sanitizer report(s), ${secs}s`);
  return status === 0 && reports.length === 0 ? 0 : 1;
}

process.exitCode = main();
