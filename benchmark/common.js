'use strict';
// Measurement harness shared by the benchmarks in this directory. A script
// supplies its peers and its grid; this file parses the options, checks
// results, times the peers interleaved, prints the tables and writes --json.
//
// A peer is { name, loop(c, n) } where loop makes n calls on cell c and
// returns a number derived from the results. Each peer has its own loop
// rather than one shared loop calling a function value, so every call site
// stays monomorphic and no peer pays for another's type feedback.

const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const util = require('util');

// ---- options ------------------------------------------------------------------
// `lists` adds the script's own list options, checked against their allowed
// values: { input: { what: 'input type', values: ['buffer', 'string'] } }
// makes --input buffer,string (the defaults come from `full` / `quick`).
// `numbers` adds single positive-number options ({ 'size-mib': 'N' } makes
// --size-mib N, stored as opts.sizeMib), `flags` value-less switches (opts.keep
// for 'keep', false unless given), and `omit` drops shared options that mean
// nothing to the script (e.g. 'batch-ms' for one-run-per-round benchmarks).
const SHARED = [['alg', 'a,b'], ['size', 'n,m'], ['rounds', 'R'], ['batch-ms', 'ms'], ['warmup-ms', 'ms']];
const camel = (k) => k.replace(/-(\w)/g, (_, c) => c.toUpperCase());

function parseArgs(argv, { script, full, quick, lists = {}, numbers = {}, flags = [], omit = [] }) {
  const shared = (names) => SHARED.filter(([k]) => names.includes(k) && !omit.includes(k))
    .map(([k, v]) => `[--${k} ${v}] `).join('');
  const extra = Object.entries(lists).map(([k, l]) => `[--${k} ${l.values.join(',')}] `).join('') +
    Object.entries(numbers).map(([k, v]) => `[--${k} ${v}] `).join('') + flags.map((k) => `[--${k}] `).join('');
  const usage = (msg) => {
    console.error(`${msg}\nusage: node benchmark/${script} [--quick] ${shared(['alg', 'size'])}` +
      `${extra}${shared(['rounds', 'batch-ms', 'warmup-ms'])}[--json file]`);
    process.exit(2);
  };
  const valued = [...SHARED.map(([k]) => k).filter((k) => !omit.includes(k)), 'json',
    ...Object.keys(numbers), ...Object.keys(lists)];
  let values;
  try {
    ({ values } = util.parseArgs({
      args: argv,
      options: Object.fromEntries([
        ['quick', { type: 'boolean' }],
        ...flags.map((k) => [k, { type: 'boolean' }]),
        ...valued.map((k) => [k, { type: 'string' }]),
      ]),
    }));
  } catch (err) {
    usage(err.message);
  }
  const opts = { ...(values.quick ? quick : full), quick: Boolean(values.quick) };
  for (const k of flags) opts[camel(k)] = Boolean(values[k]);
  const list = (v) => v.split(',').map((s) => s.trim()).filter(Boolean);
  const num = (flag, v) => {
    const n = Number(v);
    if (!(n > 0)) usage(`${flag} needs a positive number, got ${v}`);
    return n;
  };
  for (const [key, v] of Object.entries(values)) {
    const flag = `--${key}`;
    switch (key) {
      case 'quick': break;
      case 'alg': opts.alg = list(v); break;
      case 'size': opts.size = list(v).map((s) => Math.round(num(flag, s))); break;
      case 'rounds': opts.rounds = Math.round(num(flag, v)); break;
      case 'batch-ms': opts.batchMs = num(flag, v); break;
      case 'warmup-ms': opts.warmupMs = num(flag, v); break;
      case 'json': opts.json = v; break;
      default:
        if (flags.includes(key)) break;
        if (Object.hasOwn(numbers, key)) { opts[camel(key)] = num(flag, v); break; }
        opts[key] = list(v);
    }
  }
  for (const [key, l] of Object.entries(lists)) {
    for (const x of opts[key]) if (!l.values.includes(x)) usage(`unknown ${l.what} ${x}`);
  }
  for (const a of opts.alg || []) if (!crypto.getHashes().includes(a)) usage(`unknown algorithm ${a}`);
  return opts;
}

// ---- result checking ----------------------------------------------------------
// A wrong result is the one thing that fails a benchmark (exit 1): timing a
// peer that computes something else would make its numbers meaningless.
function checkResult(name, where, got, expected) {
  const ok = Buffer.isBuffer(expected) ? Buffer.isBuffer(got) && got.equals(expected) : got === expected;
  if (ok) return;
  const show = (x) => (Buffer.isBuffer(x) ? x.toString('hex') + ' (Buffer)' : JSON.stringify(x));
  console.error(`RESULT CHECK FAILED: ${name} on ${where}\n  got      ${show(got)}\n  expected ${show(expected)}`);
  process.exit(1);
}

