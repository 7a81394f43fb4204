#!/usr/bin/env node
'use strict';
// The fast-hash command: prints or checks digests the way GNU coreutils'
// sha256sum does (same lines, same escaping, same messages, same exit
// status), so it can stand in for it in scripts. Any algorithm from --list.
// One file past 500 lines: its parser, its output and --check copy one
// coreutils program, and nothing else uses them.

const fs = require('fs');
const { hash, hashFileSync, getHashes } = require('../lib/index.js');

const PROGRAM = 'fast-hash';
const DEFAULT_ALGORITHM = 'sha256';

const USAGE = `Usage: ${PROGRAM} [OPTION]... [FILE]...
Print or check message digests (SHA-256 by default), as sha256sum does.

With no FILE, or when FILE is -, read standard input.

  -a, --algorithm=NAME  use the digest algorithm NAME (default: ${DEFAULT_ALGORITHM})
  -c, --check           read checksums from the FILEs and check them
      --list            list the supported algorithms and exit
  -h, --help            display this help and exit
      --version         output version information and exit

Each output line is the digest in hex, two spaces, and the file name. A name
holding a backslash, newline or carriage return is written with \\\\, \\n and \\r,
and its line then starts with a backslash.

With --check, each FILE lists digests in that form (or as '<hex> *<name>', or
BSD-style 'ALGORITHM (name) = <hex>'); a line is printed per file checked:
'<name>: OK', '<name>: FAILED', or '<name>: FAILED open or read'. Lines starting
with '#' are ignored.

Exit status is 0 on success, 1 if a file could not be read, a digest did not
match, or the command line was wrong.
`;

// ---- diagnostics -------------------------------------------------------------

function warn(message) {
  writeErr(`${PROGRAM}: ${message}\n`);
}

// A command-line mistake: what getopt would say, and where to look.
class UsageError extends Error {}

function usageError(message) {
  warn(message);
  writeErr(`Try '${PROGRAM} --help' for more information.\n`);
  return 1; // coreutils uses 1 for usage errors too
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
// 'single quoted' with control characters written as $'\n'.
const BARE = /^[\w%+,\-./@\]{}#~\u00a0-\u{10ffff}]+$/u;
const DOUBLE_QUOTABLE = /^[\w%+,\-./:@\] '\u00a0-\u{10ffff}]+$/u;
const CONTROL_RUN = /[\x00-\x1f\x7f-\x9f]+/g;
const ENDS_IN_CONTROL = /[\x00-\x1f\x7f-\x9f]$/;
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
    else for (const byte of Buffer.from(ch)) out += '\\' + byte.toString(8).padStart(3, '0');
  }
  return out;
}

function reportFileError(displayName, err) {
  warn(`${quoteName(displayName)}: ${describeError(err)}`);
}

// ---- output ------------------------------------------------------------------

// sha256sum escapes these in a printed name (and marks the line with a
// leading backslash) so every entry stays one parseable line.
const ESCAPED_CHARS = /[\\\n\r]/g;
const NEEDS_ESCAPE = /[\\\n\r]/;
const ESCAPES = { '\\': '\\\\', '\n': '\\n', '\r': '\\r' };

function escapeName(name) {
  return name.replace(ESCAPED_CHARS, (ch) => ESCAPES[ch]);
}

function digestLine(hex, name) {
  if (!NEEDS_ESCAPE.test(name)) return `${hex}  ${name}\n`;
  return `\\${hex}  ${escapeName(name)}\n`;
}

// Check results escape only names holding a newline, as sha256sum -c does:
// anything else still fits on one line.
function checkedName(name) {
  return name.includes('\n') ? '\\' + escapeName(name) : name;
}

