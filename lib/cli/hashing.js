'use strict';
// One file's digest, as an outcome for ordered.js: on the main thread when
// that costs least, else a job on the thread pool (hashFile); standard input
// (`-`) a chunk at a time as it arrives (stdin.js).

const fs = require('fs');
const { hashFile, hashFileSync } = require('../files');
const { settle, settleAsync } = require('./ordered');
const { namePath } = require('./names');
const { digestStdin } = require('./stdin');

// Regular files up to this size are hashed on the main thread: a thread-pool
// round trip costs more than their digest, and the main thread has nothing
// else to do meanwhile. Larger ones, and anything that may block (a FIFO, a
// device), go to the pool.
const MAIN_THREAD_MAX = 256 * 1024;

// With one job everything runs on the main thread, one file after another:
// no stat, no pool.
function digestOf(algorithm, name, parallel) {
  if (name === '-') return settleAsync(digestStdin(algorithm));
  const path = namePath(name);
  if (!parallel || onMainThread(path)) return settle(() => hashFileSync(algorithm, path));
  return settleAsync(hashFile(algorithm, path));
}

function onMainThread(path) {
  let stat;
  try {
    stat = fs.statSync(path, { throwIfNoEntry: false });
  } catch {
    return true; // hashFileSync reports the error as it would for any file
  }
  if (stat === undefined || stat.isDirectory()) return true;
  return stat.isFile() && stat.size <= MAIN_THREAD_MAX;
}

module.exports = { digestOf };
