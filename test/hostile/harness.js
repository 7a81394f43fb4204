'use strict';
// The harness of the hostile-argument tests (test/hostile-*.test.js).
//
// The rule for every call: it returns the right result (node:crypto decides,
// where the input is valid), or it throws (the async functions: reject) an
// Error whose `code` is a string. An exception thrown by the caller's own
// getter or proxy trap must come out unchanged (the same object), and when
// such a getter is one the function has to read (an options property, an
// element of hashMany's array), it must come out rather than a coded error.
// Invalid input must not give a result.
//
// Each test file's calls run in a child process (the file itself, through
// test/child.js), so a crash fails its test with the signal instead of
// killing mocha; a crashed run is repeated with tracing on to name the call
// that crashed. Every distinct failure is listed once, with its shortest
// example. FC_SEED=<n> replays a run (the seed is printed with the counts).
const path = require('path');
const { spawnChild, resultOf, childEntry } = require('../child');

const SEED_ENV = 'FC_SEED';

// Defines the test of file `mod`: `title` names what it checks; run() (in
// the child) makes the calls and returns a note for the report.
function hostileTest(mod, title, run) {
  const name = path.basename(mod.filename, '.test.js');
  childEntry(mod, () => runInChild(name, run), () => defineTest(mod.filename, name, title), { exit: true });
}

async function runInChild(name, run) {
  const { report } = require('./judge');
  await require('../fixtures/hostile-values').setup();
  const note = await run(Number(process.env[SEED_ENV]) >>> 0);
  return { mode: name, seed: Number(process.env[SEED_ENV]) >>> 0, ...report(note) };
}

function defineTest(file, name, title) {
  const assert = require('assert');
  const fs = require('fs');
  const os = require('os');
  const seed = process.env[SEED_ENV] ? Number(process.env[SEED_ENV]) : (Date.now() ^ (Math.random() * 0x7fffffff)) >>> 0;
  const replay = `(seed ${seed}, ${SEED_ENV}=${seed} to replay)`;
  const tail = (text, n = 30) => String(text || '').split('\n').slice(-n).join('\n');
  const spawn = (dir, trace) => spawnChild(file, [], {
    cwd: dir, timeout: 240000, maxBuffer: 1 << 28, env: { [SEED_ENV]: String(seed), HOSTILE_TRACE: trace ? '1' : '' },
  });

  describe('hostile arguments', function () {
    this.timeout(300000);
    let dir;
    before(function () {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-hostile-'));
    });
    after(function () {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it(`${title} (child process)`, function () {
      const r = spawn(dir, false);
      if (r.error) assert.fail(`child "${name}" did not finish ${replay}: ${r.error.message}\n${tail(r.stderr)}`);
      if (r.signal !== null || r.status !== 0) {
        // Again, tracing every call, to name the one that kills the process.
        const again = spawn(dir, true);
        const last = (String(again.stderr).match(/^CALL .*$/gm) || ['(no call traced)']).pop();
        assert.fail(`child "${name}" died: ${r.signal ? `signal ${r.signal}` : `exit status ${r.status}`} ${replay}\n` +
          `last call of the traced rerun (which ended with ${again.signal || `status ${again.status}`}): ${last.slice(0, 2000)}\n` +
          `stderr:\n${tail(r.stderr)}`);
      }
      const report = resultOf(r.stdout, `child "${name}"`);
      console.log(`      ${name}: ${report.calls} calls in ${(r.ms / 1000).toFixed(1)} s (seed ${seed})${report.note ? `, ${report.note}` : ''}`);
      if (report.failures.length > 0) {
        const list = report.failures.map((f, i) =>
          `${i + 1}) ${f.sig}\n     [${f.count}x, in: ${f.fns}]\n     first: ${f.what}\n     e.g. ${f.example}`).join('\n');
        assert.fail(`${report.failures.length} kinds of failure in ${report.calls} calls ${replay}:\n${list}`);
      }
    });
  });
}

module.exports = { hostileTest };
