'use strict';

// The code samples of README.md and docs/*.md, run as a user would run them.
//
// Each file's fenced ```js blocks, in order, make one CommonJS program (inside
// an async function, so samples may `await`), and its ```mjs blocks one ES
// module. They run in a child process whose working directory is a temporary
// folder where `require('fast-hash')` and `import ... from 'fast-hash'` reach
// this checkout (node_modules/fast-hash links to it) and `hello.txt` holds
// "hello\n", the file the samples read. A sample states a result with a line
// of the form
//
//   console.log(expression); // => 'the result, as util.inspect writes it'
//
// (several values: as `console.log` would join their inspections with a
// space). Such a line's `console.log(` becomes a call that prints its line
// number in the Markdown file beside the inspected values, and the test holds
// each printed line to its comment, and fails on a stated result that is
// never printed, a sample that throws, or a program that does not end.
// Blocks fenced otherwise (```sh, ```ts, ``` or ```js skip) are not run.

const assert = require('node:assert');
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const MARK = '@@docs-sample@@';

// The Markdown files whose samples run: README.md, then docs/*.md by name.
function documents() {
  const docs = fs.readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

// The fenced blocks of `text`: { lang, info, line (1-based, of the block's
// first code line), lines }. An unclosed fence is an error: the rest of the
// file would silently be code.
function fencedBlocks(text, file) {
  const blocks = [];
  const lines = text.split('\n');
  let open = null;
  lines.forEach((line, i) => {
    const fence = /^(`{3,})\s*(.*)$/.exec(line);
    if (open === null) {
      if (fence) {
        const info = fence[2].trim();
        open = { fence: fence[1], lang: info.split(/\s+/)[0], info, line: i + 2, lines: [] };
      }
    } else if (fence && fence[1].length >= open.fence.length && fence[2].trim() === '') {
      blocks.push(open);
      open = null;
    } else {
      open.lines.push(line);
    }
  });
  if (open !== null) throw new Error(`${file}:${open.line - 1}: a fence that is never closed`);
  return blocks;
}

// Whether a block runs: ```js or ```mjs with nothing after the language.
function runs(block) {
  return (block.lang === 'js' || block.lang === 'mjs') && block.info === block.lang;
}

// One program from `blocks` of `file`: its source, and the results it states
// (Markdown line -> expected text).
function program(file, blocks, kind) {
  const expected = new Map();
  const body = [];
  for (const block of blocks) {
    body.push(`// ---- ${file}:${block.line}`);
    block.lines.forEach((line, i) => {
      const at = block.line + i;
      const stated = /\/\/ => (.*)$/.exec(line);
      if (!stated) {
        body.push(line);
        return;
      }
      const calls = line.split('console.log(').length - 1;
      if (calls !== 1) {
        throw new Error(`${file}:${at}: a stated result (// =>) needs exactly one console.log( on its line`);
      }
      expected.set(at, stated[1].trim());
      body.push(line.replace('console.log(', `__log(${at}, `));
    });
  }
  const log = 'function __log(line, ...values) {\n' +
    `  process.stdout.write(\`${MARK}\${line}\\t\${values.map((v) => __inspect(v, { breakLength: Infinity, depth: null })).join(' ')}\\n\`);\n` +
    '}\n';
  if (kind === 'mjs') {
    return { expected, source: `import { inspect as __inspect } from 'node:util';\n${log}${body.join('\n')}\n` };
  }
  // The samples' top-level `await`s need an async function in CommonJS; an
  // error it rejects with fails the program as an uncaught one would.
  return {
    expected,
    source: `'use strict';\nconst __inspect = require('node:util').inspect;\n${log}` +
      `(async () => {\n${body.join('\n')}\n})().catch((err) => {\n  console.error(err);\n  process.exitCode = 1;\n});\n`,
  };
}

function run(file, cwd) {
  return new Promise((resolve) => {
    execFile(process.execPath, [file], { cwd, timeout: 60000, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      resolve({ error, stdout, stderr });
    });
  });
}

// The printed results of a run: Markdown line -> the texts printed for it.
function printed(stdout) {
  const seen = new Map();
  for (const line of stdout.split('\n')) {
    if (!line.startsWith(MARK)) continue;
    const tab = line.indexOf('\t');
    const at = Number(line.slice(MARK.length, tab));
    if (!seen.has(at)) seen.set(at, []);
    seen.get(at).push(line.slice(tab + 1));
  }
  return seen;
}

describe('docs samples (README.md, docs/*.md)', function () {
  this.timeout(120000);
  let tmp;

  before(function () {
    // Another runtime's execPath does not run these programs as Node does;
    // the matrix holds the API itself to the same results there.
    if (process.versions.bun || process.versions.deno) this.skip();
    // Wine's Windows Node can make no folder link (ENOTSUP); the samples
    // are the same on every platform, and the Linux runs check them.
    if (process.platform === 'win32') this.skip();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-docs-'));
    fs.mkdirSync(path.join(tmp, 'node_modules'));
    // 'junction' makes a folder link on Windows without privileges; POSIX ignores it.
    fs.symlinkSync(ROOT, path.join(tmp, 'node_modules', 'fast-hash'), 'junction');
  });

  after(function () {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('reads the fences: README.md has samples that run and state results', function () {
    const blocks = fencedBlocks(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'), 'README.md');
    const running = blocks.filter(runs);
    assert.ok(running.length >= 5, `README.md: ${running.length} runnable blocks`);
    assert.ok(running.some((b) => b.lang === 'mjs'), 'README.md has an ESM sample');
    const { expected } = program('README.md', running.filter((b) => b.lang === 'js'), 'js');
    assert.ok(expected.size >= 10, `README.md states ${expected.size} results`);
    assert.deepStrictEqual(fencedBlocks('a\n```js skip\nx\n```\n```mjs\ny\n```\n', 'x.md').map(runs), [false, true]);
  });

  for (const doc of documents()) {
    const all = fencedBlocks(fs.readFileSync(path.join(ROOT, doc), 'utf8'), doc).filter(runs);
    for (const kind of ['js', 'mjs']) {
      const blocks = all.filter((b) => b.lang === kind);
      if (blocks.length === 0) continue;
      it(`${doc}: the ${kind} samples run and print what they state`, async function () {
        const { source, expected } = program(doc, blocks, kind);
        const dir = fs.mkdtempSync(path.join(tmp, `${path.basename(doc, '.md')}-`));
        fs.writeFileSync(path.join(dir, 'hello.txt'), 'hello\n');
        const file = path.join(dir, `samples.${kind === 'mjs' ? 'mjs' : 'js'}`);
        fs.writeFileSync(file, source);

        const { error, stdout, stderr } = await run(file, dir);
        assert.strictEqual(error, null, `${doc} (${kind}) failed: ${error && error.message}\n${stderr}\nprogram: ${file}`);
        // Every mismatch at once, each with its line, so one run shows them all.
        const seen = printed(stdout);
        const wrong = [];
        for (const [at, want] of expected) {
          const got = seen.get(at);
          if (!got) wrong.push(`${doc}:${at}: stated ${want}, never printed`);
          else for (const text of got) if (text !== want) wrong.push(`${doc}:${at}: stated ${want}, printed ${text}`);
        }
        assert.deepStrictEqual(wrong, []);
      });
    }
  }
});
