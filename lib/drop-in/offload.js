'use strict';
// Long chunks piped into a Hash or Hmac, hashed off the event loop
// (hasherUpdateAsync, one job at a time) while the stream goes
// on as node:crypto's does. Each chunk is copied into memory of its own
// (the source may reuse its memory, another consumer change it), and the
// state from before the first unfinished chunk is kept: a call that cannot
// wait (update, digest, copy) takes it over (takeOver), updated here with
// the chunks not yet hashed, and the jobs' hasher is dropped once they end.
// The kept state moves on after each job (a copy of the jobs' hasher while
// no job holds it).
// Contract: add(chunk, callback) calls back at once while less than LIMIT
// bytes are unfinished (so writes reach the hasher when node:crypto's
// would), else once they are; the owner learns through onIdle when nothing
// is left; a job's error goes to the next callback.
const { Buffer } = require('buffer');
const { absorbAsync, discard, clone } = require('../hasher');
const { viewLength } = require('../views');

const LIMIT = 4 * 1024 * 1024;

class Offload {
  #hasher;
  #before;
  #secret;
  #onIdle;
  #chunks = [];    // own copies, oldest first: [0, #sent) being hashed
  #sent = 0;
  #bytes = 0;
  #waiter;         // a write's callback held back while LIMIT is reached
  #error;
  #abandoned = false;

  constructor(hasher, secret, onIdle) {
    this.#hasher = hasher;
    this.#before = clone(hasher);
    this.#secret = secret;
    this.#onIdle = onIdle;
  }

  add(bytes, callback) {
    const own = Buffer.allocUnsafeSlow(viewLength(bytes));
    own.set(bytes);
    this.#chunks.push(own);
    this.#bytes += own.length;
    this.#pump();
    if (this.#bytes < LIMIT) callback();
    else this.#waiter = callback;
  }

  #pump() {
    if (this.#sent === 0 && this.#chunks.length !== 0) {
      const chunk = this.#chunks[this.#sent++];
      absorbAsync(this.#hasher, chunk, chunk.length).then(() => this.#ended(null), (err) => this.#ended(err));
    }
  }

  #ended(err) {
    const chunk = this.#chunks.shift();
    this.#sent--;
    this.#bytes -= chunk.length;
    if (this.#abandoned) {
      if (this.#secret) chunk.fill(0);
      if (this.#sent === 0) discard(this.#hasher);
      return;
    }
    if (this.#secret) chunk.fill(0);
    if (err !== null) {
      this.#error ??= err;
    } else {
      discard(this.#before);
      this.#before = clone(this.#hasher);
      this.#pump();
    }
    if (this.#sent === 0 && (this.#chunks.length === 0 || this.#error !== undefined)) {
      this.#finish();
    } else if (this.#bytes < LIMIT) {
      this.#release(undefined);
    }
  }

  // Nothing left: the kept state goes, and the owner hashes on this thread.
  #finish() {
    this.#abandoned = true;
    discard(this.#before);
    if (this.#secret) for (const chunk of this.#chunks) chunk.fill(0);
    this.#chunks = [];
    const error = this.#error;
    this.#onIdle(error);
    this.#release(error);
  }

  #release(err) {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    if (waiter !== undefined) waiter(err);
  }

  // The hasher for a call that cannot wait: the kept state, updated with
  // every chunk not yet hashed. A held-back write is let go on the next tick.
  takeOver() {
    this.#abandoned = true;
    const hasher = this.#before;
    for (const chunk of this.#chunks) hasher.update(chunk);
    // Chunks not sent are done with; those sent are wiped as their jobs end.
    const unsent = this.#chunks.splice(this.#sent);
    if (this.#secret) for (const chunk of unsent) chunk.fill(0);
    if (this.#sent === 0) discard(this.#hasher);
    const waiter = this.#waiter;
    this.#waiter = undefined;
    if (waiter !== undefined) process.nextTick(waiter);
    return hasher;
  }
}

module.exports = { Offload };
