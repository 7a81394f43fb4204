'use strict';
// The command against the system's GNU sha256sum (and md5sum, sha512sum) for
// a table of argument lists over one set of files: stdout bytes, stderr
// bytes (sha256sum's name replaced by ours) and exit status must be the
// same. Skipped where the tools are missing (Windows, macOS).
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

const BIN = path.join(__dirname, '..', 'bin', 'fast-hash.js');
// A name that is not UTF-8, which only a shell can pass on as bytes: cases
// write it as BAD (and MISSING_BAD for a file that does not exist).
const BAD = Buffer.from('bad\xffname', 'latin1');
const RAW = { BAD: 'bad\\377name', MISSING_BAD: 'no\\377pe' };

const FILES = {
  a: 'a\n', b: 'b\n', empty: '', 'back\\slash': 'x', 'new\nline': 'y', 'cr\rx': 'z', 'sp ace': 's',
  big: crypto.createHash('sha512').update('seed').digest().toString('hex').repeat(40000),
};
const sha = (alg, data) => crypto.createHash(alg).update(data).digest('hex');
const line = (name, hex = sha('sha256', FILES[name] ?? '')) => `${hex}  ${name}\n`;
const ZERO = '0'.repeat(64);

// Checksum lists, written next to the files.
const LISTS = {
  good: line('a') + line('b') + line('back\\slash').replace(/^/, '\\').replace('back\\slash', 'back\\\\slash') + line('big'),
  mixed: line('a') + `# a comment\n\n` + line('b', ZERO) + 'garbage\n' + line('missing') + line('d') + line('sp ace'),
  onlymiss: 'garbage\n' + line('missing'),
  gm: line('a') + line('missing'),
  badfmt: line('a') + 'not a line\n',
  tagged: `SHA256 (a) = ${sha('sha256', 'a\n')}\n\\SHA256 (new\\nline) = ${sha('sha256', 'y')}\nSHA256 (b) = ${ZERO}\n`,
  withdash: line('a') + `${sha('sha256', 'from stdin')}  -\n`,
  crlf: line('a').replace('\n', '\r\n') + line('b').replace('\n', '\r\n'),
  zl: line('a').replace('\n', '\0') + line('b').replace('\n', '\0'),
  bsd: `${sha('sha256', 'a\n')} a\n${sha('sha256', 'b\n')} *b\n`,
  upper: line('a').toUpperCase().replace('  A', '  a'),
  md5tag: `MD5 (a) = ${sha('md5', 'a\n')}\nMD5 (b) = ${'0'.repeat(32)}\n`,
  empty_list: '',
};

// [sha256sum's arguments, { stdin, tool, ours: arguments only ours takes }]
const CASES = [
  [['a', 'b', 'empty', 'big']],
  [['--tag', 'a', 'back\\slash', 'new\nline', 'cr\rx']],
  [['-z', 'a', 'new\nline', 'back\\slash']],
  [['--zero', '--tag', 'new\nline', 'a']],
  [['-b', 'a', 'new\nline', 'sp ace']],
  [['--binary', '--tag', 'a'], { ours: ['-j', '1'] }],
  [['-t', '--tag', 'a']],
  [['--tag', '-t', 'a']],
  [['--tag', '-c', 'good']],
  [['-c', '-z', 'good']],
  [['-z', '-c', '--tag', 'good']],
  [['-c', '-b', 'good']],
  [['-c', '--text', 'good']],
  [['--status', 'a']],
  [['--quiet', 'a']],
  [['-w', 'a']],
  [['--strict', 'a']],
  [['--ignore-missing', 'a']],
  [['--tag', '-t', '-c', '-z', '--status']],
  [['--status', '-w', '--quiet', '--strict', 'a']],
  [['--st', 'a']],
  [['--s', '-c', 'good']],
  [['--t', 'a']],
  [['--sta', '-c', 'mixed']],
  [['--check=1', 'a']],
  [['--qui=x', '-c', 'good']],
  [['-x', 'a']],
  [['--bogus', 'a']],
  [['a', 'missing', 'd', '-', 'b', 'unreadable'], { stdin: 'from stdin' }],
  [['a', 'missing', 'd', '-', 'b', 'big', 'a'], { stdin: 'from stdin', ours: ['-j', '3'] }],
  [[], { stdin: 'from stdin' }],
  [['-', '-'], { stdin: 'from stdin' }],
  [['--tag', '-'], { stdin: 'from stdin' }],
  [['BAD', 'MISSING_BAD', 'a']],
  [['-c', 'good']],
  [['-c', 'good'], { ours: ['-j', '1'] }],
  [['-c', 'mixed']],
  [['-c', 'mixed'], { ours: ['--jobs=4'] }],
  [['-c', '--status', 'mixed']],
  [['-c', '--quiet', 'mixed']],
  [['-c', '-w', 'mixed']],
  [['-c', '--status', '-w', 'mixed']],
  [['-c', '-w', '--status', 'mixed']],
  [['-c', '--strict', 'good']],
  [['-c', '--strict', 'badfmt']],
  [['-c', '--strict', '--status', 'badfmt']],
  [['-c', '--ignore-missing', 'mixed']],
  [['-c', '--ignore-missing', 'gm']],
  [['-c', '--ignore-missing', '--quiet', 'gm']],
  [['-c', '--ignore-missing', 'onlymiss']],
  [['-c', '--ignore-missing', '--status', 'onlymiss']],
  [['-c', 'tagged', 'bsd', 'upper', 'crlf']],
  [['-c', '--status', 'tagged']],
  [['-c', '-'], { stdin: LISTS.good }],
  [['-c', '-', '-'], { stdin: LISTS.good }],
  [['-c', '-w', 'withdash'], { stdin: 'from stdin' }],
  [['-c', 'd', 'nolist', 'empty_list', 'good']],
  [['-c', '-w', 'zl']],
  [['-c', 'rawlist']],
  [['--tag', 'a', 'b'], { tool: 'md5sum', ours: ['-a', 'md5'] }],
  [['-c', '-w', 'md5tag'], { tool: 'md5sum', ours: ['-a', 'md5'] }],
  [['--tag', '-z', 'new\nline'], { tool: 'sha512sum', ours: ['-a', 'sha512'] }],
];

