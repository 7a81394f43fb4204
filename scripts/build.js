'use strict';
// The install step. A prebuilt binary that loads here is used as it is;
// otherwise (none for this platform, or one that fails to load, e.g. built
// for another libc) the addon is compiled with node-gyp. node-gyp is not a
// dependency (it would add about a hundred packages to every install): the
// compile uses the node-gyp npm ships, as npm does for a package that has a
// binding.gyp and no install script (see findNodeGyp). When the running
// Node's own headers sit beside it (<prefix>/include/node, with Node's
// OpenSSL headers) and match process.version, node-gyp is pointed at them
// with --nodedir, so compiling needs no network; otherwise node-gyp does what
// it always does (download them).
//
// An install never fails because of the addon: the library runs on its
// JavaScript implementation wherever the addon does not load. So when this
// package is installed as a dependency, however it is installed (see
// isCheckout), and compiling fails for any reason, node-gyp's output goes to
// LOG_NAME in the package, one line says what failed and how to build the
// addon later, and the script exits 0. A build someone asked for fails
// loudly instead, with node-gyp's output on the terminal: --force
// (npm run build), FAST_HASH_FORCE_BUILD=1, or the install of the package's
// own development checkout (npm ci in a clone), where a compile error is the
// developer's to see.
//
//   node scripts/build.js           install: use a prebuild if one loads
//   node scripts/build.js --force   always compile (also FAST_HASH_FORCE_BUILD=1)
//   FAST_HASH_BUILD_VERBOSE=1       node-gyp's output on the terminal too
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const util = require('util');

const root = path.join(__dirname, '..');

function localNodeDir() {
  const prefix = path.resolve(path.dirname(process.execPath), '..');
  const include = path.join(prefix, 'include', 'node');
  const needed = ['node_api.h', 'common.gypi', path.join('openssl', 'evp.h')];
  if (!needed.every((f) => fs.existsSync(path.join(include, f)))) return null;
  let header;
  try {
    header = fs.readFileSync(path.join(include, 'node_version.h'), 'latin1');
  } catch {
    return null;
  }
  const part = (name) => (header.match(new RegExp(`#define ${name} (\\d+)`)) || [])[1];
  const version = `v${part('NODE_MAJOR_VERSION')}.${part('NODE_MINOR_VERSION')}.${part('NODE_PATCH_VERSION')}`;
  return version === process.version ? prefix : null;
}

// What was thrown, in one line (why a binary did not load, why the build
// could not run). A loader may throw anything: an Error with no message, a
// string, null; none of them may stop the install.
function errorLine(err) {
  let line = '';
  try {
    const text = err instanceof Error ? err.message || err.code : err;
    line = String(text ?? '').split(/\r?\n/)[0].trim();
  } catch {
    // a value with no string form: named below
  }
  return line || 'an error with no message';
}

// The binary node-gyp-build would load, if it loads; else why not.
function loadableBinary() {
  let file;
  try {
    file = require('node-gyp-build').path(root);
  } catch {
    return { file: null };
  }
  try {
    require(file);
    return { file };
  } catch (err) {
    return { file: null, broken: file, reason: errorLine(err) };
  }
}

