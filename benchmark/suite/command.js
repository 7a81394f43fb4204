'use strict';
// (h) command: the fast-hash command against sha256sum, as whole processes
// (start-up, loading, reading, hashing, printing and exit all counted):
//   tree      every regular file of npm's own package tree ($(npm root -g)/npm),
//             the same argument list (absolute paths, sorted walk order) to
//             both; where npm's tree cannot be found, the first 2,000 files of
//             this checkout's node_modules, and the table title says so
//   small     2,000 files of 1-16 KiB (sizes from a fixed seed); target
//             (issue 39): at most 1.0x sha256sum's wall time
//   large     8 files of 128 MiB, in the page cache, hashed in parallel
//             (-j, default the cores); target: at least 1.6x as fast as
//             sha256sum on the 2-core VM
//   big file  one file of 1 GiB (full runs only) under os.tmpdir(), in the
//             page cache (../cached-file.js), removed afterwards: where the
//             ratio goes for one file once Node's start-up no longer counts
// Each round runs `node bin/fast-hash.js`, sha256sum and `node -e 0` (the
// runtime's start-up alone, for scale) once each, in turn; wall times are
// min and median over the rounds, and `vs sha256sum` is the median of the
// rounds' own ratios (fast-hash's wall time / sha256sum's: below 1 is
// faster). The node is whichever runs the benchmark (process.execPath).
// Outputs are compared with sha256sum's before any timing.
//
// The node commands run without NODE_EXTRA_CA_CERTS (the line above the
// tables says when it was set): a default install has none, and Node 20
// parses the whole bundle at every start-up, which no sha256sum run pays.

const { execFileSync, spawnSync } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');

const BIN = path.join(__dirname, '..', '..', 'bin', 'fast-hash.js');
const { prepareFile, removeOnExit } = require('../cached-file');

const FULL = { treeRounds: 21, setRounds: 15, bigRounds: 7, bigMib: [1024] };
const QUICK = { treeRounds: 9, setRounds: 7, bigRounds: 3, bigMib: [] };

// ---- inputs -------------------------------------------------------------------
function walk(dir, into, limit) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (into.length >= limit) return into;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, into, limit);
    else if (entry.isFile()) into.push(full);
  }
  return into;
}

function npmTree() {
  try {
    const root = execFileSync('npm', ['root', '-g'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dir = path.join(root, 'npm');
    if (fs.statSync(dir).isDirectory()) return { files: walk(dir, [], Infinity), what: "npm's tree" };
  } catch {
    // no npm on PATH, or no global npm package: the fallback below
  }
  const dir = path.join(__dirname, '..', '..', 'node_modules');
  return { files: walk(dir, [], 2000), what: "this checkout's node_modules, npm's tree not found" };
}

// The sets, written under `dir`: 2,000 small files of 1 to
// `maxKib` KiB (sizes from a fixed seed; question (m) asks for 1-17 KiB),
// or 8 large ones read once so that they are in the page cache.
function smallFiles(dir, maxKib = 16) {
  const block = crypto.randomBytes(maxKib * 1024);
  let state = 42;
  return Array.from({ length: 2000 }, (_, i) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    const name = path.join(dir, `small-${i}`);
    fs.writeFileSync(name, block.subarray(0, 1024 + (state % ((maxKib - 1) * 1024 + 1))));
    return name;
  });
}

function largeFiles(dir) {
  const chunk = crypto.randomBytes(1 << 20);
  return Array.from({ length: 8 }, (_, i) => {
    const name = path.join(dir, `large-${i}`);
    const fd = fs.openSync(name, 'w');
    for (let m = 0; m < 128; m++) fs.writeSync(fd, chunk);
    fs.closeSync(fd);
    fs.readFileSync(name);
    return name;
  });
}

// ---- timing -------------------------------------------------------------------
const { NODE_EXTRA_CA_CERTS, ...NODE_ENV } = process.env;

function run({ command, args, env }) {
  const started = process.hrtime.bigint();
  const res = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30, env });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.error) throw res.error;
  if (res.status !== 0) throw new Error(`${command} exited with ${res.status}: ${res.stderr}`);
  return { ms, stdout: res.stdout };
}

const COMMANDS = (files) => [
  { name: 'fast-hash', command: process.execPath, args: [BIN, ...files], env: NODE_ENV },
  { name: 'sha256sum', command: 'sha256sum', args: files, env: process.env },
  { name: 'node -e 0', command: process.execPath, args: ['-e', '0'], env: NODE_ENV },
];