// ---- measurement --------------------------------------------------------------
// Cheap digest of a string or Buffer result, for peers' loops to fold in.
const tag = (r) => r.length ^ (typeof r === 'string' ? r.charCodeAt(0) : r[0]);
let sink = 0; // loop results feed this, so no call can be optimised away

function timeBatch(p, c, n) {
  const t0 = process.hrtime.bigint();
  sink ^= p.loop(c, n);
  return Number(process.hrtime.bigint() - t0);
}

// Warm-up doubles as calibration: grow the batch until the warm-up time is
// spent, then size the timed batch from the last (warmest) estimate.
function warmUp(p, c, warmupMs, batchMs) {
  let n = 1, spent = 0, nsPerOp = 0;
  while (spent < warmupMs * 1e6) {
    const ns = timeBatch(p, c, n);
    spent += ns;
    nsPerOp = ns / n;
    if (ns < 10e6) n *= 2;
  }
  return Math.max(1, Math.round((batchMs * 1e6) / nsPerOp));
}

// Times every peer on cell c; returns { [name]: { bestNs, medianNs, ... } }.
// Best is the headline figure (least disturbed by the shared, noisy cores);
// the median is printed next to it to show how much noise there was.
function measure(peers, c, { rounds, batchMs, warmupMs }) {
  const batch = peers.map((p) => warmUp(p, c, warmupMs, batchMs));
  const samples = peers.map(() => []);
  // Rotate the order each round (A B C, B C A, ...) so drift and
  // after-effects (GC, frequency changes) do not always hit the same peer.
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < peers.length; k++) {
      const i = (k + r) % peers.length;
      samples[i].push(timeBatch(peers[i], c, batch[i]) / batch[i]);
    }
  }
  const out = {};
  peers.forEach((p, i) => {
    const sorted = [...samples[i]].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    out[p.name] = {
      bestNs: sorted[0], medianNs: median, opsPerSec: 1e9 / sorted[0], batch: batch[i], samplesNs: samples[i],
    };
  });
  return out;
}

// Like warmUp(), but sizes the timed batch from the fastest warm-up batch
// rather than the last: one descheduled batch must not shrink the timed
// batches to a few calls, where the timer's own cost shows. (Cold code and
// tiny batches only read slower, never faster.)
function warmUpBest(p, c, warmupMs, batchMs) {
  let n = 1, spent = 0, best = Infinity;
  while (spent < warmupMs * 1e6) {
    const ns = timeBatch(p, c, n);
    spent += ns;
    best = Math.min(best, ns / n);
    if (ns < 10e6) n *= 2;
  }
  return Math.max(1, Math.round((batchMs * 1e6) / best));
}

// Many short batches within a time budget, for benchmark/run.js. On shared,
// loaded cores a batch of tens of ms is seldom run without the process being
// descheduled, while one of a millisecond or two often is: the best of many
// short batches is the undisturbed cost, and interleaving them finely keeps
// every peer under the same load. Rounds go on (rotated as in measure())
// until budgetMs is spent, at least minRounds, at most maxRounds. Same result
// shape as measure(), plus quartiles and the round count.
function measureBudget(peers, c, { budgetMs, batchMs, warmupMs, minRounds = 5, maxRounds = 100000 }) {
  const batch = peers.map((p) => warmUpBest(p, c, warmupMs, batchMs));
  const samples = peers.map(() => []);
  const start = process.hrtime.bigint(), budget = BigInt(Math.round(budgetMs * 1e6));
  let r = 0;
  for (; r < maxRounds && (r < minRounds || process.hrtime.bigint() - start < budget); r++) {
    for (let k = 0; k < peers.length; k++) {
      const i = (k + r) % peers.length;
      samples[i].push(timeBatch(peers[i], c, batch[i]) / batch[i]);
    }
  }
  const out = {};
  peers.forEach((p, i) => {
    const s = summarize(samples[i]);
    const sorted = [...samples[i]].sort((a, b) => a - b), at = (q) => sorted[Math.floor(q * (sorted.length - 1))];
    out[p.name] = { ...s, p25Ns: at(0.25), p75Ns: at(0.75), opsPerSec: 1e9 / s.bestNs, batch: batch[i], rounds: r };
  });
  return out;
}

