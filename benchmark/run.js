'use strict';
// The benchmark suite (`npm run bench`): fast-hash against node:crypto,
// hash-wasm and @noble/hashes, and against the ceiling (the digest alone),
// question by question:
//   (a) digests    sha256, sha512, md5, sha1, sha3-256, blake2b512: Buffer in, hex out
//   (b) strings    ASCII and non-ASCII string input (sha256)
//   (c) outputs    'buffer', base64, base64url output (sha256)
//   (d) hmac       hmac() and HmacKey#digest vs createHmac (sha256, sha512)
//   (e) many       hashMany vs a hash() loop (sha256)
// and the standalone questions (g) to (m), suite/standalone.js; (j) runtime
// runs under any runtime: fast-hash vs its own call for the same work; (m)
// executor (every kind of job at once, each figure beside its target) also
// runs alone, against any checkout: node benchmark/executor.js --impl DIR.
// Every peer's result is checked against node:crypto before it is timed.
// Prints a table per question, then headline lines; writes JSON and an SVG
// chart to benchmark/results/ (and benchmark/chart.svg after a full run).
//
// fast-hash is whichever implementation lib/binding/index.js picks:
// FAST_HASH_IMPLEMENTATION=js measures the JavaScript one (over node:crypto)
// against the same peers and the native addon's ceiling. The header, every
// table title, the headlines and the JSON say which was measured.
//
// Then (unless filtered, or with --no-alloc) the native allocations per call
// (benchmark/alloc, the same table as `npm run bench:alloc`; skipped, with a
// line saying so, when fast-hash is not the native addon).
//
// Usage: node benchmark/run.js [--quick] [--question a,b | digests,strings,...]
//          [--alg sha256,md5] [--size 16,64,1KiB,1MiB] [--budget-ms 1200] [--warmup-ms 100]
//          [--no-alloc]
// A benchmark, not a test: it never fails on speed, only on a wrong result.

const fs = require('fs');
const path = require('path');
const util = require('util');
const bench = require('./common');
const { loadLibs, IMPLEMENTATION, LABEL } = require('./suite/peers');
const { QUESTIONS, ALGS, SIZES, HAS_CRYPTO_HASH } = require('./suite/questions');
const report = require('./suite/report');
const { chart } = require('./svg');
const alloc = require('./alloc/run');

// Full: 1.2 s of interleaved 2 ms batches per cell (about 100 per peer; at
// least 15 rounds where a call takes milliseconds). Quick: a third of the
// time, every size of the digest question and 64 B for the others (run
// times: benchmark/README.md).
const FULL = { budgetMs: 1200, batchMs: 2, warmupMs: 100, minRounds: 15, sizes: () => SIZES };
const QUICK = {
  budgetMs: 400, batchMs: 2, warmupMs: 50, minRounds: 10, sizes: (q) => (q.id === 'a' ? SIZES : q.quickSizes || [64]),
};

// ---- options ------------------------------------------------------------------
function usage(msg) {
  const names = QUESTIONS.map((q) => q.name).join(',');
  console.error(`${msg}\nusage: node benchmark/run.js [--quick] [--question a,b,...|${names}] [--alg a,b]` +
    ' [--size 16,64,1KiB,1MiB] [--budget-ms N] [--warmup-ms N] [--no-alloc]');
  process.exit(2);
}
const parseSize = (s) => {
  const m = /^(\d+)\s*(k|kib|m|mib|b)?$/i.exec(s);
  if (!m || +m[1] <= 0) usage(`bad size ${s}`);
  return +m[1] * ({ k: 1024, kib: 1024, m: 1 << 20, mib: 1 << 20 }[(m[2] || '').toLowerCase()] || 1);
};
function parseArgs(argv) {
  let values;
  try {
    ({ values } = util.parseArgs({
      args: argv,
      options: {
        quick: { type: 'boolean' }, 'no-alloc': { type: 'boolean' },
        question: { type: 'string' }, alg: { type: 'string' }, size: { type: 'string' },
        'budget-ms': { type: 'string' }, 'warmup-ms': { type: 'string' },
      },
    }));
  } catch (err) {
    usage(err.message);
  }
  const opts = {
    ...(values.quick ? QUICK : FULL), quick: Boolean(values.quick), alloc: !values['no-alloc'],
    filtered: false,
  };
  const list = (v) => v.split(',').map((s) => s.trim()).filter(Boolean);
  for (const [key, v] of Object.entries(values)) {
    const flag = `--${key}`;
    if (flag === '--quick' || flag === '--no-alloc') continue;
    if (flag === '--question') {
      const find = (x) => QUESTIONS.find((q) => q.id === x || q.name === x) || usage(`unknown question ${x}`);
      opts.questions = list(v).map(find);
    } else if (flag === '--alg') {
      opts.algs = list(v);
      for (const a of opts.algs) if (!ALGS.includes(a)) usage(`unknown algorithm ${a} (one of ${ALGS.join(', ')})`);
    } else if (flag === '--size') opts.size = list(v).map(parseSize);
    else if (flag === '--budget-ms' || flag === '--warmup-ms') {
      if (!(+v > 0)) usage(`${flag} needs a positive number`);
      opts[flag === '--budget-ms' ? 'budgetMs' : 'warmupMs'] = +v;
    } else usage(`unknown option ${flag}`);
    if (flag === '--question' || flag === '--alg' || flag === '--size') opts.filtered = true;
  }
  return opts;
}

