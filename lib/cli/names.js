'use strict';
// File names as the command holds them: JavaScript strings in which each
// byte that is not part of valid UTF-8 stands as U+DC80 + byte (Python's
// "surrogateescape"), so a name read from a check list or from the command
// line reaches the file system, stdout and diagnostics as the same bytes.

const { isUtf8 } = require('buffer');

const ESCAPED_BYTE = /[\udc80-\udcff]/;

// Bytes to a name string; valid UTF-8 (the usual case) takes one call.
function decodeName(bytes) {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const n = validSequence(bytes, i);
    if (n === 0) {
      out += String.fromCharCode(0xdc00 + bytes[i]);
      i++;
    } else {
      out += bytes.toString('utf8', i, i + n);
      i += n;
    }
  }
  return out;
}

// The length of the valid UTF-8 sequence at bytes[i], 0 if there is none.
function validSequence(bytes, i) {
  const b = bytes[i];
  const n = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
  if (n === 0 || i + n > bytes.length) return 0;
  return isUtf8(bytes.subarray(i, i + n)) ? n : 0;
}

// A name string back to its bytes.
function nameBytes(name) {
  if (!ESCAPED_BYTE.test(name)) return Buffer.from(name);
  const parts = [];
  let start = 0;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code < 0xdc80 || code > 0xdcff) continue;
    parts.push(Buffer.from(name.slice(start, i)), Buffer.of(code - 0xdc00));
    start = i + 1;
  }
  parts.push(Buffer.from(name.slice(start)));
  return Buffer.concat(parts);
}

// What the file system is given: the string itself unless it holds bytes
// only a Buffer can carry.
const namePath = (name) => (ESCAPED_BYTE.test(name) ? nameBytes(name) : name);

// Node decodes the command line as UTF-8, turning other bytes into U+FFFD.
// On Linux the arguments' own bytes are in /proc/self/cmdline: the last
// `count` entries are the command's arguments.
function rawArguments(argv) {
  if (process.platform !== 'linux' || !argv.some((arg) => arg.includes('\ufffd'))) return argv;
  let entries;
  try {
    entries = require('fs').readFileSync('/proc/self/cmdline').subarray(0, -1);
  } catch {
    return argv;
  }
  const raw = [];
  let end = entries.length;
  for (let k = 0; k < argv.length; k++) {
    const start = entries.lastIndexOf(0, end - 1) + 1;
    raw.unshift(decodeName(entries.subarray(start, end)));
    end = start - 1;
  }
  return raw;
}

module.exports = { decodeName, nameBytes, namePath, rawArguments, ESCAPED_BYTE };
