'use strict';
// The binding (interface: ../interface.js) in JavaScript, over the runtime's
// own crypto: what runs where the addon cannot (Bun, Deno, Electron, no
// binary for the platform). Results are node:crypto's own bytes; each call
// goes to the fastest one the runtime has that gives them ("the runtime's
// calls"). This file assembles the binding from its parts:
//   runtime.js       which runtime this is (one strategy object, chosen at
//                    load) and the calls every part makes;
//   table.js         encodings and the table of digests, by ID;
//   algorithms.js    resolve(): the prober, and each digest's ways;
//   digests.js       hash(), hashPrefix(), hashMany();
//   macs.js          hmac(), hmacVerify(), the HmacKey functions;
//   keyed-states.js  HMAC as keyed Hash states that can be copied;
//   shots.js         the shim's shortest paths (shot, macShot);
//   hashers.js       the hasher functions;
//   files.js         the asynchronous functions and files.
// Contract: exports the functions of interface.js, and runtimeCalls().
const { runtime, BUN, BUN_CLASSES, VIEWS } = require('./runtime');
const { encodings, encodedLength, algAt } = require('./table');
const { resolve } = require('./algorithms');
const { hash, hashPrefix, hashMany } = require('./digests');
const { hmac, hmacVerify, hmacKeyNew, hmacKeyDigest, hmacKeyVerify, hmacKeyDestroy } = require('./macs');
const { shot, macShot } = require('./shots');
const hashers = require('./hashers');
const { hashAsync, hmacAsync, hashFile, hashFileSync } = require('./files');

// Which call does what here (for the tests and the benchmark's header).
function runtimeCalls(algId) {
  const alg = algAt(algId);
  const chain = runtime.freshCopies ? 'a copy of a pristine Hash' : 'createHash';
  const made = alg.direct && !runtime.viaHex ? 'crypto.hash' : chain;
  const text = alg.cls !== undefined ? `Bun.${BUN_CLASSES.find((n) => BUN[n] === alg.cls)}.hash` : made;
  return {
    runtime: runtime.name,
    text,
    bytes: alg.way.bytes({ text, made, chain }),
    hmac: alg.mac.calls.hmac,
    hmacKey: alg.mac.calls.hmacKey,
    viewsAsIs: { shot: VIEWS.shot, cls: VIEWS.cls, hasher: VIEWS.hasher },
  };
}

module.exports = {
  implementation: 'js',
  releasesHandles: false,
  knowsOnlyNodeNames: true,
  shot,
  macShot,
  stageBytes: runtime.stageBytes,
  macStageBytes: runtime.macStageBytes,
  runtimeCalls,
  encodings,
  encodedLength,
  resolve,
  hash,
  hmac,
  hmacVerify,
  hmacKeyNew,
  hmacKeyDigest,
  hmacKeyVerify,
  hmacKeyDestroy,
  ...hashers,
  hashPrefix,
  hashMany,
  hashAsync,
  hmacAsync,
  hashFile,
  hashFileSync,
};
