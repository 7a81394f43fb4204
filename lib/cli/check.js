'use strict';
// --check: each list's entries verified (in parallel, as digests.js hashes),
// a result line per entry in list order, and coreutils' warnings and exit
// status, as digest_check() in md5sum.c makes them.

const fs = require('fs');
const { inOrder } = require('./ordered');
const { digestOf } = require('./hashing');
const { parseCheckLine } = require('./check-line');
const { decodeName } = require('./names');
const { readStdin } = require('./stdin');
const { tagName } = require('./algorithms');
const { warn, quoteName, describeError, checkedName, lineBuffer } = require('./output');

// split_3's "BSD reversed" mode, decided by the first line that tells and
// kept for the rest of the command, every list after it included, as
// coreutils keeps it in a static variable.
const state = { reversed: null };

// The list's lines as work items: an entry to verify, or a line that is not
// one (misformatted; comments and blank lines are skipped).
function* listItems(text, hexLen, tag, fromStdin) {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let n = 0; n < lines.length; n++) {
    let line = lines[n];
    if (line.startsWith('#')) continue;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line === '') continue;
    const entry = parseCheckLine(line, hexLen, tag, state);
    // A list read from stdin cannot also name stdin as a file to check.
    if (entry === null || (fromStdin && entry.name === '-')) yield { lineNumber: n + 1 };
    else yield entry;
  }
}

async function readList(listName, shownList) {
  try {
    return decodeName(listName === '-' ? await readStdin() : await fs.promises.readFile(listName));
  } catch (err) {
    // coreutils reports a failed read (a directory, say) without the reason.
    warn(err.syscall === 'read' ? `${shownList}: read error` : `${shownList}: ${describeError(err)}`);
    return null;
  }
}

// Checks every entry of one list. Returns whether the list checked out.
async function checkList(opts, listName, hexLen) {
  const fromStdin = listName === '-';
  const shownList = quoteName(fromStdin ? 'standard input' : listName);
  const text = await readList(listName, shownList);
  if (text === null) return false;

  const tag = tagName(opts.algorithm);
  const counts = { formatted: 0, misformatted: 0, unreadable: 0, mismatched: 0, matched: 0 };
  const out = lineBuffer();
  const report = (line) => {
    out.flush();
    warn(line);
  };
  await inOrder(listItems(text, hexLen, tag, fromStdin), opts.jobs, {
    start: (item) => (item.name === undefined ? {} : digestOf(opts.algorithm, item.name, opts.jobs > 1)),
    finish: (outcome, item) => {
      if (item.name !== undefined) return verdict(opts, item, outcome, counts, out, report);
      counts.misformatted++;
      if (opts.warn) report(`${shownList}: ${item.lineNumber}: improperly formatted ${tag} checksum line`);
    },
    waiting: out.flush,
  });
  out.flush();
  return summary(opts, counts, shownList);
}

// One entry's result line (and its error, if its file could not be read).
function verdict(opts, { hex, name }, { value, error }, counts, out, report) {
  counts.formatted++;
  const shown = () => (opts.status ? name : checkedName(name));
  if (error !== undefined) {
    if (opts.ignoreMissing && error.code === 'ENOENT') return;
    report(`${quoteName(name)}: ${describeError(error)}`);
    counts.unreadable++;
    if (!opts.status) out.add(`${shown()}: FAILED open or read\n`);
    return;
  }
  const matched = value === hex;
  if (matched) counts.matched++;
  else counts.mismatched++;
  if (opts.status || (matched && opts.quiet)) return;
  out.add(`${shown()}: ${matched ? 'OK' : 'FAILED'}\n`);
}

const plural = (n, one, many) => `WARNING: ${n} ${n === 1 ? one : many}`;

function summary(opts, counts, shownList) {
  const { formatted, misformatted, unreadable, mismatched, matched } = counts;
  if (formatted === 0) {
    warn(`${shownList}: no properly formatted checksum lines found`);
    return false;
  }
  if (!opts.status) {
    if (misformatted) warn(plural(misformatted, 'line is improperly formatted', 'lines are improperly formatted'));
    if (unreadable) warn(plural(unreadable, 'listed file could not be read', 'listed files could not be read'));
    if (mismatched) warn(plural(mismatched, 'computed checksum did NOT match', 'computed checksums did NOT match'));
    if (opts.ignoreMissing && matched === 0) warn(`${shownList}: no file was verified`);
  }
  return unreadable === 0 && mismatched === 0 && (!opts.strict || misformatted === 0) &&
    (!opts.ignoreMissing || matched > 0);
}

module.exports = { checkList };