// ---- one cell -------------------------------------------------------------------
// hash-wasm and noble give a Uint8Array for raw output: compare its bytes.
// fast-hash and node:crypto must give a real Buffer.
function check(p, where, got, expected) {
  if ((p.name === 'hash-wasm' || p.name === 'noble') && got instanceof Uint8Array && !Buffer.isBuffer(got)) {
    got = Buffer.from(got.buffer, got.byteOffset, got.byteLength);
  }
  if (Array.isArray(expected)) {
    bench.checkResult(`${p.name} (length)`, where, got.length, expected.length);
    got.forEach((r, i) => bench.checkResult(`${p.name} [${i}]`, where, r, expected[i]));
  } else bench.checkResult(p.name, where, got, expected);
}

async function cell(libs, q, table, alg, size, opts) {
  const row = await table.row(libs, size);
  const where = `(${q.id}) ${table.title}, ${report.fmtSize(size)}`;
  for (const p of row.peers) if (!p.native) check(p, where, p.one(), 'expected' in p ? p.expected : row.expected);
  const m = bench.measureBudget(row.peers, {}, opts);
  // Peers timed in another runtime, with the same budget (after this
  // process's own peers, so the two never share the cores).
  for (const e of row.external || []) {
    const r = e.measure(opts);
    if (r) m[e.name] = r;
  }
  if (row.cleanup) row.cleanup();
  // One op of a hashMany cell is a whole list: divide down to items. Raw
  // samples stay out of the JSON (quartiles are kept).
  const k = row.perOp || 1, peers = {};
  for (const [name, r] of Object.entries(m)) {
    peers[name] = { bestNs: r.bestNs / k, medianNs: r.medianNs / k, p25Ns: r.p25Ns / k, p75Ns: r.p75Ns / k,
      rounds: r.rounds, batch: r.batch };
  }
  return { question: q.id, table: table.title, alg, enc: table.enc || 'hex', size, bytes: row.bytes, perOp: k, peers };
}

// ---- implementation -------------------------------------------------------------
// One line: which implementation fast-hash ran and why, and where the
// ceiling comes from.
function describeImplementation({ fastHash, requested, ceiling, ceilingMissing }) {
  const why = requested ? `FAST_HASH_IMPLEMENTATION=${requested}` :
    fastHash === 'native' ? 'the default' : 'the fallback where the addon does not load';
  const what = fastHash === 'native' ? 'the C addon' : "over the runtime's node:crypto";
  const ceil = ceiling ? `ceiling: the ${ceiling}` : `no ceiling column (the addon cannot load: ${ceilingMissing})`;
  return `${LABEL}, ${what}, ${why}; ${ceil}`;
}

// ---- chart --------------------------------------------------------------------
// Question (a), one panel per algorithm: each implementation's speed-up over
// crypto.hash (createHash on a Node without it), by input size.
function chartSpec(results, env, libs) {
  const base = HAS_CRYPTO_HASH ? 'crypto.hash' : 'createHash';
  const rows = results.filter((r) => r.question === 'a');
  const algs = [...new Set(rows.map((r) => r.alg))];
  const names = ['fast-hash', 'crypto.hash', 'createHash', 'hash-wasm', 'noble', 'ceiling'];
  const label = (name) => (name === 'ceiling' ? 'ceiling (digest alone)' :
    name === 'fast-hash' && IMPLEMENTATION.fastHash !== 'native' ? LABEL : name);
  return {
    title: `Speed-up over ${base}, Buffer input, hex output (higher is faster)`,
    subtitle: `${LABEL}; ${env.runtime}, ${env.crypto}, ${env.cpu} x ${env.cores}; ` +
      Object.entries(libs.versions).map(([k, v]) => `${k} ${v}`).join(', ') + '; best of interleaved 2 ms batches',
    xLabel: 'input size (bytes, log scale)', yLabel: `${base} time / implementation time (log scale)`,
    panels: algs.map((alg) => ({
      title: alg,
      series: names.map((name) => ({
        name: label(name),
        points: rows.filter((r) => r.alg === alg && r.peers[name])
          .map((r) => [r.size, r.peers[base].bestNs / r.peers[name].bestNs]),
      })).filter((s) => s.points.length),
    })),
  };
}