// Interleaved rounds after one warm-up round, which also checks that both
// commands print the same bytes.
function timeCommands(files, rounds) {
  const commands = COMMANDS(files);
  const [ours, theirs] = commands.slice(0, 2).map((c) => run(c).stdout);
  if (!ours.equals(theirs)) throw new Error('fast-hash and sha256sum printed different output');
  const times = commands.map(() => []);
  for (let r = 0; r < rounds; r++) commands.forEach((c, i) => times[i].push(run(c).ms));
  const ratios = times[0].map((ms, r) => ms / times[1][r]);
  return { names: commands.map((c) => c.name), times, ratio: median(ratios) };
}

const median = (values) => {
  const v = [...values].sort((a, b) => a - b);
  return v.length % 2 ? v[v.length >> 1] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};

// ---- report -------------------------------------------------------------------
function printTable(title, { names, times, ratio }) {
  console.log(`\n(h) ${title}`);
  console.log(`${'command'.padEnd(14)}${'min ms'.padStart(10)}${'median ms'.padStart(11)}`);
  names.forEach((name, i) => {
    console.log(`${name.padEnd(14)}${Math.min(...times[i]).toFixed(1).padStart(10)}` +
      `${median(times[i]).toFixed(1).padStart(11)}`);
  });
  console.log(`fast-hash / sha256sum wall time: ${ratio.toFixed(2)}x (median of ${times[0].length} rounds' ratios)`);
}

function row(kind, title, source, files, measured, mib) {
  const peers = {};
  measured.names.forEach((name, i) => {
    peers[name] = { minMs: Math.min(...measured.times[i]), medianMs: median(measured.times[i]), rounds: measured.times[i].length };
  });
  return { question: 'h', table: title, kind, source, files: files.length, mib, ratio: measured.ratio, peers };
}

async function runQuestion(opts) {
  const plan = opts.quick ? QUICK : FULL;
  if (spawnSync('sha256sum', ['--version']).error) {
    console.log('\n(h) command: skipped, no sha256sum on PATH');
    return [];
  }
  const caCerts = NODE_EXTRA_CA_CERTS === undefined ? '' :
    '; NODE_EXTRA_CA_CERTS is set here and left out of the node commands (Node 20 parses it at every start-up)';
  console.log(`\n(h) node: ${process.execPath} (${process.version})${caCerts}`);
  const tree = npmTree();
  const treeTitle = `command, sha256 of ${tree.files.length.toLocaleString('en-US')} files (${tree.what})`;
  const rows = [];
  const treeTimes = timeCommands(tree.files, plan.treeRounds);
  printTable(treeTitle, treeTimes);
  rows.push(row('tree', treeTitle, tree.what, tree.files, treeTimes));

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-hash-command-'));
  try {
    rows.push(setRow('small', '2,000 files of 1-16 KiB', smallFiles(dir), plan.setRounds, 1.0));
    rows.push(setRow('large', '8 files of 128 MiB (page cache)', largeFiles(dir), Math.ceil(plan.setRounds / 3), 1 / 1.6));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  for (const mib of plan.bigMib) rows.push(bigFileRow(mib, plan.bigRounds));
  return rows;
}

// A set of files with its target: fast-hash / sha256sum at most `target`.
function setRow(kind, what, files, rounds, target) {
  const title = `command, sha256 of ${what}`;
  const times = timeCommands(files, rounds);
  printTable(title, times);
  const met = times.ratio <= target;
  console.log(`target: at most ${target.toFixed(2)}x sha256sum's wall time: ${met ? 'met' : 'NOT met'}`);
  return { ...row(kind, title, what, files, times), target, met };
}

function bigFileRow(mib, rounds) {
  const { file } = prepareFile(mib);
  const remove = removeOnExit(file);
  try {
    const title = `command, sha256 of one ${mib} MiB file (page cache)`;
    const times = timeCommands([file], rounds);
    printTable(title, times);
    return row('big', title, 'one file', [file], times, mib);
  } finally {
    remove();
  }
}

function headlines(rows) {
  return rows.map((r) => (r.target !== undefined ?
    `command on ${r.source}: ${r.ratio.toFixed(2)}x sha256sum's wall time (median; ` +
      `${(1 / r.ratio).toFixed(2)}x as fast; target at most ${r.target.toFixed(2)}x: ${r.met ? 'met' : 'NOT met'})` :
    r.kind === 'tree' ?
      `command on ${r.files.toLocaleString('en-US')} files (${r.source}): ` +
      `${r.ratio.toFixed(2)}x sha256sum's wall time (median)` :
      `command on one ${r.mib} MiB file: ${(1 / r.ratio).toFixed(2)}x faster than sha256sum (median)`));
}

module.exports = {
  id: 'h', name: 'command', algs: ['sha256'], run: runQuestion, headlines,
  // For question (m), which times the command of another checkout too.
  helpers: { run, smallFiles, NODE_ENV },
};
