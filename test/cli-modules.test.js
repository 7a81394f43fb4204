'use strict';
// The fast-hash command loads only the parts of the library it uses: the
// digest and file functions (lib/hash.js, lib/files.js), never the whole
// entry (lib/index.js) with its hashers, stream machinery and node:stream,
// whose loading costs more than hashing a small tree does
// (benchmark/README.md, "The command vs sha256sum"). Checked in a child
// whose preload lists the modules loaded once the command has printed.
const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { implementation } = require('..');

const ROOT = path.join(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'fast-hash.js');
const LIB = path.join(ROOT, 'lib') + path.sep;

// Written to stderr at exit: this checkout's lib/ modules in require.cache,
// and whether node:stream was loaded (Node's own list of its modules).
const PRELOAD = `
process.on('exit', () => {
  const ours = Object.keys(require.cache).filter((p) => p.startsWith(${JSON.stringify(LIB)}))
    .map((p) => p.slice(${JSON.stringify(LIB)}.length).split(require('path').sep).join('/'));
  const stream = (process.moduleLoadList || []).includes('NativeModule stream');
  require('fs').writeSync(2, '\\nMODULES ' + JSON.stringify({ ours, stream }) + '\\n');
});
`;

// The command's run over `args` (in `dir`, 'abc' on its standard input):
// its stdout and what the preload saw.
function loaded(dir, args) {
  const preload = path.join(dir, 'preload.js');
  fs.writeFileSync(preload, PRELOAD);
  const res = spawnSync(process.execPath, ['--require', preload, BIN, ...args], {
    cwd: dir, encoding: 'utf8', timeout: 60000, input: 'abc',
  });
  assert.strictEqual(res.status, 0, res.stderr);
  const line = res.stderr.split('\n').find((l) => l.startsWith('MODULES '));
  assert.ok(line, res.stderr);
  return { stdout: res.stdout, ...JSON.parse(line.slice('MODULES '.length)) };
}

describe('fast-hash command: the modules it loads', function () {
  let dir;

  before(function () {
    if (process.versions.bun || process.versions.deno) this.skip(); // Node's module list
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-cli-modules-'));
    fs.writeFileSync(path.join(dir, 'a.txt'), 'abc');
  });

  after(function () {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const CASES = [
    ['hashing files', ['a.txt']],
    ['hashing files in parallel', ['-j', '2', 'a.txt', 'a.txt']],
    ['checking a list', ['--check', 'list.txt']],
    ['standard input', ['-']],
  ];
  for (const [title, args] of CASES) {
    it(`${title}: lib/hash.js and lib/files.js, not lib/index.js, hashers, streams or node:stream`, function () {
      fs.writeFileSync(path.join(dir, 'list.txt'),
        'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a.txt\n');
      const { stdout, ours, stream } = loaded(dir, args);
      assert.match(stdout, /ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad|OK/);
      assert.ok(ours.includes('hash.js'), ours.join(' '));
      if (args[0] !== '-') assert.ok(ours.includes('files.js'), ours.join(' '));
      const heavy = ours.filter((m) => m === 'index.js' || /^(hasher|stream|drop-in)\//.test(m));
      assert.deepStrictEqual(heavy, []);
      // Standard input is read through process.stdin, a stream itself, and
      // the JavaScript implementation's node:crypto loads node:stream.
      if (args[0] !== '-' && implementation === 'native') assert.strictEqual(stream, false);
    });
  }
});
