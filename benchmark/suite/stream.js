'use strict';
// (i) streams: hashStream against what a user writes today, each row one
// kind of source:
//   pipeline    await pipeline(source, hash); hash.digest('hex')   (hash: createHash)
//   for await   for await (const c of source) hash.update(c); hash.digest('hex')
//   hashStream  await fastHash.hashStream(alg, source)
// Sources: a page-cached 1 GiB file through fs.createReadStream (the
// default 64 KiB highWaterMark, and 1 MiB); in-memory Readable.from()s of
// 1 KiB and of 16-byte chunks; a WHATWG ReadableStream of 64 KiB chunks
// (no pipeline peer: the loop over its reader is what users write). Each
// round runs every peer once, in turn (the order rotates), with a new
// source; a peer's figures are its best wall time and its best main-thread
// busy time (performance.eventLoopUtilization().active over the run), and
// the ratios are taken to the faster (or less busy) of the two others.
// The in-memory rows also time two floors, outside the ratios: `one
// update`, the same bytes as one buffer through one Hash#update (the
// compression alone: no way of hashing one stream on one digest state
// runs faster), and `array`, hashStream over the chunks as an array (the
// copy into batches and the thread-pool jobs, without the stream's own
// costs).
// Quick: the file at 256 MiB and a quarter of each in-memory stream.
// Targets (issue 22, checked in the table's last columns): wall time at
// most the faster peer's on every row, and on the file rows busy time at
// most half the less busy peer's.

const fs = require('fs');
const { Readable } = require('stream');
const { pipeline } = require('stream/promises');
const { performance } = require('perf_hooks');
const bench = require('../common');
const { crypto, fastHash, LABEL } = require('./peers');
const { MiB, prepareFile, removeOnExit, warm } = require('../cached-file');

const PEERS = ['pipeline', 'for await', 'hashStream'];
const FLOORS = ['one update', 'array'];

// Each source kind: { title, make(ctx) -> a new source, bytes, web, busyTarget }.
function sources(quick, file) {
  const mem = (total, size) => {
    const all = Buffer.alloc(total, 0x61);
    const chunks = [];
    for (let at = 0; at < total; at += size) chunks.push(all.subarray(at, at + size));
    chunks.whole = all;
    return chunks;
  };
  const part = quick ? 4 : 1;
  const kib = mem(64 * MiB / part, 1024);
  const tiny = mem(16 * MiB / part, 16);
  const web = mem(256 * MiB / part, 64 * 1024);
  return [
    { title: `${file.bytes / MiB} MiB cached file, fs.createReadStream (64 KiB chunks)`, bytes: file.bytes,
      busyTarget: true, warm: () => warm(file.file), make: () => fs.createReadStream(file.file) },
    { title: `${file.bytes / MiB} MiB cached file, fs.createReadStream, highWaterMark 1 MiB`, bytes: file.bytes,
      busyTarget: true, warm: () => warm(file.file), make: () => fs.createReadStream(file.file, { highWaterMark: MiB }) },
    { title: `Readable.from(${kib.length} chunks of 1 KiB)`, bytes: 64 * MiB / part, chunks: kib,
      make: () => Readable.from(kib) },
    { title: `Readable.from(${tiny.length} chunks of 16 B)`, bytes: 16 * MiB / part, chunks: tiny,
      make: () => Readable.from(tiny) },
    { title: `ReadableStream of ${web.length} chunks of 64 KiB`, bytes: 256 * MiB / part, web: true, chunks: web,
      make: () => {
        let i = 0;
        return new ReadableStream({
          pull(c) {
            if (i < web.length) c.enqueue(web[i++]);
            else c.close();
          },
        }, { highWaterMark: 4 });
      } },
  ];
}

const ways = {
  pipeline: async (alg, source) => {
    const h = crypto.createHash(alg);
    await pipeline(source, h);
    return h.digest('hex');
  },
  'for await': async (alg, source) => {
    const h = crypto.createHash(alg);
    for await (const c of source) h.update(c);
    return h.digest('hex');
  },
  hashStream: (alg, source) => fastHash.hashStream(alg, source),
  'one update': async (alg, source, src) => crypto.createHash(alg).update(src.chunks.whole).digest('hex'),
  array: (alg, source, src) => fastHash.hashStream(alg, src.chunks),
};

