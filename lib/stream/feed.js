'use strict';
// The Feed: the bytes of a stream digest's chunks, gathered into batches
// that go to the hasher off the event loop (absorbAsync), two taking turns
// so that reading and hashing overlap. A chunk is copied into a batch
// before the next can be written over, and not hashed where it is: other
// consumers of the same source (another 'data' listener, a pipe) hold the
// same memory and may change or transfer it. Only a chunk that no one else
// was given (writeSole: a file stream's new memory, read by this digest
// alone) is hashed in place. What is left at the end is hashed with the
// digest.
// Contract: write(chunk) takes a string or a Uint8Array (chunks.js) and
// returns undefined, or a promise to wait for before the next chunk;
// end(last) waits for every batch and gives what last(rest) gives, rest
// being the bytes still to hash (the caller's own call hashes them: with
// the digest, or updateFrom()'s last update); discard() frees the hasher
// after a failure. Batches that held HMAC input are wiped.

const { Buffer } = require('buffer');
const { absorbAsync, discard } = require('../hasher');
const { viewLength, viewSlice } = require('../views');
const { makeError } = require('../errors');

// ---- batches --------------------------------------------------------------
// A batch goes off to be hashed when it is full. A thread-pool job's
// hand-over each way costs as much as hashing a sizeable batch does
// (figures: benchmark/README.md, "Figures behind design choices in the
// code"), so batches are large: a stream's first is MIN bytes (short streams, the
// common case, never need more), and each next one four times the last, up
// to BIG, so hashing starts early and a long stream costs one job per BIG
// bytes, while no job holds a pool thread for longer than hashing BIG bytes
// takes. Two batches take turns (one filled while the other is hashed); a
// stream keeps the one given back for its next. Batches are
// allocUnsafeSlow's, never Buffer's shared pool, and those that held HMAC
// input are wiped before they are kept or dropped.
//
// The batches a stream gives up (at its end, and the small ones of its
// first steps) are kept for the next streams, a few of each size, through
// WeakRefs: a batch is reused if no full collection has come since, and
// is otherwise collected as any garbage is, so keeping them holds no
// memory that dropping them would not. Allocating batches afresh for each
// stream is what costs: the engine counts their memory as external, and
// megabytes of it per stream start full collections of the main thread
// (benchmark/README.md, "Streams" and "Figures behind design choices").
const MIN = 64 * 1024;
const BIG = 4 * 1024 * 1024;
// Batches being hashed at once, at most: the binding's hasherUpdateAsync
// takes two on one hasher (one running, the next hashed right after it by
// the same thread).
const DEPTH = 2;
// Batches kept of each size: as many as one stream holds at once (DEPTH
// being hashed and one being filled).
const KEPT = DEPTH + 1;
const spares = new Map(); // batch size -> WeakRefs to batches (KEPT at most)

function giveBatch(batch, used, secret) {
  if (secret) batch.fill(0, 0, used);
  let kept = spares.get(batch.length);
  if (kept === undefined) spares.set(batch.length, (kept = []));
  if (kept.length < KEPT) kept.push(new WeakRef(batch));
}

// A batch of `size` bytes: a kept one if it is still there, else a new one.
function takeBatch(size) {
  const kept = spares.get(size) ?? [];
  while (kept.length !== 0) {
    const batch = kept.pop().deref();
    if (batch !== undefined) return batch;
  }
  return Buffer.allocUnsafeSlow(size);
}

// Strings no longer than this are written into the batch as they are;
// longer ones are encoded first (a batch may not have room for them).
const SHORT_TEXT = 1024;
// Chunks this short are copied byte by byte, which costs less than set()
// for them (benchmark/README.md, "Figures behind design choices").
const TINY = 32;

class Feed {
  #hasher;
  #secret;
  #readsAhead;     // whether the source may be asked for more while we wait
  #batch;          // being filled: #batch[0, #used)
  #used = 0;
  #size = MIN;     // the next batch's size
  #free = [];      // batches given back, for the next (DEPTH at most)
  #jobs = [];      // batches being hashed, oldest first: promises that never reject
  #error;          // what a job failed with
  #waiting;        // the last write still waiting for a batch: later
                   // writes go after it, in order

  constructor(hasher, secret, readsAhead) {
    this.#hasher = hasher;
    this.#secret = secret;
    this.#readsAhead = readsAhead;
  }