// Both streams are written with fs.writeSync, in the order the lines are
// made (as coreutils' error() flushes stdout before writing to stderr), so
// nothing is pending at exit. process.stdout and process.stderr are never
// made: their stream modules take longer to load than a small tree takes to
// hash.
function writeAll(fd, data) {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
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

// ---- input -------------------------------------------------------------------

let stdinConsumed = false;

// Standard input, read whole. Read a second time (`fast-hash - -`) it is at
// end of file, as for coreutils.
async function readStdin() {
  if (stdinConsumed) return Buffer.alloc(0);
  stdinConsumed = true;
  // The stream reads a directory (`< /`) as empty; coreutils reports it.
  if (fs.fstatSync(0).isDirectory()) {
    throw Object.assign(new Error('EISDIR: illegal operation on a directory, read'), { code: 'EISDIR', syscall: 'read' });
  }
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks);
}

// `path` is a string or a Buffer (raw bytes from a check list); '-' is stdin.
const isStdin = (path) => (typeof path === 'string' ? path === '-' : path.length === 1 && path[0] === 0x2d);

async function stdinDigest(algorithm) {
  return hash(algorithm, await readStdin());
}

// ---- command line ------------------------------------------------------------

const LONG_OPTIONS = ['algorithm', 'check', 'help', 'list', 'version'];
const TAKES_ARGUMENT = new Set(['algorithm']);
const SHORT_OPTIONS = { a: 'algorithm', c: 'check', h: 'help' };

// getopt_long's rules: options anywhere before `--`, clustered short options
// (-ca md5), -aNAME and --algorithm=NAME, unambiguous long-option prefixes.
function parseArgs(argv) {
  const opts = { algorithm: DEFAULT_ALGORITHM, check: false, action: null, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      opts.files.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      i = parseLongOption(argv, i, opts);
    } else if (arg.startsWith('-') && arg !== '-') {
      i = parseShortOptions(argv, i, opts);
    } else {
      opts.files.push(arg);
    }
    // --help and friends act at once, as in coreutils: later arguments are not looked at.
    if (opts.action) break;
  }
  return opts;
}

function parseLongOption(argv, i, opts) {
  const arg = argv[i];
  const eq = arg.indexOf('=');
  const given = arg.slice(2, eq < 0 ? undefined : eq);
  const matches = LONG_OPTIONS.filter((name) => name.startsWith(given));
  const name = LONG_OPTIONS.includes(given) ? given : matches.length === 1 ? matches[0] : null;
  if (name === null) {
    if (matches.length > 1) {
      throw new UsageError(`option '${arg}' is ambiguous; possibilities:` + matches.map((m) => ` '--${m}'`).join(''));
    }
    throw new UsageError(`unrecognized option '${arg}'`);
  }
  if (!TAKES_ARGUMENT.has(name)) {
    if (eq >= 0) throw new UsageError(`option '--${name}' doesn't allow an argument`);
    applyOption(name, undefined, opts);
    return i;
  }
  if (eq >= 0) {
    applyOption(name, arg.slice(eq + 1), opts);
    return i;
  }
  if (i + 1 >= argv.length) throw new UsageError(`option '--${name}' requires an argument`);
  applyOption(name, argv[i + 1], opts);
  return i + 1;
}

function parseShortOptions(argv, i, opts) {
  const arg = argv[i];
  for (let j = 1; j < arg.length; j++) {
    const name = SHORT_OPTIONS[arg[j]];
    if (name === undefined) throw new UsageError(`invalid option -- '${arg[j]}'`);
    if (!TAKES_ARGUMENT.has(name)) {
      applyOption(name, undefined, opts);
      if (opts.action) return i;
      continue;
    }
    // The rest of the cluster is the argument, else the next word is.
    if (j + 1 < arg.length) {
      applyOption(name, arg.slice(j + 1), opts);
      return i;
    }
    if (i + 1 >= argv.length) throw new UsageError(`option requires an argument -- '${arg[j]}'`);
    applyOption(name, argv[i + 1], opts);
    return i + 1;
  }
  return i;
}

function applyOption(name, value, opts) {
  if (name === 'algorithm') opts.algorithm = value;
  else if (name === 'check') opts.check = true;
  else opts.action = name; // help, list, version
}