const present = (tool) => !spawnSync(tool, ['--version']).error;

// Runs one command through sh, which turns the BAD placeholders into bytes.
function run(dir, command, args, stdin) {
  const words = args.map((arg, i) => (RAW[arg] ? `"$(printf '${RAW[arg]}')"` : `"$${i + 1}"`));
  const script = `exec ${command.map((w) => `'${w}'`).join(' ')} ${words.join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', script, 'sh', ...args], { cwd: dir });
    const out = [];
    const err = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }));
    child.stdin.on('error', () => {});
    child.stdin.end(stdin === undefined ? '' : stdin);
  });
}

// Runs fn over items, `limit` at a time.
async function pool(items, limit, fn) {
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

describe('fast-hash command against coreutils', function () {
  let dir;
  let results = null;

  before(async function () {
    // Every case's two commands run here, four at a time: minutes under
    // AddressSanitizer (npm run test:sanitize) or on a loaded machine.
    this.timeout(300000);
    if (process.platform === 'win32' || !present('sha256sum') || !present('sh')) return;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-coreutils-'));
    for (const [name, data] of Object.entries({ ...FILES, ...LISTS })) fs.writeFileSync(path.join(dir, name), data);
    fs.writeFileSync(Buffer.concat([Buffer.from(dir + '/'), BAD]), 'bad name');
    fs.writeFileSync(path.join(dir, 'rawlist'), Buffer.concat([
      Buffer.from(`${sha('sha256', 'bad name')}  `), BAD, Buffer.from(`\n${ZERO}  no\xffpe\n`, 'latin1')]));
    fs.writeFileSync(path.join(dir, 'unreadable'), 'secret');
    fs.chmodSync(path.join(dir, 'unreadable'), 0);
    fs.mkdirSync(path.join(dir, 'd'));
    results = await pool(CASES, 4, async ([args, { stdin, tool = 'sha256sum', ours = [] } = {}]) => {
      if (!present(tool)) return null;
      const theirs = await run(dir, [tool], args, stdin);
      const mine = await run(dir, [process.execPath, BIN, ...ours], args, stdin);
      const renamed = Buffer.from(theirs.stderr.toString('latin1').split(`${tool}:`).join('fast-hash:')
        .split(`'${tool} --help'`).join("'fast-hash --help'"), 'latin1');
      return { theirs: { ...theirs, stderr: renamed }, mine };
    });
  });

  after(function () {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  CASES.forEach(([args, { stdin, tool = 'sha256sum', ours = [] } = {}], i) => {
    const title = `${[...ours, ...args].map((a) => JSON.stringify(a)).join(' ')}${stdin === undefined ? '' : ' < input'} as ${tool}`;
    it(title, function () {
      if (results === null || results[i] === null) this.skip();
      const { theirs, mine } = results[i];
      assert.strictEqual(mine.stderr.toString('latin1'), theirs.stderr.toString('latin1'), 'stderr');
      assert.strictEqual(mine.stdout.toString('latin1'), theirs.stdout.toString('latin1'), 'stdout');
      assert.strictEqual(mine.status, theirs.status, 'exit status');
    });
  });
});
