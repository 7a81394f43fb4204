'use strict';
// (g) file: hashFileSync and hashFile of a page-cached file against OpenSSL
// hashing the same bytes already in memory, the most a file digest can
// reach (the file's pages come from RAM as the Buffer's do):
//   hashFileSync       fastHash.hashFileSync(alg, path)
//   hashFile           await fastHash.hashFile(alg, path)
//   crypto.hash (mem)  crypto.hash(alg, buf): buf is the file's bytes, read
//                      once into one Buffer (createHash where crypto.hash is
//                      missing)
//   ceiling (mem)      benchCeiling over buf: the digest call fast-hash makes,
//                      alone in native code (none where the addon cannot load)
// "in-memory" is the faster of the last two in each size's best round, so the
// ratio is to the best OpenSSL did on those bytes. Sizes: 64 MiB and 1 GiB
// (quick: 64 MiB; --size replaces them, whole MiB up to 1.5 GiB). Each file
// is random bytes under os.tmpdir(), removed after its rounds; every peer's
// first run is its result check and warm-up, then best and median of
// interleaved rounds (one whole-file digest per peer per round).

const bench = require('../common');
const { ceiling, crypto, fastHash, LABEL } = require('./peers');
const { fmtSize } = require('./report');
const { MiB, prepareFile, removeOnExit } = require('../cached-file');

const SIZES = [64 * MiB, 1024 * MiB];
const ROUNDS = (bytes, quick) => (quick ? 8 : bytes <= 64 * MiB ? 25 : 10);
const MEMORY = ['crypto.hash (mem)', 'ceiling (mem)'];

function peersFor(alg, buf) {
  const ceil = ceiling(alg, [buf]);
  const inMemory = typeof crypto.hash === 'function' ? () => crypto.hash(alg, buf) :
    () => crypto.createHash(alg).update(buf).digest('hex');
  return [
    { name: 'hashFileSync', run: (c) => fastHash.hashFileSync(alg, c.file) },
    { name: 'hashFile', run: (c) => fastHash.hashFile(alg, c.file) },
    { name: MEMORY[0], run: inMemory },
    ceil && { name: MEMORY[1], check: false, run: () => ceil.loop(null, 1) },
  ].filter(Boolean);
}

// One size: the file made and cached, checked, timed, removed.
async function measureSize(alg, bytes, opts) {
  const f = prepareFile(bytes / MiB);
  const remove = removeOnExit(f.file);
  try {
    const peers = peersFor(alg, f.buf);
    const expected = crypto.createHash(alg).update(f.buf).digest('hex');
    for (const p of peers) {
      const got = await p.run(f);
      if (p.check !== false) bench.checkResult(p.name, `(g) ${alg} ${fmtSize(bytes)} file`, got, expected);
    }
    const rounds = ROUNDS(bytes, opts.quick);
    const m = await bench.measureRuns(peers, f, rounds);
    const out = {};
    for (const [name, r] of Object.entries(m)) out[name] = { bestNs: r.bestNs, medianNs: r.medianNs };
    const ref = MEMORY.filter((n) => out[n]).reduce((a, n) => (out[n].bestNs < out[a].bestNs ? n : a), MEMORY[0]);
    return { question: 'g', table: `${alg}, whole cached file vs the same bytes in memory`, alg, size: bytes, bytes,
      rounds, how: f.how, inMemory: ref, peers: out };
  } finally {
    remove();
  }
}

const mbs = (row, r) => (row.bytes / r.bestNs * 1e3).toFixed(0);
const vsMemory = (row, name) => row.peers[row.inMemory].bestNs / row.peers[name].bestNs;

function printHead(alg) {
  console.log(`\n(g) ${alg}, whole page-cached file vs OpenSSL over the same bytes in memory [${LABEL}]`);
  console.log('    size  peer                best MB/s  median MB/s    best ms  vs in-memory');
}

function printRow(row) {
  for (const [name, r] of Object.entries(row.peers)) {
    const mark = name === row.inMemory ? '  (in-memory)' : MEMORY.includes(name) ? '' : `  ${vsMemory(row, name).toFixed(3)}x`;
    console.log(`${fmtSize(row.size).padStart(8)}  ${name.padEnd(18)} ${mbs(row, r).padStart(10)} ` +
      `${(row.bytes / r.medianNs * 1e3).toFixed(0).padStart(12)} ${(r.bestNs / 1e6).toFixed(1).padStart(10)}${mark}`);
  }
  console.log(`${''.padStart(8)}  (${row.rounds} rounds, file ${row.how})`);
}

module.exports = {
  id: 'g',
  name: 'file',
  algs: ['sha256'],
  async run(opts) {
    const sizes = (opts.size || (opts.quick ? SIZES.slice(0, 1) : SIZES))
      .map((n) => Math.max(1, Math.round(n / MiB)) * MiB).filter((n) => n <= 1536 * MiB);
    const rows = [];
    for (const alg of opts.algs || this.algs) {
      printHead(alg);
      for (const bytes of sizes) {
        const row = await measureSize(alg, bytes, opts);
        printRow(row);
        rows.push(row);
      }
    }
    return rows;
  },
  headlines(rows) {
    const lines = [];
    for (const row of rows) {
      for (const name of ['hashFileSync', 'hashFile']) {
        lines.push(`${row.alg} ${name} ${fmtSize(row.size)}: ${vsMemory(row, name).toFixed(2)}x in-memory OpenSSL ` +
          `(${mbs(row, row.peers[name])} vs ${mbs(row, row.peers[row.inMemory])} MB/s, ${row.inMemory})`);
      }
    }
    return lines;
  },
};