// The digest length in hex tells --check which lines can be for this
// algorithm; null means the algorithm is unknown.
function hexLength(algorithm) {
  try {
    return hash(algorithm, '').length;
  } catch (err) {
    if (err.code === 'ERR_CRYPTO_INVALID_DIGEST') return null;
    throw err;
  }
}

// ---- printing digests --------------------------------------------------------

// One line per file, in argument order; an unreadable file is reported and
// skipped. Returns whether every file was hashed. Files are read
// synchronously and only standard input is awaited, so a list of files runs
// as one loop with no promise per file: the command has nothing else to do
// meanwhile, and hashing ahead on the thread pool (hashFile) would add a
// round trip per file while its threads compete with this one for the cores.
async function printDigests(algorithm, files) {
  const out = lineBuffer();
  let ok = true;
  for (const file of files) {
    let hex;
    try {
      hex = isStdin(file) ? await stdinDigest(algorithm) : hashFileSync(algorithm, file);
    } catch (err) {
      out.flush();
      reportFileError(file, err);
      ok = false;
      continue;
    }
    out.add(digestLine(hex, file));
  }
  out.flush();
  return ok;
}

// Lines for stdout gathered into one write per 64 KiB (a write per line
// costs more than a small file's digest). Flushed before anything goes to
// stderr, so the two streams interleave as sha256sum's do.
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

// ---- checking ----------------------------------------------------------------

// List lines are handled as latin1 strings: one char per byte, so names that
// are not UTF-8 reach the file system unchanged (Buffer.from(name, 'latin1')).
const bytesOf = (s) => Buffer.from(s, 'latin1');
const textOf = (s) => bytesOf(s).toString('utf8');

const isBlank = (ch) => ch === ' ' || ch === '\t';
const isHex = (s, length) => s.length === length && /^[0-9a-fA-F]*$/.test(s);

// Undoes escapeName(); null for a lone backslash or an unknown escape, which
// make the line improperly formatted.
function unescapeName(s) {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\0') return null;
    if (s[i] !== '\\') {
      out += s[i];
      continue;
    }
    const next = { '\\': '\\', n: '\n', r: '\r' }[s[++i]];
    if (next === undefined) return null;
    out += next;
  }
  return out;
}

// Parses one list line the way coreutils' split_3() does, returning
// { hex, name } or null when improperly formatted. `state.reversed` follows
// its "BSD reversed" mode (`<hex> <name>`, one space): the first line decides,
// so a name with a leading space or * cannot be misread later.
function parseCheckLine(line, hexLen, tag, state) {
  let i = 0;
  while (isBlank(line[i])) i++;
  const escaped = line[i] === '\\';
  if (escaped) i++;

  if (line.startsWith(tag, i)) return parseTaggedLine(line, i + tag.length, hexLen, escaped);

  if (line.length - i < hexLen + 2 + (line[i] === '\\' ? 1 : 0)) return null;
  const hex = line.slice(i, i + hexLen);
  i += hexLen;
  if (!isBlank(line[i])) return null;
  i++;
  if (!isHex(hex, hexLen)) return null;

  if (line.length - i === 1 || (line[i] !== ' ' && line[i] !== '*')) {
    if (state.reversed === false) return null;
    state.reversed = true;
  } else if (state.reversed !== true) {
    state.reversed = false;
    i++; // the ' ' (text) or '*' (binary) mode mark, which makes no difference here
  }
  return withName(hex, line.slice(i), escaped);
}

// 'SHA256 (name) = <hex>', as `sha256sum --tag` writes; the name ends at the
// last ')'.
function parseTaggedLine(line, i, hexLen, escaped) {
  if (line[i] === ' ') i++;
  if (line[i] !== '(') return null;
  const close = line.lastIndexOf(')');
  if (close <= i) return null;
  const rest = /^[ \t]*=[ \t]*(.*)$/s.exec(line.slice(close + 1));
  if (rest === null || !isHex(rest[1], hexLen)) return null;
  return withName(rest[1], line.slice(i + 1, close), escaped);
}

