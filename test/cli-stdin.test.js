'use strict';
// The fast-hash command hashes standard input a chunk at a time as it
// arrives (lib/cli/stdin.js), in constant memory as sha256sum does: for no
// file arguments, `-`, with -j, and for a `-` named in a check list. Each
// case runs the command in a child with a time limit. Peak memory is the
// command's own maxRSS, printed at exit by a preload; the growth under
// endless input (`< /dev/zero`) is read from /proc while it runs, paced by
// the bytes it has read, never by the clock. Also what coreutils does with
// standard input read twice, at an offset, empty, or a directory (the cases
// cli-coreutils.test.js does not have).
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

const BIN = path.join(__dirname, '..', 'bin', 'fast-hash.js');
const MiB = 1 << 20;
const ZEROS = Buffer.alloc(MiB);
const LINUX = process.platform === 'linux';
// How far the command's peak may rise above its peak on 1 MiB of standard
// input, whatever the amount (here: +33 MiB for 128 or 256 MiB, +73 MiB
// with AddressSanitizer preloaded, whose redzones and quarantine are
// memory too; the old read-it-whole code: 2 x the input more).
const PEAK_GROWTH_KIB = 100 * 1024;
// Its growth from 256 MiB to 1 GiB read of endless input.
const GROWTH_KIB = 40 * 1024;

const sha = (data) => crypto.createHash('sha256').update(data).digest('hex');
const EMPTY = sha('');

const zeroDigests = new Map();
function zerosDigest(mib) {
  if (!zeroDigests.has(mib)) {
    const h = crypto.createHash('sha256');
    for (let i = 0; i < mib; i++) h.update(ZEROS);
    zeroDigests.set(mib, h.digest('hex'));
  }
  return zeroDigests.get(mib);
}

// Runs the command with `mib` MiB of zeros written to its standard input
// (a pipe, with back-pressure) and a preload that prints its maxRSS (KiB)
// at exit. Killed after limitMs.
function feedZeros(args, mib, { cwd, preload, limitMs }) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', preload, BIN, ...args], { cwd });
    const out = [];
    const err = [];
    let killed = false;
    const timer = setTimeout(() => { killed = true; child.kill('SIGKILL'); }, limitMs);
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.on('error', reject);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString();
      const rss = /\nMAXRSS (\d+)\n/.exec(stderr);
      resolve({ status, signal, killed, stdout: Buffer.concat(out).toString(), stderr,
        maxRssKiB: rss ? Number(rss[1]) : null });
    });
    child.stdin.on('error', () => {}); // a command that died: reported by its status
    let left = mib;
    const write = () => {
      while (left > 0) {
        left--;
        if (!child.stdin.write(ZEROS)) return void child.stdin.once('drain', write);
      }
      child.stdin.end();
    };
    write();
  });
}

// The command (or `tool`) on `args`, standard input `stdin`: a string, or
// a file descriptor it inherits. spawnSync's result, stderr with the tool's
// name made ours.
function run(args, stdin, { tool, cwd } = {}) {
  const command = tool ? [tool] : [process.execPath, BIN];
  const res = spawnSync(command[0], [...command.slice(1), ...args], {
    cwd, encoding: 'utf8', timeout: 30000, killSignal: 'SIGKILL',
    stdio: [typeof stdin === 'number' ? stdin : 'pipe', 'pipe', 'pipe'],
    input: typeof stdin === 'number' ? undefined : stdin,
  });
  if (res.error) throw res.error;
  return { status: res.status, stdout: res.stdout, stderr: tool ? res.stderr.split(`${tool}:`).join('fast-hash:') : res.stderr };
}

const present = (tool) => !spawnSync(tool, ['--version']).error;

