'use strict';
// The command's -j/--jobs: files hashed at once, lines and errors still in
// argument order, the option's own errors, and output that streams while
// later files are still being read.
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

const BIN = path.join(__dirname, '..', 'bin', 'fast-hash.js');
const sha = (data) => crypto.createHash('sha256').update(data).digest('hex');

describe('fast-hash -j', function () {
  let dir;
  const sizes = { big1: 3 << 20, small1: 10, big2: 2 << 20, small2: 300, mid: 400 << 10 };
  const content = (name) => Buffer.alloc(sizes[name], name);

  before(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-jobs-'));
    for (const name of Object.keys(sizes)) fs.writeFileSync(path.join(dir, name), content(name));
    fs.mkdirSync(path.join(dir, 'd'));
  });

  after(function () {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const run = (args, input = '') => {
    const res = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, input, timeout: 20000 });
    return { status: res.status, stdout: res.stdout.toString(), stderr: res.stderr.toString() };
  };

  it('prints lines and errors in argument order whatever finishes first', function () {
    // Large files first, so later small ones finish before them.
    const names = ['big1', 'small1', 'missing', 'big2', 'd', 'small2', 'mid', '-', 'big1'];
    const expected = names.filter((n) => n !== 'missing' && n !== 'd')
      .map((n) => `${sha(n === '-' ? 'in' : content(n))}  ${n}\n`).join('');
    for (const jobs of [['-j', '4'], ['--jobs=3'], ['-j1'], ['--jobs', '2']]) {
      const both = spawnSync('sh', ['-c', 'exec "$@" 2>&1', 'sh', process.execPath, BIN, ...jobs, ...names],
        { cwd: dir, input: 'in' });
      const lines = both.stdout.toString();
      assert.strictEqual(both.status, 1, jobs.join(' '));
      assert.strictEqual(lines.replace(/^fast-hash: .*\n/mg, ''), expected, jobs.join(' '));
      assert.match(lines, /small1\nfast-hash: missing: No such file or directory\n[0-9a-f]{64} {2}big2\nfast-hash: d: Is a directory\n/);
    }
  });

  it('checks a list in parallel, results in list order', function () {
    const names = ['big1', 'small1', 'big2', 'mid', 'small2'];
    const list = names.map((n, i) => `${i === 2 ? '0'.repeat(64) : sha(content(n))}  ${n}\n`).join('');
    fs.writeFileSync(path.join(dir, 'list'), list);
    const res = run(['-c', '-j', '4', 'list']);
    assert.strictEqual(res.status, 1);
    assert.strictEqual(res.stdout, 'big1: OK\nsmall1: OK\nbig2: FAILED\nmid: OK\nsmall2: OK\n');
    assert.strictEqual(res.stderr, 'fast-hash: WARNING: 1 computed checksum did NOT match\n');
  });

  it('refuses a job count that is not a positive integer', function () {
    for (const bad of ['0', '-1', 'x', '1.5', '']) {
      const res = run([`--jobs=${bad}`, 'small1']);
      assert.strictEqual(res.status, 1, bad);
      assert.strictEqual(res.stdout, '');
      assert.strictEqual(res.stderr,
        `fast-hash: invalid number of jobs: '${bad}'\nTry 'fast-hash --help' for more information.\n`);
    }
    assert.match(run(['-j']).stderr, /^fast-hash: option requires an argument -- 'j'\n/);
  });

  // A FIFO with no writer yet blocks its job; the file before it must be
  // printed meanwhile, not when the FIFO's line is ready.
  it('streams: a line is written while a later file is still being read', async function () {
    if (process.platform === 'win32' || spawnSync('mkfifo', [path.join(dir, 'fifo')]).error) this.skip();
    const child = spawn(process.execPath, [BIN, '-j', '2', 'small1', 'fifo'], { cwd: dir });
    let stdout = '';
    // Without a first line within seconds the FIFO is fed anyway, so a
    // command that holds its output back fails here rather than hanging.
    const first = await new Promise((resolve) => {
      const timer = setTimeout(() => resolve(stdout), 5000);
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        clearTimeout(timer);
        resolve(stdout);
      });
    });
    fs.writeFileSync(path.join(dir, 'fifo'), 'late');
    const status = await new Promise((resolve) => child.on('close', resolve));
    assert.strictEqual(first, `${sha(content('small1'))}  small1\n`);
    assert.strictEqual(status, 0);
    assert.strictEqual(stdout, `${sha(content('small1'))}  small1\n${sha('late')}  fifo\n`);
  });
});