function withName(hex, name, escaped) {
  if (escaped) {
    name = unescapeName(name);
    if (name === null) return null;
  } else if (name.includes('\0')) {
    name = name.slice(0, name.indexOf('\0')); // where C's string would end
  }
  return { hex: hex.toLowerCase(), name };
}

// Checks every entry of one list; prints a line per entry and the coreutils
// warnings. Returns whether the list checked out.
async function checkList(algorithm, listName, hexLen) {
  const fromStdin = listName === '-';
  const shownList = quoteName(fromStdin ? 'standard input' : listName);
  let text;
  try {
    text = fromStdin ? await readStdin() : await fs.promises.readFile(listName);
  } catch (err) {
    // coreutils reports a failed read (a directory, say) without the reason.
    warn(err.syscall === 'read' ? `${shownList}: read error` : `${shownList}: ${describeError(err)}`);
    return false;
  }

  const counts = { formatted: 0, misformatted: 0, unreadable: 0, mismatched: 0 };
  const tag = algorithm.toUpperCase();
  const state = { reversed: null };
  for (let line of text.toString('latin1').split('\n')) {
    if (line.startsWith('#')) continue;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line === '') continue;
    const entry = parseCheckLine(line, hexLen, tag, state);
    // A list read from stdin cannot also name stdin as a file to check.
    if (entry === null || (fromStdin && entry.name === '-')) {
      counts.misformatted++;
      continue;
    }
    counts.formatted++;
    await checkEntry(algorithm, entry, counts);
  }

  if (counts.formatted === 0) {
    warn(`${shownList}: no properly formatted checksum lines found`);
    return false;
  }
  printCheckWarnings(counts);
  return counts.unreadable === 0 && counts.mismatched === 0;
}

async function checkEntry(algorithm, { hex, name }, counts) {
  let actual;
  try {
    const path = bytesOf(name);
    actual = isStdin(path) ? await stdinDigest(algorithm) : hashFileSync(algorithm, path);
  } catch (err) {
    reportFileError(textOf(name), err);
    counts.unreadable++;
    writeOut(bytesOf(`${checkedName(name)}: FAILED open or read\n`));
    return;
  }
  const matched = actual === hex;
  if (!matched) counts.mismatched++;
  writeOut(bytesOf(`${checkedName(name)}: ${matched ? 'OK' : 'FAILED'}\n`));
}

function printCheckWarnings({ misformatted, unreadable, mismatched }) {
  const plural = (n, one, many) => `WARNING: ${n} ${n === 1 ? one : many}`;
  if (misformatted) warn(plural(misformatted, 'line is improperly formatted', 'lines are improperly formatted'));
  if (unreadable) warn(plural(unreadable, 'listed file could not be read', 'listed files could not be read'));
  if (mismatched) warn(plural(mismatched, 'computed checksum did NOT match', 'computed checksums did NOT match'));
}

// ---- main --------------------------------------------------------------------

async function main(argv) {
  let opts;
  try {
    opts = parseArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) return usageError(err.message);
    throw err;
  }
  if (opts.action === 'help') {
    writeOut(USAGE);
    return 0;
  }
  if (opts.action === 'version') {
    writeOut(`${PROGRAM} ${require('../package.json').version}\n`);
    return 0;
  }
  if (opts.action === 'list') {
    writeOut(getHashes().join('\n') + '\n');
    return 0;
  }

  const hexLen = hexLength(opts.algorithm);
  if (hexLen === null) {
    warn(`unknown algorithm '${opts.algorithm}'`);
    writeErr(`Try '${PROGRAM} --list' to see the supported algorithms.\n`);
    return 1;
  }

  const files = opts.files.length > 0 ? opts.files : ['-'];
  if (!opts.check) return (await printDigests(opts.algorithm, files)) ? 0 : 1;

  let ok = true;
  for (const list of files) {
    if (!(await checkList(opts.algorithm, list, hexLen))) ok = false;
  }
  return ok ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (err) => {
    warn(err && err.message ? err.message : String(err));
    process.exitCode = 1;
  },
);
