'use strict';
// AbortSignals, as every call that takes one reads them (the stream
// digests, hasher.updateFrom(), hashFile()): the option checked, the
// AbortError made as Node makes its own, and one listener of ours per
// signal however many calls share it. Kept apart from stream/ so that
// hashFile() does not load the stream machinery.

const { guarded } = require('./args');
const { makeError, invalidArgType } = require('./errors');

function abortError(signal) {
  const err = makeError(Error, 'ABORT_ERR', 'The operation was aborted');
  err.name = 'AbortError';
  Object.defineProperty(err, 'cause', {
    value: signal.reason, enumerable: false, writable: true, configurable: true,
  });
  return err;
}

// Calls fn once when `signal` aborts; returns the function that stops
// listening. A signal has one listener of ours however many digests share
// it (more than ten listeners on one signal draw Node's
// MaxListenersExceededWarning), which calls each digest's own, and which
// is removed when the last digest stops listening.
const watched = new WeakMap(); // signal -> { calls: Set, listener }
function onAbort(signal, fn) {
  if (signal === undefined) return () => {};
  let watch = watched.get(signal);
  if (watch === undefined) {
    const calls = new Set();
    const listener = () => {
      watched.delete(signal);
      for (const call of calls) call();
    };
    watch = { calls, listener };
    watched.set(signal, watch);
    signal.addEventListener('abort', listener, { once: true });
  }
  watch.calls.add(fn);
  return () => {
    if (!watch.calls.delete(fn) || watch.calls.size !== 0 || watched.get(signal) !== watch) return;
    watched.delete(signal);
    signal.removeEventListener('abort', watch.listener);
  };
}

// A signal option as given (undefined: none), checked.
function checkSignal(signal, caller) {
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || !('aborted' in signal))) {
    throw invalidArgType('options.signal', 'an instance of AbortSignal', signal, caller);
  }
  return signal;
}

// { signal } of options that hold only a signal (updateFrom(), hashFile()'s
// object): null and undefined are none; the property is read once.
function signalOption(options, caller) {
  if (options === undefined || options === null) return undefined;
  if (typeof options !== 'object') throw invalidArgType('options', 'of type object', options, caller);
  return checkSignal(guarded(options, 'options', 'of type object', caller, (o) => o.signal), caller);
}

module.exports = { abortError, onAbort, checkSignal, signalOption };