// For peers whose every call is a whole run (async calls, seconds-long jobs):
// each round calls every peer's run(c) once, awaited and timed, in the same
// rotated order as measure(). No warm-up here: the caller's result check
// (one run per peer) is the warm-up. Same result shape as measure().
async function measureRuns(peers, c, rounds) {
  const samples = peers.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < peers.length; k++) {
      const i = (k + r) % peers.length;
      const t0 = process.hrtime.bigint();
      const result = await peers[i].run(c);
      samples[i].push(Number(process.hrtime.bigint() - t0));
      // Summed, not xor-ed: the same digest every round would cancel out.
      if (result != null && result.length) sink = (sink + tag(result)) | 0;
    }
  }
  const out = {};
  peers.forEach((p, i) => { out[p.name] = summarize(samples[i]); });
  return out;
}

// Best and median of a list of samples (kept too, for --json).
function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { bestNs: sorted[0], medianNs: median, samplesNs: samples };
}

// Peer best / fast best: above 1 means `fast` is faster. null if either is missing.
function ratio(res, fast, peer) {
  const f = res.peers[fast], p = res.peers[peer];
  return f && p ? p.bestNs / f.bestNs : null;
}
const fmtRatio = (x) => (x === null ? 'n/a' : `${x.toFixed(2)}x`);
const fmtNs = (ns) => (ns < 10000 ? ns.toFixed(1) : ns.toFixed(0));

// ---- report -------------------------------------------------------------------
// Bun and Deno report Node and V8 versions too (the ones they are
// compatible with): the runtime and its crypto library are named, so a Bun
// run does not read as a Node one.
function envInfo() {
  const cpus = os.cpus();
  const v = process.versions;
  const runtime = v.bun ? `Bun ${v.bun}` : v.deno ? `Deno ${v.deno}` : `Node ${process.version}`;
  const cryptoLib = v.boringssl ? `BoringSSL ${v.boringssl.slice(0, 12)}` : `OpenSSL ${v.openssl}`;
  return { runtime, node: process.version, v8: v.v8, openssl: v.openssl, crypto: cryptoLib,
    cpu: cpus.length ? cpus[0].model : 'unknown', cores: cpus.length };
}

const printEnv = (env) => console.log(env.runtime.startsWith('Node') ?
  `${env.runtime}, V8 ${env.v8}, ${env.crypto}, CPU ${env.cpu} x ${env.cores} cores` :
  `${env.runtime} (as Node ${env.node}), ${env.crypto}, CPU ${env.cpu} x ${env.cores} cores`);

function printHeader(env, opts, names) {
  printEnv(env);
  console.log(`rounds ${opts.rounds}, batches ~${opts.batchMs} ms, warm-up ${opts.warmupMs} ms per peer per cell; ` +
    `peers: ${names.join(', ')}`);
}

// One row per result: each named peer's best (median), then one column per
// ratio { label, fast, peer }. Columns are 17 wide, wider if the label needs it.
function printTable(title, rows, names, ratios) {
  const heads = [...names, ...ratios.map((x) => x.label)];
  const widths = heads.map((h) => Math.max(17, h.length + 2));
  console.log(`\n${title}   (best ns/op, median in parentheses)`);
  console.log('    size' + heads.map((h, j) => h.padStart(widths[j])).join(''));
  for (const r of rows) {
    const cells = names.map((n) => `${fmtNs(r.peers[n].bestNs)} (${fmtNs(r.peers[n].medianNs)})`);
    cells.push(...ratios.map((x) => fmtRatio(ratio(r, x.fast, x.peer))));
    console.log(`${r.size}B`.padStart(8) + cells.map((s, j) => s.padStart(widths[j])).join(''));
  }
}

// Writes --json if asked and prints the "done" line; the caller prints its
// headline lines after this, so they are the last lines of the output.
function finish({ env, opts, started, results, headline }) {
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  if (opts.json) {
    const out = { env, options: opts, elapsedSec: elapsed, results, headline, sink };
    fs.writeFileSync(opts.json, JSON.stringify(out, null, 2));
  }
  console.log(`\ndone in ${elapsed.toFixed(1)} s${opts.json ? `, JSON written to ${opts.json}` : ''} (sink ${sink})\n`);
}

module.exports = {
  parseArgs, checkResult, tag, measure, measureRuns, summarize, ratio, fmtRatio, envInfo, printEnv, printHeader,
  printTable, finish,
  // for run.js
  measureBudget, fmtNs,
};
