'use strict';
// Hashers dropped unfinished. Where the binding's handles must be given
// back (binding.releasesHandles: slots of the addon's store), a hasher
// dropped before digest() must give its slot back. A FinalizationRegistry
// does that, but registering costs a visible part of a short digest
// (benchmark/README.md, "Figures behind design choices in the code"), and
// most hashers are finished in the job that made them. So a hasher is only
// noted when made; at the end of the job (a microtask), or every
// PENDING_MAX hashers in a long synchronous run, the noted ones still
// unfinished are registered and the rest forgotten. Until then the list
// keeps them alive, so none can be collected unregistered.
// Contract: noter(register) gives note(hasher); register(hasher) calls
// watch(hasher, handle) if the hasher is still unfinished and unwatched,
// and clears the cell's handle once it finishes.
const binding = require('../binding');

const RELEASES = binding.releasesHandles;
const PENDING_MAX = 1024;
const registry = RELEASES ? new FinalizationRegistry(release) : undefined;

// The registry's callback: `cell.handle` is cleared by digest(), so only
// an unfinished hasher's slot is released.
function release(cell) {
  if (cell.handle !== undefined) binding.hasherFree(cell.handle);
}

// The registry's cell for `hasher`, whose native state is `handle`.
function watch(hasher, handle) {
  const cell = { handle };
  registry.register(hasher, cell);
  return cell;
}

// note(hasher): notes a hasher that has a native state, to be registered
// (register(hasher)) if it is still unfinished at the end of the job.
function noter(register) {
  let pending = [];
  let flushQueued = false;
  const flush = () => {
    const list = pending;
    pending = [];
    for (let i = 0; i < list.length; i++) register(list[i]);
  };
  const flushSoon = () => {
    flushQueued = false;
    flush();
  };
  return (hasher) => {
    if (!RELEASES) return;
    if (pending.push(hasher) >= PENDING_MAX) {
      flush();
    } else if (!flushQueued) {
      flushQueued = true;
      queueMicrotask(flushSoon);
    }
  };
}

module.exports = { noter, watch };
