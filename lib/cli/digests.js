'use strict';
// Printing digests: a line per file in argument order, written as soon as
// its turn comes; an unreadable file is reported at its place and skipped.

const { inOrder } = require('./ordered');
const { digestOf } = require('./hashing');
const { digestLine, lineBuffer, reportFileError } = require('./output');
const { tagName } = require('./algorithms');

// The line format the options ask for (output.js digestLine).
function formatOf(opts) {
  return {
    tag: opts.tag ? tagName(opts.algorithm) : null,
    mode: opts.binary === 1 ? '*' : ' ',
    end: opts.zero ? '\0' : '\n',
  };
}

// Returns whether every file was hashed.
async function printDigests(opts, files) {
  const format = formatOf(opts);
  const out = lineBuffer();
  const parallel = opts.jobs > 1;
  let ok = true;
  await inOrder(files, opts.jobs, {
    start: (name) => digestOf(opts.algorithm, name, parallel),
    finish: ({ value, error }, name) => {
      if (error === undefined) return out.add(digestLine(value, name, format));
      out.flush();
      reportFileError(name, error);
      ok = false;
    },
    waiting: out.flush,
  });
  out.flush();
  return ok;
}

module.exports = { printDigests };
