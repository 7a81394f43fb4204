'use strict';
// Hashing a file: fast-hash's native file readers vs the usual Node ways, one
// whole-file digest per peer per round, interleaved, hex output:
//   hashFile            await fastHash.hashFile(alg, path)    (thread pool, 1 MiB native reads, read
//                       ahead on a reader thread past the first MiB)
//   hashFileSync        fastHash.hashFileSync(alg, path)
//   crypto.hash(read)   crypto.hash(alg, fs.readFileSync(path))  (createHash if crypto.hash is missing)
//   stream pipe         fs.createReadStream(path).pipe(crypto.createHash(alg)), digest read on 'finish'
//   raw OpenSSL         crypto.createHash(alg).update(buf).digest() on the file's bytes already in
//                       memory: no I/O at all (read from RAM, not from cache)
//   cache-hot OpenSSL   the same byte count as updates of one 1 MiB slice, so
//                       the data comes from the CPU cache: pure compression speed.
//                       On machines with slow memory this, not raw OpenSSL, is the
//                       ceiling: a 1 MiB-chunked reader hashes from cache too.
// The file is random bytes under os.tmpdir(), read once before timing so every
// peer reads from the page cache: this measures the reading and hashing
// machinery, not the disk. MB/s are 10^6 bytes per second.
//
// Usage: node benchmark/file.js [--quick] [--alg sha256,sha512,md5,blake2b512] [--size-mib 256]
//          [--keep] [--rounds 5] [--json out.json]
// --quick: 64 MiB, 2 rounds. --keep leaves the file for the next run to reuse.
//
// A benchmark, not a test: it never fails on speed, only on a wrong result.

const crypto = require('crypto');
const fs = require('fs');
const fastHash = require('..');
const bench = require('./common');
const { MiB, prepareFile, removeOnExit } = require('./cached-file');

const FULL = { alg: ['sha256'], sizeMib: 256, rounds: 5, json: null };
const QUICK = { ...FULL, sizeMib: 64, rounds: 2 };

// ---- peers --------------------------------------------------------------------
// The stream peer as people write it: default 64 KiB reads, the Hash piped
// to; once it finishes, its readable side holds the digest.
function streamDigest(alg, file) {
  return new Promise((resolve, reject) => {
    const h = crypto.createHash(alg);
    const rs = fs.createReadStream(file);
    rs.on('error', reject);
    h.on('error', reject);
    h.on('finish', () => resolve(h.read().toString('hex')));
    rs.pipe(h);
  });
}

const oneShot = typeof crypto.hash === 'function' ?
  { name: 'crypto.hash(read)', run: (c) => crypto.hash(c.alg, fs.readFileSync(c.path)) } :
  { name: 'createHash(read)', run: (c) => crypto.createHash(c.alg).update(fs.readFileSync(c.path)).digest('hex') };
const PEERS = [
  { name: 'hashFile', run: (c) => fastHash.hashFile(c.alg, c.path) },
  { name: 'hashFileSync', run: (c) => fastHash.hashFileSync(c.alg, c.path) },
  oneShot,
  { name: 'stream pipe', run: (c) => streamDigest(c.alg, c.path) },
  { name: 'raw OpenSSL', run: (c) => crypto.createHash(c.alg).update(c.buf).digest('hex') },
  { name: 'cache-hot OpenSSL', hot: true, run: hotDigest },
];
function hotDigest(c) {
  const h = crypto.createHash(c.alg), slice = c.buf.subarray(0, MiB);
  for (let done = 0; done < c.buf.length; done += MiB) h.update(slice);
  return h.digest('hex');
}
const NAMES = PEERS.map((p) => p.name);

