'use strict';
// The command line, read with getopt_long's rules as sha256sum reads it:
// options anywhere before `--`, clustered short options (-bz, -ja4 is -j
// a4), -aNAME and --algorithm=NAME, unambiguous long-option prefixes, and
// coreutils' checks of combinations once every option is read.

// In the order of coreutils' long_options table, which getopt follows when it
// lists the possibilities of an ambiguous prefix (--st: status, strict).
// The command's own options (algorithm, jobs, list) share no prefix with
// sha256sum's, so every abbreviation sha256sum takes means the same here.
const OPTIONS = [
  { long: 'algorithm', short: 'a', argument: true, apply: (o, v) => { o.algorithm = v; } },
  { long: 'binary', short: 'b', apply: (o) => { o.binary = 1; } },
  { long: 'check', short: 'c', apply: (o) => { o.check = true; } },
  { long: 'ignore-missing', apply: (o) => { o.ignoreMissing = true; } },
  { long: 'jobs', short: 'j', argument: true, apply: (o, v) => { o.jobs = parseJobs(v); } },
  { long: 'list', apply: (o) => { o.action = 'list'; } },
  { long: 'quiet', apply: (o) => setVerbosity(o, 'quiet') },
  { long: 'status', apply: (o) => setVerbosity(o, 'status') },
  { long: 'strict', apply: (o) => { o.strict = true; } },
  { long: 'tag', apply: (o) => { o.tag = true; o.binary = 1; } },
  { long: 'text', short: 't', apply: (o) => { o.binary = 0; } },
  { long: 'warn', short: 'w', apply: (o) => setVerbosity(o, 'warn') },
  { long: 'zero', short: 'z', apply: (o) => { o.zero = true; } },
  { long: 'help', short: 'h', apply: (o) => { o.action = 'help'; } },
  { long: 'version', apply: (o) => { o.action = 'version'; } },
];
const BY_LONG = new Map(OPTIONS.map((opt) => [opt.long, opt]));
const BY_SHORT = new Map(OPTIONS.filter((opt) => opt.short).map((opt) => [opt.short, opt]));

// --status, --warn and --quiet each switch the other two off: the last wins.
function setVerbosity(opts, which) {
  opts.status = which === 'status';
  opts.warn = which === 'warn';
  opts.quiet = which === 'quiet';
}

// Combinations coreutils refuses after reading every option, in its order.
const CONFLICTS = [
  [(o) => o.tag && o.binary === 0, '--tag does not support --text mode'],
  [(o) => o.zero && o.check, 'the --zero option is not supported when verifying checksums'],
  [(o) => o.tag && o.check, 'the --tag option is meaningless when verifying checksums'],
  [(o) => o.binary >= 0 && o.check, 'the --binary and --text options are meaningless when verifying checksums'],
  ...['ignore-missing', 'status', 'warn', 'quiet', 'strict'].map((name) =>
    [(o) => o[camel(name)] && !o.check, `the --${name} option is meaningful only when verifying checksums`]),
];

function camel(name) {
  return name.replace(/-(.)/g, (_, ch) => ch.toUpperCase());
}

class UsageError extends Error {}

function parseJobs(value) {
  if (!/^[1-9][0-9]{0,5}$/.test(value)) throw new UsageError(`invalid number of jobs: '${value}'`);
  return Number(value);
}

function defaults() {
  return {
    algorithm: 'sha256', check: false, binary: -1, tag: false, zero: false,
    status: false, warn: false, quiet: false, strict: false, ignoreMissing: false,
    jobs: null, action: null, files: [],
  };
}

// Returns the options, or throws a UsageError with getopt's or coreutils'
// message. --help, --list and --version act at once, as in coreutils: later
// arguments are not looked at.
function parseArgs(argv) {
  const opts = defaults();
  for (let i = 0; i < argv.length && !opts.action; i++) {
    const arg = argv[i];
    if (arg === '--') {
      opts.files.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) i = parseLong(argv, i, opts);
    else if (arg.startsWith('-') && arg !== '-') i = parseShort(argv, i, opts);
    else opts.files.push(arg);
  }
  if (opts.action) return opts;
  for (const [refused, message] of CONFLICTS) {
    if (refused(opts)) throw new UsageError(message);
  }
  return opts;
}

function findLong(arg, given) {
  if (BY_LONG.has(given)) return BY_LONG.get(given);
  const matches = OPTIONS.filter((opt) => opt.long.startsWith(given));
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) throw new UsageError(`unrecognized option '${arg}'`);
  throw new UsageError(`option '${arg}' is ambiguous; possibilities:` + matches.map((m) => ` '--${m.long}'`).join(''));
}

function parseLong(argv, i, opts) {
  const arg = argv[i];
  const eq = arg.indexOf('=');
  const opt = findLong(arg, arg.slice(2, eq < 0 ? undefined : eq));
  if (!opt.argument) {
    if (eq >= 0) throw new UsageError(`option '--${opt.long}' doesn't allow an argument`);
    opt.apply(opts);
    return i;
  }
  if (eq >= 0) {
    opt.apply(opts, arg.slice(eq + 1));
    return i;
  }
  if (i + 1 >= argv.length) throw new UsageError(`option '--${opt.long}' requires an argument`);
  opt.apply(opts, argv[i + 1]);
  return i + 1;
}

function parseShort(argv, i, opts) {
  const arg = argv[i];
  for (let j = 1; j < arg.length; j++) {
    const opt = BY_SHORT.get(arg[j]);
    if (opt === undefined) throw new UsageError(`invalid option -- '${arg[j]}'`);
    if (!opt.argument) {
      opt.apply(opts);
      if (opts.action) return i;
      continue;
    }
    // The rest of the cluster is the argument, else the next word is.
    if (j + 1 < arg.length) {
      opt.apply(opts, arg.slice(j + 1));
      return i;
    }
    if (i + 1 >= argv.length) throw new UsageError(`option requires an argument -- '${arg[j]}'`);
    opt.apply(opts, argv[i + 1]);
    return i + 1;
  }
  return i;
}

module.exports = { parseArgs, UsageError };