// ---- main -----------------------------------------------------------------------
async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const started = process.hrtime.bigint();
  const env = bench.envInfo();
  const libs = await loadLibs();
  bench.printEnv(env);
  const measured = describeImplementation(IMPLEMENTATION);
  console.log(`measured: ${measured}`);
  const have = Object.entries(libs.versions).map(([k, v]) => `${k} ${v}`);
  const node = `${HAS_CRYPTO_HASH ? 'crypto.hash' : 'no crypto.hash on this Node'}, createHash, createHmac`;
  console.log(`peers: node:crypto (${node})${have.length ? `, ${have.join(', ')}` : ''}` +
    `${libs.wasm ? '' : '; hash-wasm not installed'}${libs.noble ? '' : '; @noble/hashes not installed'}`);
  console.log(`${opts.quick ? 'quick: ' : ''}per cell ~${opts.budgetMs} ms of ~${opts.batchMs} ms batches after ` +
    `${opts.warmupMs} ms warm-up per peer`);
  for (const l of report.LEGEND) console.log(l);

  const results = [];
  for (const q of opts.questions || QUESTIONS) {
    if (q.run) {
      results.push(...(await q.run(opts, { libs, env, label: LABEL })));
      continue;
    }
    const sizes = opts.size || opts.sizes(q);
    for (const alg of opts.algs || q.algs) {
      for (const table of q.tables(alg)) {
        let head;
        for (const size of sizes) {
          const r = await cell(libs, q, table, alg, size, opts);
          head ||= report.printHead(q.id, `${table.title} [${LABEL}]`, q.primary, Object.keys(r.peers));
          report.printRow(head, r);
          results.push(r);
        }
      }
    }
  }

  // Native allocations per call, in child processes of their own (count()
  // says so and returns no rows where fast-hash is not the addon).
  let allocations = null;
  if (opts.alloc && !opts.filtered) {
    console.log('');
    const counted = alloc.count(opts.quick ? 20000 : 100000);
    if (counted.code !== 0) throw new Error('counting allocations failed');
    if (counted.rows.length) allocations = counted.rows;
  }

  // Results: JSON and chart under benchmark/results/ (gitignored); the chart
  // of a full, unfiltered run of the native addon is also benchmark/chart.svg
  // (committed: the README's chart is the addon's).
  const elapsedSec = Number(process.hrtime.bigint() - started) / 1e9;
  const dir = path.join(__dirname, 'results');
  fs.mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const { questions, sizes, ...settings } = opts;
  const options = { ...settings, questions: questions?.map((q) => q.id) };
  const implementation = { ...IMPLEMENTATION, label: LABEL, measured };
  const json = { env, implementation, libs: libs.versions, options, elapsedSec, results, allocations };
  const files = [path.join(dir, `run-${stamp}.json`), path.join(dir, `run-${stamp}.svg`)];
  fs.writeFileSync(files[0], JSON.stringify(json, null, 1));
  const svg = results.some((r) => r.question === 'a') ? chart(chartSpec(results, env, libs)) : null;
  if (svg) fs.writeFileSync(files[1], svg);
  else files.pop();
  if (svg && !opts.quick && !opts.filtered && IMPLEMENTATION.fastHash === 'native') {
    fs.writeFileSync(path.join(__dirname, 'chart.svg'), svg);
    files.push(path.join(__dirname, 'chart.svg'));
  }
  const wrote = files.map((f) => path.relative(process.cwd(), f)).join(', ');
  console.log(`\ndone in ${elapsedSec.toFixed(1)} s; wrote ${wrote}`);
  report.headlines(results, opts.algs || ALGS, LABEL, measured);
  for (const q of opts.questions || QUESTIONS) {
    if (!q.headlines) continue;
    for (const line of q.headlines(results.filter((r) => r.question === q.id))) console.log(`headline ${line}`);
  }
  if (allocations) {
    const pick = (re) => allocations.filter((r) => re.test(r.name)).map((r) => `${r.name} ${r.main.toFixed(2)}`);
    console.log(`headline native allocations per call (main thread): ${pick(/^hash\('sha256', 64B Buffer\) |^HmacKey/).join(', ')}`);
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
