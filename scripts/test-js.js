'use strict';
// The test files again on the JavaScript implementation
// (FAST_HASH_IMPLEMENTATION=js), as part of `npm test`: the suite for what
// Bun, Deno and machines without the addon run, on this Node. The other
// runtimes get the whole suite through `npm run test:matrix`.
//
// Every file of npm test's spec (.mocharc.json) runs, but those that say
// they test the addon alone with a line among their first MARKER_LINES:
//   // @native-only: <why>
// (binding internals, the C build, the package, the sources). A new file
// then runs here unless it says otherwise; test/test-js.test.js checks that
// every test file is run here, marked, or one of npm run test:long's
// (test/long/: limits, soak, fuzzers, worker cycles; left out here for
// npm test's time, and run on the JS implementation by the matrix's js
// rows).
//
// The hostile-argument fuzzers (hostile-*.test.js) are left out here too:
// on the JS implementation they take minutes, and the matrix's node20-js
// row runs them there.
//
//   node scripts/test-js.js [mocha options]   runs them
//   node scripts/test-js.js --list            prints the files, runs nothing
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..');
const MARKER_LINES = 5;
const MARKER = /^\/\/ @native-only: *(.*)$/;

// The files a mocha config's spec names ("dir/*.suffix" patterns, as
// .mocharc.json and .mocharc.long.json have), relative to the root, sorted.
function specFiles(config) {
  const { spec } = JSON.parse(fs.readFileSync(path.join(ROOT, config), 'utf8'));
  const files = [];
  for (const pattern of [].concat(spec)) {
    const dir = path.dirname(pattern);
    const re = new RegExp(`^${path.basename(pattern).split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    for (const name of fs.readdirSync(path.join(ROOT, dir)).sort()) if (re.test(name)) files.push(`${dir}/${name}`);
  }
  return files;
}

// The reason a file gives for running on the addon only, or null when it
// has no marker among its first MARKER_LINES lines. An empty reason is ''.
function nativeOnlyReason(file) {
  const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').slice(0, MARKER_LINES);
  for (const line of lines) {
    const m = MARKER.exec(line.trim());
    if (m) return m[1].trim();
  }
  return null;
}

// Files left to the matrix's JavaScript-implementation rows, for time.
const MATRIX_ONLY = /^test\/hostile-[^/]*\.test\.js$/;

// npm test's files that run on the JavaScript implementation.
function jsFiles() {
  return specFiles('.mocharc.json').filter((f) => nativeOnlyReason(f) === null && !MATRIX_ONLY.test(f));
}

module.exports = { MARKER_LINES, MATRIX_ONLY, specFiles, nativeOnlyReason, jsFiles };

if (require.main === module) {
  const files = jsFiles();
  if (process.argv.includes('--list')) {
    console.log(files.join('\n'));
  } else {
    const mocha = path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');
    console.log(`== ${files.length} test files on the JavaScript implementation (FAST_HASH_IMPLEMENTATION=js)`);
    const run = spawnSync(process.execPath, [mocha, '--no-config', '--exit', '--timeout', '20000', ...process.argv.slice(2), ...files], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, FAST_HASH_IMPLEMENTATION: 'js' },
    });
    process.exitCode = run.status === null ? 1 : run.status;
  }
}