// One run: { ns, busyNs, digest }.
async function timed(way, alg, src) {
  const source = FLOORS.includes(way) ? undefined : src.make();
  const e0 = performance.eventLoopUtilization();
  const t0 = process.hrtime.bigint();
  const digest = await ways[way](alg, source, src);
  const ns = Number(process.hrtime.bigint() - t0);
  return { ns, busyNs: performance.eventLoopUtilization(e0).active * 1e6, digest };
}

async function measureRow(alg, src, rounds) {
  const names = PEERS.filter((n) => !(src.web && n === 'pipeline')).concat(src.chunks ? FLOORS : []);
  const runs = Object.fromEntries(names.map((n) => [n, []]));
  let expected;
  for (let r = -1; r < rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + Math.max(r, 0)) % names.length];
      if (src.warm) src.warm();
      const run = await timed(name, alg, src);
      expected ??= run.digest;
      bench.checkResult(name, `(i) ${src.title}`, run.digest, expected);
      // Round -1 is the warm-up (and the result check).
      if (r >= 0) runs[name].push(run);
    }
  }
  const peers = {};
  for (const [name, list] of Object.entries(runs)) {
    const ns = list.map((x) => x.ns).sort((a, b) => a - b);
    const busy = list.map((x) => x.busyNs).sort((a, b) => a - b);
    peers[name] = { bestNs: ns[0], medianNs: ns[ns.length >> 1], busyBestNs: busy[0], busyMedianNs: busy[busy.length >> 1] };
  }
  const others = names.filter((n) => n !== 'hashStream' && !FLOORS.includes(n));
  const fastest = others.reduce((a, n) => (peers[n].bestNs < peers[a].bestNs ? n : a));
  const idlest = others.reduce((a, n) => (peers[n].busyBestNs < peers[a].busyBestNs ? n : a));
  const ours = peers.hashStream;
  return {
    question: 'i', table: src.title, alg, size: src.bytes, bytes: src.bytes, rounds, peers, fastest, idlest,
    speed: peers[fastest].bestNs / ours.bestNs, busy: ours.busyBestNs / peers[idlest].busyBestNs,
    floor: src.chunks ? peers['one update'].bestNs : undefined,
    busyTarget: Boolean(src.busyTarget),
  };
}

const ms = (ns) => (ns / 1e6).toFixed(0);

function printRow(row) {
  console.log(`\n(i) ${row.alg}, ${row.table} [${LABEL}]`);
  console.log('  peer          best ms  median ms  busy best ms  busy median ms');
  for (const [name, p] of Object.entries(row.peers)) {
    console.log(`  ${name.padEnd(12)} ${ms(p.bestNs).padStart(8)} ${ms(p.medianNs).padStart(10)} ` +
      `${ms(p.busyBestNs).padStart(13)} ${ms(p.busyMedianNs).padStart(15)}`);
  }
  console.log(`  hashStream: ${row.speed.toFixed(2)}x the speed of ${row.fastest} (target >= 1), busy ` +
    `${row.busy.toFixed(2)}x ${row.idlest}'s${row.busyTarget ? ' (target <= 0.5)' : ''}; ${row.rounds} rounds`);
  if (row.floor === undefined) return;
  const over = (name) => `${name} ${(row.peers[name].bestNs / row.floor).toFixed(2)}x`;
  console.log(`  best times over one update's (the compression alone): ${over(row.fastest)}, ${over('hashStream')}, ` +
    `${over('array')}`);
}

module.exports = {
  id: 'i',
  name: 'streams',
  algs: ['sha256'],
  async run(opts) {
    const file = prepareFile(opts.quick ? 256 : 1024);
    const remove = removeOnExit(file.file);
    file.buf = undefined;
    const rows = [];
    try {
      for (const alg of opts.algs || this.algs) {
        for (const src of sources(opts.quick, file)) {
          const row = await measureRow(alg, src, opts.quick ? 3 : 7);
          printRow(row);
          rows.push(row);
        }
      }
    } finally {
      remove();
    }
    return rows;
  },
  headlines(rows) {
    return rows.map((row) => `${row.alg} hashStream, ${row.table}: ${row.speed.toFixed(2)}x ${row.fastest}'s speed, ` +
      `${row.busy.toFixed(2)}x ${row.idlest}'s main-thread busy time`);
  },
};
