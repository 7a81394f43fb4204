'use strict';
// Standard input: hashed a chunk at a time as it arrives (digestStdin), in
// constant memory however much there is, as sha256sum reads it; or read
// whole (readStdin), for a check list, text split into lines as a list
// file is. Either one takes it: read a second time (`fast-hash - -`) it is
// at end of file, as for coreutils.
//
// The digest is the binding's incremental hasher (hasherNew, hasherUpdate
// per chunk, hasherDigest), the calls createHasher() makes, without
// lib/hasher/: its staging saves nothing on chunks of 64 KiB, and the
// command does not load it (test/cli-modules.test.js). The binding and
// args.js are loaded by hash.js already.

const fs = require('fs');
const binding = require('../binding');
const { ENC_HEX, lookupAlgorithm } = require('../args');

const EMPTY = new Uint8Array(0);
let consumed = false;

// process.stdin the first time; null after that (at end of file). The
// stream reads a directory (`< /`) as empty; coreutils reports it, at each
// read (`fast-hash - - < /` reports it twice, as sha256sum does).
function takeStdin() {
  if (fs.fstatSync(0).isDirectory()) {
    throw Object.assign(new Error('EISDIR: illegal operation on a directory, read'), { code: 'EISDIR', syscall: 'read' });
  }
  if (consumed) return null;
  consumed = true;
  return process.stdin;
}

// The hex digest of standard input. Each chunk is absorbed as it comes and
// dropped: the stream reads the next one only when asked.
async function digestStdin(algorithm) {
  const alg = lookupAlgorithm(algorithm, digestStdin);
  const stdin = takeStdin();
  const handle = binding.hasherNew(alg.id, alg.size);
  try {
    if (stdin !== null) {
      for await (const chunk of stdin) binding.hasherUpdate(handle, chunk);
    }
  } catch (err) {
    // A read error: the native state is given back now (a freed or
    // finished handle names nothing).
    binding.hasherFree(handle);
    throw err;
  }
  return binding.hasherDigest(handle, ENC_HEX, EMPTY, 0);
}

async function readStdin() {
  const stdin = takeStdin();
  if (stdin === null) return Buffer.alloc(0);
  const chunks = [];
  for await (const chunk of stdin) chunks.push(chunk);
  return Buffer.concat(chunks);
}

module.exports = { digestStdin, readStdin };
