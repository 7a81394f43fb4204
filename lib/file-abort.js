'use strict';
// hashFile()'s `signal`: the binding's file job is given a cancel cell (an
// Int32Array over an ArrayBuffer of its own, never moved by the engine), and
// an abort sets it. The job reads the cell between slices (the addon on
// its pool thread and on the JS thread, the JavaScript implementation
// before each read): it then reads no more, closes the file and rejects.
// Contract: the promise rejects with the signal's AbortError once the job
// has ended (the file is closed by then), and the signal's listener is let
// go when the job ends, however it ends.
const { onAbort, abortError } = require('./signal');

// start(cancel) starts the job (cancel undefined: no signal) and returns
// its promise; `signal` is checked (signal.js's signalOption) or undefined.
function abortable(start, signal) {
  if (signal === undefined) return start(undefined);
  if (signal.aborted) return Promise.reject(abortError(signal));
  const cancel = new Int32Array(new ArrayBuffer(4));
  const stop = onAbort(signal, () => Atomics.store(cancel, 0, 1));
  let job;
  try {
    job = start(cancel);
  } catch (err) {
    stop();
    throw err;
  }
  // Aborted before the job ended: an AbortError, whatever the job gave.
  const ended = (ok) => (value) => {
    stop();
    if (Atomics.load(cancel, 0) !== 0) throw abortError(signal);
    if (ok) return value;
    throw value;
  };
  return job.then(ended(true), ended(false));
}

module.exports = { abortable };