// ---- measurement --------------------------------------------------------------
async function measure(alg, f, rounds) {
  const c = { alg, path: f.file, buf: f.buf };
  const expected = crypto.createHash(alg).update(f.buf).digest('hex');
  // cache-hot hashes other bytes (one slice over and over): its expected
  // digest is that of those bytes laid out in full, a one-off copy.
  const slices = Buffer.concat(Array(f.bytes / MiB).fill(f.buf.subarray(0, MiB)));
  const expectedHot = crypto.createHash(alg).update(slices).digest('hex');
  // Every peer's first run is its result check, and its warm-up.
  for (const p of PEERS) {
    bench.checkResult(p.name, `${alg} ${f.bytes / MiB} MiB file`, await p.run(c), p.hot ? expectedHot : expected);
  }
  const peers = await bench.measureRuns(PEERS, c, rounds);
  for (const r of Object.values(peers)) {
    r.bestMBs = f.bytes / r.bestNs * 1e3;
    r.medianMBs = f.bytes / r.medianNs * 1e3;
  }
  return { alg, bytes: f.bytes, rounds, peers };
}

const mbs = (x) => x.toFixed(0).padStart(8);
const vsRaw = (res) => bench.ratio(res, 'hashFile', 'raw OpenSSL').toFixed(2);

function printTable(res) {
  console.log(`\n${res.alg}, ${res.bytes / MiB} MiB file   (MB/s, best and median of ${res.rounds} rounds)`);
  console.log(`${'peer'.padEnd(20)} best MB/s  median MB/s   best time`);
  for (const name of NAMES) {
    const r = res.peers[name];
    const best = `${(r.bestNs / 1e6).toFixed(0)} ms`.padStart(9);
    console.log(`${name.padEnd(20)}  ${mbs(r.bestMBs)}     ${mbs(r.medianMBs)}   ${best}`);
  }
  console.log(`hashFile vs stream pipe = ${bench.fmtRatio(bench.ratio(res, 'hashFile', 'stream pipe'))}, ` +
    `hashFile vs ${oneShot.name} = ${bench.fmtRatio(bench.ratio(res, 'hashFile', oneShot.name))}, ` +
    `hashFile vs raw OpenSSL = ${vsRaw(res)}, ` +
    `hashFile vs cache-hot OpenSSL = ${bench.ratio(res, 'hashFile', 'cache-hot OpenSSL').toFixed(2)}`);
}

async function main() {
  const opts = bench.parseArgs(process.argv.slice(2), {
    script: 'file.js', full: FULL, quick: QUICK, numbers: { 'size-mib': 'N' }, flags: ['keep'],
    omit: ['size', 'batch-ms', 'warmup-ms'],
  });
  opts.sizeMib = Math.round(opts.sizeMib);
  if (opts.sizeMib >= 2048) {
    console.error('--size-mib must be below 2048: fs.readFileSync (a peer) cannot read 2 GiB or more');
    process.exit(2);
  }
  const started = process.hrtime.bigint();
  const env = bench.envInfo();
  bench.printEnv(env);

  const f = prepareFile(opts.sizeMib);
  // Removed on every way out, a failed result check (process.exit) and Ctrl-C included.
  if (!opts.keep) removeOnExit(f.file);
  else process.on('SIGINT', () => process.exit(130));
  const kept = opts.keep ? ', kept' : '';
  console.log(`file ${f.file} (${opts.sizeMib} MiB random bytes, ${f.how}, page cache warmed${kept}); ` +
    `rounds ${opts.rounds}, one whole-file digest per peer per round; peers: ${NAMES.join(', ')}`);

  const results = [];
  for (const alg of opts.alg) {
    results.push(await measure(alg, f, opts.rounds));
    printTable(results[results.length - 1]);
  }
  // Headline: sha256 from the run, else measured now (2 rounds).
  const h = results.find((r) => r.alg === 'sha256') || { ...(await measure('sha256', f, 2)), dedicated: true };

  bench.finish({ env, opts, started, results, headline: h });
  console.log(`headline hashFile sha256 ${opts.sizeMib}MiB: ${h.peers.hashFile.bestMBs.toFixed(0)} MB/s, ` +
    `vs stream pipe = ${bench.fmtRatio(bench.ratio(h, 'hashFile', 'stream pipe'))}, vs raw OpenSSL = ${vsRaw(h)}`);
}

main();
