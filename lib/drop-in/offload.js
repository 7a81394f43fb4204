'use strict';
// Long chunks piped into a Hash or Hmac, hashed off the event loop while
// the stream goes on as node:crypto's does. Chunks are copied into batches
// of the Offload's own (the source may reuse its memory, another consumer
// change it); each full batch is one job (hasherUpdateAsync), one at a time,
// since a job's hand-over costs as much as hashing a short one does. When a
// job starts, the state before it is copied: a call that cannot wait
// (update, digest, copy) takes that copy over (takeOver), updated here with
// every batch kept, and the jobs' hasher is dropped once its job ends.
// Contract: add(chunk, callback) calls back at once while less than LIMIT
// bytes wait for a job (so writes reach the hasher when node:crypto's
// would), else once they do not; onIdle(error) is called when no job runs
// (error: the one a job failed with); close() ends an idle Offload and
// gives its hasher with everything written.
const { Buffer } = require('buffer');
const { absorbAsync, discard, clone } = require('../hasher');
const { viewLength, viewSlice } = require('../views');

const BATCH = 1024 * 1024;
const LIMIT = 4 * 1024 * 1024;

class Offload {
  #hasher;
  #before;         // the state before the running job, while one runs
  #secret;
  #onIdle;
  #running;        // the batch being hashed
  #full = [];      // full batches waiting for a job, oldest first
  #current;        // the batch being filled: #current[0, #used)
  #used = 0;
  #spare = [];
  #waiter;         // a write's callback held back while LIMIT bytes wait
  #abandoned = false;

  constructor(hasher, secret, onIdle) {
    this.#hasher = hasher;
    this.#secret = secret;
    this.#onIdle = onIdle;
  }

  add(bytes, callback) {
    const n = viewLength(bytes);
    for (let at = 0; at < n;) {
      if (this.#current === undefined) this.#current = this.#spare.pop() ?? Buffer.allocUnsafeSlow(BATCH);
      const fits = Math.min(n - at, BATCH - this.#used);
      this.#current.set(fits === n ? bytes : viewSlice(bytes, at, fits), this.#used);
      this.#used += fits;
      at += fits;
      if (this.#used === BATCH) {
        this.#full.push(this.#current);
        this.#current = undefined;
        this.#used = 0;
      }
    }
    this.#send();
    if (this.#waiting() < LIMIT) callback();
    else this.#waiter = callback;
  }

  #waiting() {
    return this.#full.length * BATCH + this.#used;
  }

  #send() {
    if (this.#running !== undefined || this.#full.length === 0) return;
    const batch = (this.#running = this.#full.shift());
    this.#before = clone(this.#hasher);
    absorbAsync(this.#hasher, batch, BATCH).then(() => this.#ended(null), (err) => this.#ended(err));
  }

  #ended(err) {
    this.#give(this.#running);
    this.#running = undefined;
    if (this.#abandoned) {
      discard(this.#hasher);
      return;
    }
    discard(this.#before);
    this.#before = undefined;
    if (err === null) this.#send();
    if (this.#running === undefined) this.#onIdle(err ?? undefined);
    if (err !== null || this.#waiting() < LIMIT) this.#release(err ?? undefined);
  }

  // A batch done with: wiped if it held HMAC input, kept for reuse.
  #give(batch) {
    if (this.#secret) batch.fill(0);
    if (!this.#abandoned && this.#spare.length < 2) this.#spare.push(batch);
  }

  #release(err) {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    if (waiter !== undefined) waiter(err);
  }

  // Whether no job runs (the hasher takes calls).
  get idle() {
    return this.#running === undefined;
  }

  // Ends an idle Offload: its hasher, updated with the batch being filled.
  close() {
    this.#abandoned = true;
    if (this.#current !== undefined) {
      this.#hasher.update(this.#current.subarray(0, this.#used));
      this.#give(this.#current);
    }
    this.#spare = [];
    return this.#hasher;
  }

  // The hasher for a call that cannot wait: close()'s when idle, else the
  // state before the running job updated with every batch kept. A
  // held-back write is let go on the next tick.
  takeOver() {
    if (this.idle) return this.close();
    this.#abandoned = true;
    const hasher = this.#before;
    for (const batch of [this.#running, ...this.#full]) hasher.update(batch);
    if (this.#current !== undefined) hasher.update(this.#current.subarray(0, this.#used));
    for (const batch of this.#full) this.#give(batch);
    if (this.#current !== undefined) this.#give(this.#current);
    this.#full = [];
    this.#current = undefined;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    if (waiter !== undefined) process.nextTick(waiter);
    return hasher;
  }
}

module.exports = { Offload };
