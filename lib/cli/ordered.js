'use strict';
// Runs work over a list with up to `limit` asynchronous jobs at a time and
// hands the outcomes over strictly in list order, each as soon as it and
// every one before it are done: output streams while later work runs, and
// memory holds at most `limit` jobs plus AHEAD finished outcomes.

// How far finished outcomes may run ahead of the one being waited for: small
// files hashed on the main thread keep going behind a large one, up to this.
const AHEAD = 1024;

// `start(item)` returns an outcome now ({ value } or { error }) or a
// Promise of one (a job); `finish(outcome, item)` gets each in list order;
// `waiting()` runs before the command blocks on a job (to flush output).
async function inOrder(items, limit, { start, finish, waiting }) {
  const iterator = items[Symbol.iterator]();
  const queue = [];
  let head = 0;
  let jobs = 0;
  let more = true;
  let wake = null;
  const done = (slot) => (outcome) => {
    slot.outcome = outcome;
    jobs--;
    if (wake !== null) wake();
  };
  while (more || head < queue.length) {
    while (more && jobs < limit && queue.length - head < AHEAD) {
      const next = iterator.next();
      if (next.done) more = false;
      else queue.push(startSlot(next.value, start, done, () => jobs++));
    }
    head = finishReady(queue, head, finish);
    if (head < queue.length && isRunning(queue[head])) {
      // Any job that ends wakes the loop: a free place is refilled at once,
      // even while the head still runs.
      waiting();
      await new Promise((resolve) => { wake = resolve; });
      wake = null;
    }
    if (head >= 4096) {
      queue.splice(0, head);
      head = 0;
    }
  }
}

const isRunning = (slot) => typeof slot.outcome.then === 'function';

function startSlot(item, start, done, counted) {
  const slot = { item, outcome: start(item) };
  if (isRunning(slot)) {
    counted();
    slot.outcome.then(done(slot));
  }
  return slot;
}

// Hands over every finished outcome at the head of the queue.
function finishReady(queue, head, finish) {
  while (head < queue.length && !isRunning(queue[head])) {
    finish(queue[head].outcome, queue[head].item);
    queue[head] = null;
    head++;
  }
  return head;
}

// An outcome from a function that may throw.
function settle(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { error };
  }
}

// An outcome from a Promise, which never rejects.
function settleAsync(promise) {
  return promise.then((value) => ({ value }), (error) => ({ error }));
}

module.exports = { inOrder, settle, settleAsync };
