'use strict';
// worker.terminate() while a worker makes HmacKeys, at every point of the
// call: the process goes on. The addon tells V8 of the native memory that
// keys hold (napi_adjust_external_memory), and V8 in Node 24 and later
// aborts the whole process (a failed CHECK in isolate disposal) when more
// is given back than was told. A terminate() that lands while a key is
// made makes the calls after its napi_create_external fail, and the key's
// finalizer still runs at teardown: it must give back only what was told.
// Older V8 does not check, so this can fail only on Node 24 and later (the
// matrix's native rows). The cases run in a child, where an abort fails
// the test with its signal. No key is destroyed: a count that gave back
// less for a destroyed key would leave V8 enough to hide the excess.
const path = require('path');

const ROOT = path.join(__dirname, '..');
const CYCLES = 100;

function defineTests() {
  const assert = require('assert');
  const { childResult } = require('./child');

  describe('createHmacKey in worker_threads', function () {
    it(`${CYCLES} workers terminated while making HmacKeys: no abort, the main thread still keys`, function () {
      this.timeout(120000);
      const { cycles, errors, mac, want } = childResult(__filename, ['cycles'], { timeout: 110000 });
      assert.deepStrictEqual(errors.slice(0, 3), [], `${errors.length} worker errors`);
      assert.strictEqual(cycles, CYCLES);
      assert.strictEqual(mac, want);
    });
  });
}

// Makes keys as fast as it can, some kept, the others dropped.
function workerMain() {
  const { parentPort, workerData } = require('worker_threads');
  const fh = require(workerData.root);
  const keep = [];
  parentPort.postMessage('ready');
  for (let j = 0; ; j++) {
    const k = fh.createHmacKey(j % 2 ? 'sha256' : 'sha3-256', `key ${j}`);
    if (j % 3 === 1) keep.push(k);
    if (keep.length > 1000) keep.length = 0;
  }
}

async function runChild() {
  const { Worker } = require('worker_threads');
  const crypto = require('crypto');
  const fh = require(ROOT);
  const source = `(${workerMain.toString()})();`;
  const errors = [];
  let cycles = 0;
  for (let c = 1; c <= CYCLES; c++) {
    const w = new Worker(source, { eval: true, workerData: { root: ROOT } });
    w.on('error', (err) => errors.push(`cycle ${c}: ${err && err.stack}`));
    await new Promise((resolve) => { w.once('message', resolve); w.once('exit', resolve); });
    // A different point in the loop each cycle.
    await new Promise((resolve) => setTimeout(resolve, c % 7));
    await w.terminate();
    cycles++;
  }
  const mac = fh.createHmacKey('sha256', 'after').digest('main thread');
  const want = crypto.createHmac('sha256', 'after').update('main thread').digest('hex');
  return { cycles, errors, mac, want };
}

require('./child').childEntry(module, runChild, defineTests);
