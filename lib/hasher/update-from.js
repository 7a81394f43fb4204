'use strict';
// hasher.updateFrom(source[, options]): everything a source yields fed into
// a hasher through a Feed (stream/feed.js), as hashStream feeds its own,
// long chunks hashed off the event loop; the hasher is left unfinished.
// Contract: argument errors reject and leave the hasher as it was; from the
// call until the promise settles the hasher is marked pending (its methods
// throw ERR_INVALID_STATE); any other rejection (the source's error, a bad
// chunk, an abort) finishes the hasher and frees and wipes its state.
const { sourceKind, newFeed, feedSource } = require('../stream');
const { signalOption } = require('../signal');
const { setPending } = require('./hasher');

// `secret`: an HMAC hasher (its batches are wiped); `caller`: the method,
// for the errors' stacks. The hasher was checked (usable, nothing pending).
async function updateFrom(hasher, secret, source, options, caller) {
  // Before the first await: runs in the call, as the check did.
  const kind = sourceKind(source, caller);
  const signal = signalOption(options, caller);
  setPending(hasher, true);
  const feed = newFeed(hasher, secret, kind);
  try {
    await feedSource(feed, source, kind, signal);
    await feed.end((rest) => {
      setPending(hasher, false);
      if (rest !== undefined) hasher.update(rest);
    });
  } catch (err) {
    await feed.discard();
    setPending(hasher, false);
    throw err;
  }
  return hasher;
}

module.exports = { updateFrom };
