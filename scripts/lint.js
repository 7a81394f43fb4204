'use strict';
// npm run lint: ESLint over the JavaScript (eslint.config.js) and the
// clang-format check of the C in src/ and benchmark/ceiling/bench.c
// (.clang-format, with --dry-run --Werror: a file clang-format would change
// fails). Both tools are
// devDependencies (eslint; clang-format-node ships the clang-format binary),
// so a fresh clone needs nothing past `npm ci`. test/lint.test.js runs this
// in `npm test`.
//
//   node scripts/lint.js            both checks
//   node scripts/lint.js --js       ESLint only
//   node scripts/lint.js --c        clang-format only
//   node scripts/lint.js --fix      rewrite instead of checking (eslint --fix,
//                                   clang-format -i)

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { parseCommandLine } = require('./parse-args');

const ROOT = path.join(__dirname, '..');
const SRC = path.join(ROOT, 'src');

const USAGE = 'usage: node scripts/lint.js [--js] [--c] [--fix]';

async function eslint(fix) {
  const { ESLint } = require('eslint');
  const linter = new ESLint({ cwd: ROOT, fix });
  const results = await linter.lintFiles(['.']);
  if (fix) await ESLint.outputFixes(results);
  const formatter = await linter.loadFormatter('stylish');
  const text = await formatter.format(results);
  if (text) process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  const errors = results.reduce((n, r) => n + r.errorCount, 0);
  const warnings = results.reduce((n, r) => n + r.warningCount, 0);
  return errors + warnings === 0;
}

function clangFormatBinary() {
  const { getClangFormatPath } = require('clang-format-node');
  return getClangFormatPath(process.platform, process.arch);
}

// The addon's C, and the benchmarks' ceilings compiled with it.
const C_ELSEWHERE = [path.join('benchmark', 'ceiling', 'bench.c')];

function clangFormat(fix) {
  const files = [
    ...fs.readdirSync(SRC).filter((f) => /\.[ch]$/.test(f)).sort().map((f) => path.join('src', f)),
    ...C_ELSEWHERE,
  ];
  const args = fix ? ['-i', ...files] : ['--dry-run', '--Werror', ...files];
  const res = spawnSync(clangFormatBinary(), ['--style=file', ...args], { cwd: ROOT, encoding: 'utf8' });
  if (res.error) throw res.error;
  process.stdout.write(res.stdout);
  process.stderr.write(res.stderr);
  if (res.status !== 0 && !fix) {
    console.error(`clang-format: the C differs from .clang-format (node scripts/lint.js --c --fix rewrites it)`);
  }
  return res.status === 0;
}

async function main() {
  const parsed = parseCommandLine(process.argv.slice(2),
    { js: { type: 'boolean' }, c: { type: 'boolean' }, fix: { type: 'boolean' } }, USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  const both = !values.js && !values.c;
  let ok = true;
  if (both || values.js) ok = (await eslint(values.fix)) && ok;
  if (both || values.c) ok = clangFormat(values.fix) && ok;
  return ok ? 0 : 1;
}

main().then((code) => { process.exitCode = code; }, (err) => {
  console.error(err);
  process.exitCode = 1;
});
