'use strict';
// The fast-hash command, run as a child process against GNU coreutils'
// sha256sum & co. on the same files: the output must be the same bytes, so
// scripts can switch between them. Tests needing a missing tool are skipped.
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { getHashes } = require('..');
const { version } = require('../package.json');
const { bytes } = require('./common');

const BIN = path.join(__dirname, '..', 'bin', 'fast-hash.js');
const TOOLS = { sha256: 'sha256sum', md5: 'md5sum', sha1: 'sha1sum', sha512: 'sha512sum' };

// The names cover sha256sum's escaping: a backslash or a newline in a name
// makes its line start with '\' and the name escaped; a space does not.
const FILES = {
  'empty': Buffer.alloc(0),
  'small.txt': 'The quick brown fox jumps over the lazy dog\n',
  'random.bin': bytes(1 << 20),
  'with space.txt': 'space\n',
  'back\\slash.txt': 'backslash\n',
  'new\nline.txt': 'newline\n',
};
const NAMES = Object.keys(FILES);

describe('fast-hash command', function () {
  let dir;

  before(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-cli-'));
    for (const name of NAMES) fs.writeFileSync(path.join(dir, name), FILES[name]);
  });

  after(function () {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  // Output as latin1 text: byte-exact, and assert shows a readable diff.
  function spawn(command, args, input) {
    const res = spawnSync(command, args, { cwd: dir, input: input === undefined ? '' : input });
    if (res.error) throw res.error;
    return { status: res.status, stdout: res.stdout.toString('latin1'), stderr: res.stderr.toString('latin1') };
  }

  const fastHash = (args, input) => spawn(process.execPath, [BIN, ...args], input);

  const present = new Map();
  // Runs a coreutils tool, or skips the test when it is not installed.
  function tool(ctx, name, args, input) {
    if (!present.has(name)) present.set(name, !spawnSync(name, ['--version']).error);
    if (!present.get(name)) ctx.skip();
    return spawn(name, args, input);
  }

  // coreutils' diagnostics, as fast-hash words them.
  const renamed = (stderr, name) => stderr.split(`${name}:`).join('fast-hash:');

  for (const [alg, toolName] of Object.entries(TOOLS)) {
    // sha256 is the default, so its runs also check that -a can be left out.
    const algArgs = alg === 'sha256' ? [] : ['-a', alg];

    describe(`${alg} (against ${toolName})`, function () {
      it('prints the same lines for every file, escaped names included', function () {
        const theirs = tool(this, toolName, NAMES);
        const ours = fastHash([...algArgs, ...NAMES]);
        assert.strictEqual(theirs.status, 0, theirs.stderr);
        assert.strictEqual(ours.status, 0, ours.stderr);
        assert.strictEqual(ours.stdout, theirs.stdout);
        assert.strictEqual(ours.stderr, '');
        assert.strictEqual(ours.stdout.split('\n').length, NAMES.length + 1); // a line each: the newline escaped
      });

      it('reads standard input for "-" and when no FILE is given', function () {
        const input = FILES['random.bin'];
        const theirs = tool(this, toolName, ['-'], input);
        assert.strictEqual(theirs.status, 0, theirs.stderr);
        for (const args of [['-'], []]) {
          const ours = fastHash([...algArgs, ...args], input);
          assert.strictEqual(ours.status, 0, ours.stderr);
          assert.strictEqual(ours.stdout, theirs.stdout, `arguments: ${JSON.stringify(args)}`);
        }
      });
    });
  }

  describe('--check (against sha256sum -c)', function () {
    // A list made by sha256sum itself, written into the temp dir as `name`.
    function writeList(ctx, name, edit = (text) => text) {
      const made = tool(ctx, 'sha256sum', NAMES);
      assert.strictEqual(made.status, 0, made.stderr);
      const list = edit(made.stdout);
      fs.writeFileSync(path.join(dir, name), list, 'latin1');
      return list;
    }

    it('passes an intact list: exit 0 and the same OK lines', function () {
      const list = writeList(this, 'good.sha256');
      const theirs = tool(this, 'sha256sum', ['-c', 'good.sha256']);
      assert.strictEqual(theirs.status, 0, theirs.stderr);
      for (const [args, input] of [[['--check', 'good.sha256']], [['-c', '-'], list]]) {
        const ours = fastHash(args, input);
        assert.strictEqual(ours.status, 0, ours.stderr);
        assert.strictEqual(ours.stdout, theirs.stdout, `arguments: ${JSON.stringify(args)}`);
        assert.strictEqual(ours.stderr, '');
      }
    });

    it('reports a corrupted entry as FAILED, with the WARNING line and exit 1', function () {
      // Change the first hex digit of small.txt's digest.
      writeList(this, 'bad.sha256', (text) =>
        text.replace(/^([0-9a-f])(.*  small\.txt)$/m, (_, d, rest) => (d === '0' ? '1' : '0') + rest));
      const theirs = tool(this, 'sha256sum', ['-c', 'bad.sha256']);
      const ours = fastHash(['--check', 'bad.sha256']);
      assert.strictEqual(theirs.status, 1);
      assert.strictEqual(ours.status, 1);
      assert.match(ours.stdout, /^small\.txt: FAILED$/m);
      assert.strictEqual(ours.stdout, theirs.stdout);
      assert.strictEqual(ours.stderr, 'fast-hash: WARNING: 1 computed checksum did NOT match\n');
      assert.strictEqual(ours.stderr, renamed(theirs.stderr, 'sha256sum'));
    });

    it('reports unreadable files and improperly formatted lines as sha256sum does', function () {
      writeList(this, 'odd.sha256', (text) =>
        text + `${'0'.repeat(64)}  missing.txt\nnot a checksum line\n# a comment\n`);
      const theirs = tool(this, 'sha256sum', ['-c', 'odd.sha256']);
      const ours = fastHash(['-c', 'odd.sha256']);
      assert.strictEqual(theirs.status, 1);
      assert.strictEqual(ours.status, 1);
      assert.match(ours.stdout, /^missing\.txt: FAILED open or read$/m);
      assert.strictEqual(ours.stdout, theirs.stdout);
      assert.strictEqual(ours.stderr,
        'fast-hash: missing.txt: No such file or directory\n' +
        'fast-hash: WARNING: 1 line is improperly formatted\n' +
        'fast-hash: WARNING: 1 listed file could not be read\n');
      assert.strictEqual(ours.stderr, renamed(theirs.stderr, 'sha256sum'));
    });
  });

  // Both commands under `sh -c`, for what needs a shell around them: one pipe
  // for stdout and stderr, a FIFO's writer.
  function shell(ctx, script, command, args) {
    if (!present.has('sh')) present.set('sh', !spawnSync('sh', ['-c', 'exit 0']).error);
    if (!present.get('sh')) ctx.skip();
    return spawn('sh', ['-c', script, 'sh', ...command, ...args]);
  }

  describe('output order and pipes', function () {
    // Lines past the 64 KiB batch on both sides of the missing file, so
    // a batch is written before the error and another after it.
    const MANY = Array(1200).fill('small.txt');

    it('interleaves errors with results on one pipe (2>&1) as sha256sum does', function () {
      const args = [...MANY, 'missing.txt', ...MANY, '.', 'empty'];
      const theirs = shell(this, 'exec "$@" 2>&1', ['sha256sum'], args);
      const ours = shell(this, 'exec "$@" 2>&1', [process.execPath, BIN], args);
      assert.strictEqual(theirs.status, 1);
      assert.strictEqual(ours.status, 1);
      assert.strictEqual(ours.stdout, renamed(theirs.stdout, 'sha256sum'));
      assert.match(ours.stdout, /small\.txt\nfast-hash: missing\.txt: No such file or directory\n[0-9a-f]{64} {2}small/);
    });

    it('reads a FIFO among the files, in argument order', function () {
      if (process.platform === 'win32' || spawnSync('mkfifo', [path.join(dir, 'fifo')]).error) this.skip();
      const script = 'printf "through a fifo\\n" > fifo & exec "$@"';
      const args = ['small.txt', 'fifo', 'empty'];
      const theirs = shell(this, script, ['sha256sum'], args);
      const ours = shell(this, script, [process.execPath, BIN], args);
      assert.strictEqual(theirs.status, 0, theirs.stderr);
      assert.strictEqual(ours.status, 0, ours.stderr);
      assert.strictEqual(ours.stdout, theirs.stdout);
      assert.match(ours.stdout, /^[0-9a-f]{64} {2}small\.txt\n[0-9a-f]{64} {2}fifo\n[0-9a-f]{64} {2}empty\n$/);
    });

    // A pipe whose reader starts late, made non-blocking by a preload that
    // makes process.stdout (libuv's pipe): writes meet EAGAIN once it is full.
    it('waits for a slow reader on a non-blocking stdout and loses nothing', function () {
      const preload = path.join(dir, 'nonblocking-stdout.js');
      fs.writeFileSync(preload, 'process.stdout;\n');
      const args = Array(3000).fill('small.txt');
      const ours = shell(this, '{ "$@"; echo "status $?" >&2; } | { sleep 0.3; cat; }',
        [process.execPath, '-r', preload, BIN], args);
      const line = `${crypto.createHash('sha256').update(FILES['small.txt']).digest('hex')}  small.txt\n`;
      assert.strictEqual(ours.stderr, 'status 0\n');
      assert.strictEqual(ours.stdout, line.repeat(args.length));
    });

    it('ends quietly with status 1 when the reader goes away (EPIPE)', async function () {
      const args = Array(8000).fill('small.txt');
      const child = require('child_process').spawn(process.execPath, [BIN, ...args], { cwd: dir });
      let stderr = '';
      child.stderr.on('data', (chunk) => { stderr += chunk; });
      child.stdout.once('data', () => child.stdout.destroy());
      const status = await new Promise((resolve) => child.on('close', resolve));
      assert.strictEqual(status, 1);
      assert.strictEqual(stderr, '');
    });
  });

  describe('errors and information', function () {
    it('reports a missing file, still hashes the others, and exits 1', function () {
      const ours = fastHash(['missing.txt', 'small.txt', '.']);
      assert.strictEqual(ours.status, 1);
      assert.strictEqual(ours.stderr,
        'fast-hash: missing.txt: No such file or directory\n' +
        'fast-hash: .: Is a directory\n');
      assert.match(ours.stdout, /^[0-9a-f]{64} {2}small\.txt\n$/);
    });

    it('refuses an unknown algorithm, pointing at --list', function () {
      const ours = fastHash(['-a', 'xyz', 'small.txt']);
      assert.strictEqual(ours.status, 1);
      assert.strictEqual(ours.stdout, '');
      assert.match(ours.stderr, /^fast-hash: unknown algorithm 'xyz'\n.*--list/);
    });

    it('refuses an unknown option, pointing at --help', function () {
      const ours = fastHash(['--bogus', 'small.txt']);
      assert.strictEqual(ours.status, 1);
      assert.strictEqual(ours.stdout, '');
      assert.strictEqual(ours.stderr,
        "fast-hash: unrecognized option '--bogus'\nTry 'fast-hash --help' for more information.\n");
    });

    it('--help prints the usage and exits 0', function () {
      for (const flag of ['--help', '-h']) {
        const ours = fastHash([flag]);
        assert.strictEqual(ours.status, 0, ours.stderr);
        assert.match(ours.stdout, /^Usage: fast-hash \[OPTION\]\.\.\. \[FILE\]\.\.\.\n/);
        assert.strictEqual(ours.stderr, '');
      }
    });

    it('--version prints the package version; --list the algorithms', function () {
      assert.strictEqual(fastHash(['--version']).stdout, `fast-hash ${version}\n`);
      assert.strictEqual(fastHash(['--list']).stdout, getHashes().join('\n') + '\n');
    });

    // Bun drops '--' from process.argv before the command sees it.
    (process.versions.bun ? it.skip : it)('takes names after -- as files', function () {
      fs.writeFileSync(path.join(dir, '-a'), 'dash\n');
      const ours = fastHash(['--', '-a']);
      assert.strictEqual(ours.status, 0, ours.stderr);
      assert.strictEqual(ours.stdout, `${crypto.createHash('sha256').update('dash\n').digest('hex')}  -a\n`);
    });
  });
});
