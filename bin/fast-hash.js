#!/usr/bin/env node
'use strict';
// The fast-hash command: prints or checks digests the way GNU coreutils'
// sha256sum does (same lines, same escaping, same messages, same exit
// status), so it can stand in for it in scripts; any algorithm from --list,
// and many files hashed at once (-j). The parts are in lib/cli/: args.js
// (the command line), output.js (lines, escaping, diagnostics), digests.js
// and check.js (the two modes), ordered.js (the parallel, in-order
// scheduler), hashing.js (one file's digest), names.js (names as bytes).

const os = require('os');
const { main } = require('../lib/cli/main');
const { warn } = require('../lib/cli/output');

const cpus = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;

main(process.argv.slice(2), Math.max(1, cpus)).then(
  (status) => {
    process.exitCode = status;
  },
  (err) => {
    warn(err && err.message ? err.message : String(err));
    process.exitCode = 1;
  },
);