describe('fast-hash command: standard input', function () {
  let dir;
  let preload;

  before(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-cli-stdin-'));
    preload = path.join(dir, 'maxrss.js');
    fs.writeFileSync(preload, "process.on('exit', () => require('fs').writeSync(2, " +
      "'\\nMAXRSS ' + process.resourceUsage().maxRSS + '\\n'));\n");
    fs.writeFileSync(path.join(dir, 'abc'), 'abc');
  });

  after(function () {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('hashed as it arrives: the digest, and a peak that does not grow with the input', function () {
    let basePeakKiB;
    before(async function () {
      if (process.versions.bun || process.versions.deno) this.skip(); // Node's --require and maxRSS
      this.timeout(50000);
      const res = await feedZeros([], 1, { cwd: dir, preload, limitMs: 40000 });
      assert.ok(res.status === 0 && res.maxRssKiB !== null, res.stderr);
      basePeakKiB = res.maxRssKiB;
    });

    // [title, arguments, MiB fed, expected stdout (of the digest of the zeros)]
    const CASES = [
      ['no file arguments, 256 MiB', [], 256, (d) => `${d}  -\n`],
      ['-, 128 MiB', ['-'], 128, (d) => `${d}  -\n`],
      ['-j 2 - abc -, 128 MiB', ['-j', '2', '-', 'abc', '-'], 128,
        (d) => `${d}  -\n${sha('abc')}  abc\n${EMPTY}  -\n`],
      ['--check of a list naming -, 128 MiB', ['--check', 'list'], 128, () => '-: OK\n'],
    ];
    for (const [title, args, mib, expected] of CASES) {
      it(`${title}: the digest, peak RSS less than ${PEAK_GROWTH_KIB >> 10} MiB above 1 MiB's (child process)`, async function () {
        this.timeout(50000);
        const digest = zerosDigest(mib);
        fs.writeFileSync(path.join(dir, 'list'), `${digest}  -\n`);
        const res = await feedZeros(args, mib, { cwd: dir, preload, limitMs: 40000 });
        assert.ok(!res.killed, `still running after 40 s\n${res.stderr}`);
        assert.strictEqual(res.signal, null, res.stderr);
        assert.strictEqual(res.status, 0, res.stderr);
        assert.strictEqual(res.stdout, expected(digest));
        assert.ok(res.maxRssKiB !== null, res.stderr);
        if (LINUX) {
          assert.ok(res.maxRssKiB - basePeakKiB < PEAK_GROWTH_KIB,
            `peak RSS ${res.maxRssKiB >> 10} MiB for ${mib} MiB of input, ${basePeakKiB >> 10} MiB for 1 MiB`);
        }
      });
    }
  });

  describe('endless input (< /dev/zero)', function () {
    it(`read for 1 GiB: RSS grows less than ${GROWTH_KIB >> 10} MiB after the first 256 MiB (child process)`,
      async function () {
        this.timeout(50000);
        if (!LINUX) this.skip(); // /proc
        const zero = fs.openSync('/dev/zero', 'r');
        let child;
        try {
          child = spawn(process.execPath, [BIN], { stdio: [zero, 'ignore', 'pipe'] });
        } finally {
          fs.closeSync(zero);
        }
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (t) => { stderr += t; });
        const running = () => child.exitCode === null && child.signalCode === null;
        // Bytes read (rchar), peak and current RSS (KiB); null once gone.
        const sample = () => {
          try {
            const io = fs.readFileSync(`/proc/${child.pid}/io`, 'utf8');
            const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
            const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)[1]);
            return { read: Number(/^rchar: (\d+)/m.exec(io)[1]), hwm: kib('VmHWM'), rss: kib('VmRSS') };
          } catch {
            return null;
          }
        };
        const samples = [];
        let first = null;
        let last = null;
        let ended;
        const deadline = Date.now() + 40000; // a stuck command, not its speed, fails this
        try {
          while (running() && Date.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, 20));
            const s = sample();
            if (s === null) break;
            samples.push(s);
            if (first === null && s.read >= 256 * MiB) first = s;
            // Enough read, or grown past what the assertion allows anyway.
            if (s.read >= 1024 * MiB || (first !== null && s.hwm - first.hwm >= 4 * GROWTH_KIB)) {
              last = s;
              break;
            }
          }
        } finally {
          ended = !running();
          child.kill('SIGKILL');
        }
        if (samples.length === 0 && !ended) this.skip(); // /proc/<pid>/io not readable here
        assert.ok(!ended, `the command ended on endless input\n${stderr}`);
        assert.ok(first !== null && last !== null,
          `the command read ${samples.length ? samples[samples.length - 1].read >> 20 : 0} MiB in 40 s\n${stderr}`);
        assert.ok(last.hwm - first.hwm < GROWTH_KIB,
          `peak RSS ${first.hwm >> 10} MiB at ${first.read >> 20} MiB read, ` +
          `${last.hwm >> 10} MiB at ${last.read >> 20} MiB read`);
      });
  });

  describe('as coreutils reads it', function () {
    this.timeout(30000);
    const sha256sum = present('sha256sum');

    // [arguments, standard input (a string, or a function making a file
    // descriptor), expected { status, stdout, stderr }, our own arguments]
    const atOffset = Object.assign(() => {
      const fd = fs.openSync(path.join(dir, 'abc'), 'r');
      fs.readSync(fd, Buffer.alloc(1), 0, 1, null); // `(head -c 1 >/dev/null; sha256sum -) < abc`
      return fd;
    }, { label: 'abc read from offset 1' });
    const directory = Object.assign(() => fs.openSync(dir, 'r'), { label: 'a directory' });
    const isDir = 'fast-hash: -: Is a directory\n';
    const readError = "fast-hash: 'standard input': read error\n";
    const CASES = [
      [[], '', { status: 0, stdout: `${EMPTY}  -\n`, stderr: '' }],
      [['-', '-'], '', { status: 0, stdout: `${EMPTY}  -\n${EMPTY}  -\n`, stderr: '' }],
      [['-', '-'], 'abc', { status: 0, stdout: `${sha('abc')}  -\n${EMPTY}  -\n`, stderr: '' }, ['-j', '2']],
      [['-', 'abc', '-'], 'abc', { status: 0, stdout: `${sha('abc')}  -\n${sha('abc')}  abc\n${EMPTY}  -\n`, stderr: '' },
        ['-j', '3']],
      [['-', '-'], atOffset, { status: 0, stdout: `${sha('bc')}  -\n${EMPTY}  -\n`, stderr: '' }],
      [[], directory, { status: 1, stdout: '', stderr: isDir }],
      [['-', '-'], directory, { status: 1, stdout: '', stderr: isDir + isDir }],
      [['-', 'abc', '-'], directory, { status: 1, stdout: `${sha('abc')}  abc\n`, stderr: isDir + isDir }, ['-j', '2']],
      [['-c'], directory, { status: 1, stdout: '', stderr: readError }],
      [['-c', '-', '-'], directory, { status: 1, stdout: '', stderr: readError + readError }],
    ];
    for (const [args, stdin, expected, ours = []] of CASES) {
      const shown = typeof stdin === 'string' ? JSON.stringify(stdin) : stdin.label;
      it(`${[...ours, ...args].join(' ') || '(no arguments)'} < ${shown}: as sha256sum`, function () {
        if (stdin === directory && process.platform === 'win32') this.skip(); // no directory descriptors
        // Bun's process.stdin reads a file from its start, not from the descriptor's offset.
        if (stdin === atOffset && process.versions.bun) this.skip();
        const input = () => (typeof stdin === 'function' ? stdin() : stdin);
        const withInput = (fn) => {
          const fd = input();
          try {
            return fn(fd);
          } finally {
            if (typeof fd === 'number') fs.closeSync(fd);
          }
        };
        const mine = withInput((fd) => run([...ours, ...args], fd, { cwd: dir }));
        assert.deepStrictEqual(mine, expected);
        if (sha256sum) assert.deepStrictEqual(withInput((fd) => run(args, fd, { tool: 'sha256sum', cwd: dir })), expected);
      });
    }
  });
});