  // Copies a chunk (a string, or a Uint8Array from chunkBytes) into the
  // batch. Returns undefined, or a promise when the caller must wait before
  // it asks for the next chunk (both batches are being hashed). A chunk
  // written while an earlier one still waits (a source that something
  // else resumes, as a pipe does) is copied now and taken after it.
  write(chunk) {
    if (this.#error !== undefined) throw this.#error;
    if (this.#waiting !== undefined) return this.#behind(chunk);
    return this.#track(this.#write(chunk));
  }

  #write(chunk) {
    if (typeof chunk === 'string') return this.#writeText(chunk);
    const batch = this.#batch;
    const n = viewLength(chunk);
    const used = this.#used;
    if (batch === undefined || n >= batch.length - used) return this.#writeBytes(chunk, 0);
    if (n < TINY) {
      for (let i = 0; i < n; i++) batch[used + i] = chunk[i];
    } else {
      batch.set(chunk, used);
    }
    this.#used = used + n;
    return undefined;
  }

  // Notes a write's promise as the one later writes go after.
  #track(waiting) {
    if (waiting === undefined) return undefined;
    const tracked = waiting.finally(() => {
      if (this.#waiting === tracked) this.#waiting = undefined;
    });
    this.#waiting = tracked;
    return tracked;
  }

  #behind(chunk) {
    const before = this.#waiting;
    const own = typeof chunk === 'string' ? chunk : this.#copy(chunk, 0);
    return this.#track(before.then(() => {
      if (this.#error !== undefined) throw this.#error;
      return typeof own === 'string' ? this.#write(own) : this.writeOwned(own, this.#secret);
    }, (err) => {
      if (typeof own !== 'string' && this.#secret) own.fill(0);
      throw err;
    }));
  }

  // bytes[at, end) in memory of this side's own (never Buffer's shared
  // pool, where any pooled Buffer's .buffer reaches it).
  #copy(bytes, at) {
    const n = viewLength(bytes);
    const rest = Buffer.allocUnsafeSlow(n - at);
    rest.set(at === 0 ? bytes : viewSlice(bytes, at, n - at));
    return rest;
  }

  #writeText(text) {
    if (text.length > SHORT_TEXT) return this.#writeLongText(text);
    let batch = this.#batch;
    if (batch !== undefined && batch.length - this.#used < 3 * text.length) {
      if (this.#jobs.length === DEPTH) return this.#laterText(text);
      this.#send();
      batch = undefined;
    }
    batch ??= this.#take();
    this.#used += batch.write(text, this.#used, 'utf8');
    return undefined;
  }

  // A long string's bytes, encoded first into memory that nothing else
  // writes to. An HMAC message's are memory of their own (a short
  // Buffer.from() would be a slice of the shared pool), wiped once hashed.
  #writeLongText(text) {
    if (!this.#secret) return this.writeOwned(Buffer.from(text), false);
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
    bytes.write(text);
    return this.writeOwned(bytes, true);
  }

  // Bytes from `from` on, across batches; a batch that fills goes at once
  // unless both are being hashed. When the source reads ahead (a stream
  // asks its own source for the next chunk without waiting for us, and a
  // source that reuses its memory then writes over this one), nothing of
  // `bytes` is read after this returns.
  #writeBytes(bytes, from) {
    const n = viewLength(bytes);
    for (let at = from; at < n;) {
      let batch = this.#batch;
      if (batch === undefined) {
        batch = this.#take();
      } else if (this.#used === batch.length) {
        if (this.#jobs.length === DEPTH) return this.#readsAhead ? this.#keepRest(bytes, at) : this.#later(bytes, at);
        this.#send();
        continue;
      }
      const fits = Math.min(n - at, batch.length - this.#used);
      batch.set(fits === n ? bytes : viewSlice(bytes, at, fits), this.#used);
      this.#used += fits;
      at += fits;
    }
    if (this.#used === this.#batch?.length && this.#jobs.length < DEPTH) this.#send();
    return undefined;
  }

  #take() {
    const size = this.#size;
    let batch = this.#free.pop();
    if (batch === undefined || batch.length !== size) {
      if (batch !== undefined) giveBatch(batch, 0, false);
      batch = takeBatch(size);
    }
    this.#size = Math.min(4 * size, BIG);
    this.#batch = batch;
    return batch;
  }

  // A string that does not fit, once the oldest job is done (strings
  // cannot change meanwhile).
  async #laterText(text) {
    await this.#jobs[0];
    if (this.#error !== undefined) throw this.#error;
    const waiting = this.#writeText(text);
    if (waiting !== undefined) await waiting;
  }

  // The rest of a chunk (from byte `at`) once the oldest job is done, from
  // a source that is asked for nothing meanwhile.
  async #later(bytes, at) {
    await this.#jobs[0];
    if (this.#error !== undefined) throw this.#error;
    const waiting = this.#writeBytes(bytes, at);
    if (waiting !== undefined) await waiting;
  }

  // The rest of a chunk (from byte `at`) from a source that reads ahead,
  // when both batches are being hashed: copied now into memory of its own,
  // taken once a batch is free.
  #keepRest(bytes, at) {
    return this.#laterOwned(this.#copy(bytes, at), this.#secret);
  }

  // The batch goes off to be hashed, after the one being hashed if there
  // is one. When a job ends its batch is given back, and the next goes at
  // once if it is full. (Jobs run and are reported in the order they were
  // sent; each removes itself all the same.)
  #send() {
    const batch = this.#batch;
    const used = this.#used;
    this.#batch = undefined;
    this.#used = 0;
    this.#job(batch, used, batch);
  }

  // A job hashing bytes[0, used). `batch` is bytes when they are a batch
  // (given back when the job ends), undefined for a chunk hashed in place
  // (wiped when the job ends if `wipe`).
  #job(bytes, used, batch, wipe) {
    const job = absorbAsync(this.#hasher, bytes, used).then(() => {
      this.#ended(job, bytes, used, batch, wipe);
      if (this.#batch !== undefined && this.#used === this.#batch.length && this.#error === undefined) this.#send();
    }, (err) => {
      this.#ended(job, bytes, used, batch, wipe);
      this.#error ??= err;
    });
    this.#jobs.push(job);
  }

  #ended(job, bytes, used, batch, wipe) {
    this.#jobs.splice(this.#jobs.indexOf(job), 1);
    if (batch !== undefined) this.#giveBack(batch, used);
    else if (wipe) bytes.fill(0);
  }

  // Bytes in memory of this side's own, which nothing else reaches: a long
  // string's bytes, or a chunk copied by #copy (`wipe`: HMAC input, wiped
  // once hashed). A long one is hashed where it is, after what the batch
  // holds, without a copy; a short one is copied. Returns as write() does.
  writeOwned(chunk, wipe) {
    if (this.#error !== undefined) {
      if (wipe) chunk.fill(0);
      throw this.#error;
    }
    if (chunk.length < MIN) {
      const waiting = this.#write(chunk);
      if (!wipe) return waiting;
      // Copied by now, unless it waits for a batch (#later).
      if (waiting === undefined) {
        chunk.fill(0);
        return undefined;
      }
      return waiting.finally(() => chunk.fill(0));
    }
    if (this.#used !== 0 && this.#jobs.length < DEPTH) this.#send();
    if (this.#used !== 0 || this.#jobs.length === DEPTH) return this.#laterOwned(chunk, wipe);
    this.#job(chunk, chunk.length, undefined, wipe);
    return undefined;
  }

  // A chunk that nothing else reaches: new memory that a source gave to
  // this feed alone (sources.js, pumpNode). Hashed where it is, as
  // writeOwned does, after any write still waiting; wiped once hashed if
  // the feed's input is secret. Returns as write() does.
  writeSole(chunk) {
    if (this.#error !== undefined) throw this.#error;
    if (this.#waiting !== undefined || typeof chunk === 'string') return this.write(chunk);
    return this.#track(this.writeOwned(chunk, this.#secret));
  }

  async #laterOwned(chunk, wipe) {
    await this.#jobs[0];
    const waiting = this.writeOwned(chunk, wipe);
    if (waiting !== undefined) await waiting;
  }

  // Until every job sent has ended.
  async #settle() {
    while (this.#jobs.length !== 0) await this.#jobs[this.#jobs.length - 1];
  }

  // A batch hashed: kept for this stream's next ones (wiped first if
  // secret); smaller ones than the next size are of no more use to it.
  #giveBack(batch, used) {
    if (this.#secret) batch.fill(0, 0, used);
    if (batch.length < this.#size) giveBatch(batch, 0, false);
    else this.#free.push(batch);
  }

  // Once everything written is hashed but the rest (what is left goes as a
  // last job if it is MIN bytes or more), what last(rest) gives: `rest` a
  // view of the last batch's bytes (undefined: none), valid during the call.
  async end(last) {
    while (this.#waiting !== undefined) await this.#waiting;
    while (this.#error === undefined && this.#used >= MIN) {
      if (this.#jobs.length < DEPTH) this.#send();
      else await this.#jobs[0];
    }
    await this.#settle();
    if (this.#error !== undefined) throw this.#error;
    const batch = this.#batch;
    this.#batch = undefined;
    try {
      return last(batch === undefined ? undefined : batch.subarray(0, this.#used));
    } finally {
      this.#release(batch);
    }
  }

  // The batches given up at the end (the one being filled, wiped if secret).
  #release(batch) {
    if (batch !== undefined) giveBatch(batch, this.#used, this.#secret);
    for (const free of this.#free) giveBatch(free, 0, false);
    this.#batch = undefined;
    this.#free = [];
    this.#used = 0;
  }

  // After a failure: once no job holds the hasher, its state is freed and
  // the batch given back.
  async discard() {
    // Writes still waiting for a batch take nothing more.
    this.#error ??= makeError(Error, 'ERR_STREAM_DESTROYED', 'Cannot call write after a stream was destroyed');
    await this.#settle();
    discard(this.#hasher);
    this.#release(this.#batch);
  }
}

module.exports = { Feed, BIG };
