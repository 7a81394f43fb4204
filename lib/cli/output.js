'use strict';
// What the command writes: stdout and stderr through fs.writeSync, names
// escaped and quoted as coreutils does, and the words of its diagnostics.
// process.stdout and process.stderr are never made: their stream modules
// take longer to load than a small tree takes to hash.

const fs = require('fs');
const { nameBytes } = require('./names');

const PROGRAM = 'fast-hash';

// Both streams are written in the order the lines are made (as coreutils'
// error() flushes stdout before writing to stderr), so nothing is pending at
// exit.
function writeAll(fd, data) {
  const bytes = typeof data === 'string' ? nameBytes(data) : data;
  let done = 0;
  while (done < bytes.length) {
    try {
      done += fs.writeSync(fd, bytes, done);
    } catch (err) {
      if (err.code !== 'EAGAIN') throw err;
      // A descriptor another process made non-blocking, full: the reader is
      // behind, and the command has nothing else to do.
      Atomics.wait(PAUSE, 0, 0, 1);
    }
  }
}
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

// A write to a closed pipe (`fast-hash * | head -1`) ends the command quietly,
// as SIGPIPE ends coreutils; other write errors are reported.
function writeOut(data) {
  try {
    writeAll(1, data);
  } catch (err) {
    if (err.code !== 'EPIPE') warn(`write error: ${describeError(err)}`);
    process.exit(1);
  }
}

// Diagnostics that cannot be written are lost, as they are for coreutils.
function writeErr(text) {
  try {
    writeAll(2, text);
  } catch {
    // nowhere left to report it
  }
}

function warn(message) {
  writeErr(`${PROGRAM}: ${message}\n`);
}

// A command-line mistake, reported as coreutils' usage(EXIT_FAILURE) does.
function usageError(message) {
  warn(message);
  writeErr(`Try '${PROGRAM} --help' for more information.\n`);
  return 1;
}

// strerror() wording, which coreutils prints and libuv's messages don't match.
const STRERROR = {
  ENOENT: 'No such file or directory',
  EISDIR: 'Is a directory',
  EACCES: 'Permission denied',
  ENOTDIR: 'Not a directory',
  EPERM: 'Operation not permitted',
  ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long',
  EIO: 'Input/output error',
};

function describeError(err) {
  if (STRERROR[err.code]) return STRERROR[err.code];
  // libuv says "ECODE: description, syscall 'path'": keep the description.
  const match = /^[A-Z0-9_]+: ([^,]+)/.exec(err.message);
  const text = match ? match[1] : err.message;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// Names in diagnostics are quoted as coreutils' quotef() does (gnulib's
// shell-escape style), so a name with a space or newline stays unambiguous:
// bare when harmless, "double quoted" when it holds only a ' as trouble, else
// 'single quoted' with control characters and bytes that are not UTF-8
// (names.js) written as $'\n' and $'\377'.
const BARE = /^[\w%+,\-./@\]{}#~\u00a0-\ud7ff\ue000-\u{10ffff}]+$/u;
const DOUBLE_QUOTABLE = /^[\w%+,\-./:@\] '\u00a0-\ud7ff\ue000-\u{10ffff}]+$/u;
const CONTROL_RUN = /[\x00-\x1f\x7f-\x9f\udc80-\udcff]+/g;
const ENDS_IN_CONTROL = /[\x00-\x1f\x7f-\x9f\udc80-\udcff]$/;
const C_ESCAPES = { '\x07': '\\a', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\v': '\\v', '\f': '\\f', '\r': '\\r' };

function quoteName(name) {
  const harmless = BARE.test(name) && !/^[#~]/.test(name) && name !== '{' && name !== '}';
  if (harmless) return name;
  if (name.includes("'") && DOUBLE_QUOTABLE.test(name)) return `"${name}"`;
  const body = name.replace(/'/g, "'\\''").replace(CONTROL_RUN, (run, at, all) =>
    `'$'${cEscape(run)}'` + (at + run.length < all.length ? "'" : ''));
  // After a trailing $'...' there is no quote left open to close.
  return ENDS_IN_CONTROL.test(name) ? `'${body}` : `'${body}'`;
}

function cEscape(run) {
  let out = '';
  for (const ch of run) {
    if (C_ESCAPES[ch]) out += C_ESCAPES[ch];
    else if (ch >= '\udc80' && ch <= '\udcff') out += '\\' + (ch.charCodeAt(0) - 0xdc00).toString(8);
    else for (const byte of Buffer.from(ch)) out += '\\' + byte.toString(8).padStart(3, '0');
  }
  return out;
}

function reportFileError(displayName, err) {
  warn(`${quoteName(displayName)}: ${describeError(err)}`);
}

// sha256sum escapes these in a printed name (and marks the line with a
// leading backslash) so every entry stays one parseable line.
const ESCAPED_CHARS = /[\\\n\r]/g;
const NEEDS_ESCAPE = /[\\\n\r]/;
const ESCAPES = { '\\': '\\\\', '\n': '\\n', '\r': '\\r' };

function escapeName(name) {
  return name.replace(ESCAPED_CHARS, (ch) => ESCAPES[ch]);
}

// One output line as coreutils' output_file() makes it. `format` holds what
// the options decided: the BSD tag (or null), the mode mark ('*' for
// --binary, else ' ') and the line end ('\0' for --zero, which also turns
// escaping off).
function digestLine(hex, name, format) {
  const escape = format.end === '\n' && NEEDS_ESCAPE.test(name);
  const shown = escape ? escapeName(name) : name;
  const mark = escape ? '\\' : '';
  if (format.tag !== null) return `${mark}${format.tag} (${shown}) = ${hex}${format.end}`;
  return `${mark}${hex} ${format.mode}${shown}${format.end}`;
}

// Check results escape only names holding a newline, as sha256sum -c does:
// anything else still fits on one line.
function checkedName(name) {
  return name.includes('\n') ? '\\' + escapeName(name) : name;
}

// Lines for stdout gathered into one write per 64 KiB (a write per line
// costs more than a small file's digest). Flushed before anything goes to
// stderr, and whenever the command waits, so the two streams interleave as
// sha256sum's do and lines appear as soon as their turn comes.
function lineBuffer() {
  let text = '';
  const flush = () => {
    if (text !== '') writeOut(text);
    text = '';
  };
  return {
    add(line) {
      text += line;
      if (text.length >= 65536) flush();
    },
    flush,
  };
}

module.exports = {
  PROGRAM, writeOut, writeErr, warn, usageError, describeError, quoteName,
  reportFileError, digestLine, checkedName, lineBuffer,
};