// The node-gyp to compile with, first found of:
//   1. npm_config_node_gyp: npm sets it for every lifecycle script to its
//      `node-gyp` setting, which defaults to the node-gyp npm ships (so a
//      user's own choice of node-gyp is honoured too);
//   2. the node-gyp beside the npm running this script (npm_execpath),
//      which need not be the npm installed with this Node;
//   3. the node-gyp of the npm installed with this Node
//      (<prefix>/lib/node_modules/npm, or <prefix>/node_modules/npm on
//      Windows), for `node scripts/build.js` run by hand;
//   4. a node-gyp this package can require, i.e. the devDependency in a
//      development checkout.
// Returns { file, from } or null.
function findNodeGyp() {
  const bin = (npmDir) => path.join(npmDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  const prefix = path.resolve(path.dirname(process.execPath), '..');
  const candidates = [];
  if (process.env.npm_config_node_gyp) {
    candidates.push({ file: process.env.npm_config_node_gyp, from: 'npm_config_node_gyp' });
  }
  if (process.env.npm_execpath) {
    candidates.push({ file: bin(path.join(path.dirname(process.env.npm_execpath), '..')), from: 'npm_execpath' });
  }
  candidates.push({ file: bin(path.join(prefix, 'lib', 'node_modules', 'npm')), from: "this Node's npm" });
  candidates.push({ file: bin(path.join(path.dirname(process.execPath), 'node_modules', 'npm')), from: "this Node's npm" });
  const found = candidates.find((c) => fs.existsSync(c.file));
  if (found) return { file: path.resolve(found.file), from: found.from };
  try {
    return { file: require.resolve('node-gyp/bin/node-gyp.js', { paths: [root] }), from: 'require.resolve' };
  } catch {
    return null;
  }
}

function nodeGypVersion(file) {
  try {
    return JSON.parse(fs.readFileSync(path.join(path.dirname(file), '..', 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown version';
  }
}

// The log of a quiet compile, in the package's root (node-gyp rebuild
// empties build/ when it starts).
const LOG_NAME = 'fast-hash-build.log';

// A quiet compile that has not ended by then has failed: node-gyp waiting
// for headers from an unreachable server must not hold an install forever.
const QUIET_LIMIT_MS = 10 * 60 * 1000;

// Runs node-gyp rebuild. loud: its output on the terminal, a failure thrown
// as the exit status; else its output in `log` (a file descriptor), with the
// lines this script would have printed. Returns { status, problem }.
function runNodeGyp(loud, log) {
  const say = loud ? (line) => console.log(line) : (line) => fs.writeSync(log, `${line}\n`);
  const gyp = findNodeGyp();
  if (!gyp) {
    return { status: 1, problem: 'no node-gyp found (none at npm_config_node_gyp, beside the running npm ' +
      "or in this Node's npm)" };
  }
  say(`fast-hash: node-gyp ${nodeGypVersion(gyp.file)} at ${gyp.file} (from ${gyp.from})`);
  const args = [gyp.file, 'rebuild'];
  const nodedir = localNodeDir();
  if (nodedir) {
    args.push(`--nodedir=${nodedir}`);
    say(`fast-hash: compiling against the headers of ${process.version} in ${nodedir}`);
  } else {
    say('fast-hash: compiling; no matching local Node headers, node-gyp will fetch them');
  }
  const stdio = loud ? 'inherit' : ['ignore', log, log];
  const res = spawnSync(process.execPath, args, {
    stdio, cwd: root, timeout: loud ? undefined : QUIET_LIMIT_MS, killSignal: 'SIGKILL',
  });
  if (res.error && res.error.code === 'ETIMEDOUT') {
    return { status: 1, problem: `node-gyp did not finish in ${QUIET_LIMIT_MS / 60000} minutes` };
  }
  if (res.error) return { status: 1, problem: `node-gyp could not be started: ${res.error.message}` };
  // A signal leaves no exit status: the build was cut off, whatever its log says.
  if (res.status === null) return { status: 1, problem: `node-gyp was killed by ${res.signal || 'a signal'}` };
  return { status: res.status, problem: null };
}

// The one line of a failed build's log that says why: the compiler's first
// error, else a tool the build could not find (make's or the shell's word,
// or the exception gyp's Python died of), else node-gyp's own error, else
// its last complaint.
function whyFailed(text) {
  const lines = text.split(/\r?\n/);
  const first = (re) => lines.find((line) => re.test(line));
  const compiler = first(/(^|\s)(fatal )?error( [A-Z]+\d+)?:/);
  const missing = first(/^(make|\/bin\/sh|sh)\b.*(: not found|No such file or directory)/);
  const python = lines.filter((line) => /^[A-Z]\w*(Error|Exception): /.test(line)).pop();
  const stack = first(/^gyp ERR! stack Error: /);
  const found = compiler || missing || python || (stack && stack.replace(/^gyp ERR! stack Error: /, '')) ||
    lines.filter((line) => /^gyp ERR! /.test(line)).pop() || 'node-gyp failed';
  const line = found.trim().replace(/\s+/g, ' ');
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

// What node-gyp needs on each platform, as the notice names it.
const TOOLS = {
  win32: "Visual Studio's C++ build tools and Python 3",
  darwin: "Xcode's command-line tools (xcode-select --install)",
};

// The notice of an install that goes on without the addon: one line, which
// also names the prebuild that did not load (`broken`), if one did not.
function notice(problem, logFile, broken) {
  const tools = TOOLS[process.platform] || 'a C compiler, make and Python 3';
  return `fast-hash: the addon was not built (${problem}); ${broken ? `${broken}; ` : ''}` +
    'using the JavaScript implementation (same results, slower). ' +
    `To get the addon, install ${tools}, then run \`npm rebuild fast-hash\`.${logFile ? ` Log: ${logFile}` : ''}`;
}

// A compile that may fail: node-gyp's output in the log file, and one line
// on the terminal whatever happens. That line alone names the prebuild that
// did not load (`broken`), if one did not: in the log, its reason could pass
// for the compiler's error in whyFailed. Always 0.
function compileQuietly(broken) {
  const logFile = path.join(root, LOG_NAME);
  const verbose = process.env.FAST_HASH_BUILD_VERBOSE === '1';
  let log = null;
  let result;
  try {
    if (!verbose) log = fs.openSync(logFile, 'w');
    result = runNodeGyp(verbose, log);
  } catch (err) {
    result = { status: 1, problem: `the build could not be run: ${errorLine(err)}` };
  } finally {
    if (log !== null) fs.closeSync(log);
  }
  const text = log === null ? '' : fs.readFileSync(logFile, 'utf8');
  let problem = result.problem || (result.status !== 0 ? whyFailed(text) : null);
  if (!problem) {
    const built = loadableBinary();
    if (!built.file) problem = `it compiled but does not load here: ${built.broken ? built.reason : 'no binary was written'}`;
  }
  if (problem) {
    console.log(notice(problem, log === null ? null : logFile, broken));
  } else {
    console.log(`fast-hash: compiled ${path.relative(root, loadableBinary().file)}${broken ? `; ${broken}` : ''}` +
      `${log === null ? '' : ` (log: ${logFile})`}`);
  }
  return 0;
}

// A compile someone asked for: node-gyp's output on the terminal, and its
// failure this script's.
function compileLoudly(why) {
  if (why) console.log(why);
  const result = runNodeGyp(true, null);
  if (result.problem) console.error(`fast-hash: cannot compile: ${result.problem}`);
  return result.status;
}

function realPath(dir) {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

// Whether this run installs the package's own development checkout, the one
// install where a compile error is the developer's to see. Every other
// install is a dependency's, and quiet, however it is made:
//   - from a registry or a tarball: the package sits in a node_modules
//     folder, scoped or not, hoisted or nested, or in pnpm's or npm's store;
//   - from a folder, a link or a workspace: the package manager runs this
//     script in the real folder, outside node_modules, so what tells is that
//     the project it installs (npm_config_local_prefix, which npm sets to
//     the workspace root in a workspace; else INIT_CWD, which npm, pnpm and
//     Yarn set) is another folder;
//   - from git: npm prepares its clone with a nested `npm install` in its
//     cache (_cacache/tmp), where the clone is the project, and marks that
//     install's environment with _PACOTE_NO_PREPARE_.
// Under a package manager that names no project, the run is quiet. Run by
// hand (`node scripts/build.js`: no npm_lifecycle_event), a folder outside
// node_modules is a checkout.
function isCheckout(env = process.env, dir = root) {
  const real = realPath(dir);
  if (real.split(/[\\/]+/).some((part) => /^(node_modules|_cacache)$/i.test(part))) return false;
  if (env._PACOTE_NO_PREPARE_) return false;
  if (!env.npm_lifecycle_event) return true;
  const project = env.npm_config_local_prefix || env.INIT_CWD;
  return Boolean(project) && path.relative(realPath(project), real) === '';
}

// Whether the arguments ask for a build (--force). This is the install
// script, and an install must not fail over its arguments, so the parse is
// not strict: an unknown option, a positional or a value given to --force
// is no error, only not --force. To mean exactly "--force is one of the
// arguments", the test is on the tokens: a bare --force, or a --force after
// the `--` terminator, counts; --force=x does not, whatever comes after it.
function forceAsked(argv) {
  const { tokens } = util.parseArgs({ args: argv, options: { force: { type: 'boolean' } }, strict: false, tokens: true });
  return tokens.some((t) => (t.kind === 'option' && t.rawName === '--force' && !t.inlineValue) ||
    (t.kind === 'positional' && t.value === '--force'));
}

function main() {
  const force = forceAsked(process.argv.slice(2)) || process.env.FAST_HASH_FORCE_BUILD === '1';
  const found = force ? {} : loadableBinary();
  if (found.file) {
    console.log(`fast-hash: using ${path.relative(root, found.file)}`);
    return 0;
  }
  const broken = found.broken ? `${path.relative(root, found.broken)} does not load here (${found.reason})` : null;
  if (force || isCheckout()) return compileLoudly(broken && `fast-hash: ${broken}; compiling from source instead`);
  return compileQuietly(broken);
}

if (require.main === module) process.exitCode = main();
module.exports = { localNodeDir, findNodeGyp, whyFailed, forceAsked, errorLine, isCheckout };
