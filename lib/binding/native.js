'use strict';
// The binding (interface.js) in C: the compiled addon over the OpenSSL
// bundled with Node. Contract: exports the functions of interface.js, and
// hasherStoreStats(), forceEvp() and evpOnly for the tests. The addon is
// the local build (build/Release) if there is one, else the prebuild for
// this platform (prebuilds/<platform>-<arch>/), as node-gyp-build finds
// them. It throws when there is none for this platform
// or when the binary cannot be loaded here (it binds every OpenSSL symbol at
// load, so a runtime without Node's OpenSSL refuses it in dlopen).
const addon = require('node-gyp-build')(require('path').join(__dirname, '..', '..'));

// FAST_HASH_FORCE_EVP=1 sends every digest through EVP, as FIPS mode does
// (the tests compare the paths). It is read here, from this thread's own
// process.env (a Worker's may differ), rather than by getenv() in C, which
// would read the process's environment without Node's lock.
const forced = process.env.FAST_HASH_FORCE_EVP === '1';
if (forced) addon.forceEvp();

// The shim's shortest paths (interface.js, `shot` and `macShot`) are the
// addon's own hash and hmac: every digest's token is its ID.
function resolve(name) {
  const entry = addon.resolve(name);
  if (entry !== undefined) {
    entry.shot = entry.id;
    entry.macShot = entry.id;
  }
  return entry;
}

module.exports = {
  ...addon,
  evpOnly: addon.evpOnly || forced,
  implementation: 'native',
  releasesHandles: true,
  knowsOnlyNodeNames: false,
  resolve,
  shot: addon.hash,
  macShot: addon.hmac,
  stageBytes: 256,
  macStageBytes: 256,
};
