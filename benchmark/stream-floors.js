'use strict';
// What bounds hashStream where question (i) misses its targets (the
// figures are in README.md, "Streams"):
//   copies  256 MiB as 64 thread-pool jobs of 4 MiB, two in flight, over
//           views of the source, over batches written by fill(), and over
//           batches the source is copied into (what hashStream does), beside
//           one update of it all on the main thread;
//   cpu     a 1 GiB page-cached file with 1 MiB reads: wall time and the
//           process's CPU time (user + system) for `for await` with
//           update(), hashStream, and the addon's own file reader.
// Usage: node benchmark/stream-floors.js [copies|cpu] (both by default).
// Needs the addon; best of 5 (copies) or 3 (cpu) rounds.

const fs = require('fs');
const crypto = require('crypto');
const binding = require('../lib/binding');
const fastHash = require('..');
const { MiB, prepareFile, removeOnExit, warm } = require('./cached-file');

const BATCH = 4 * MiB;

// 256 MiB through pool jobs, `prepare(i)` giving job i's bytes.
async function jobs(id, total, prepare) {
  const t = performance.now();
  const h = binding.hasherNew(id, 32);
  const running = [];
  for (let i = 0; i * BATCH < total; i++) {
    if (running.length === 2) await running.shift();
    running.push(binding.hasherUpdateAsync(h, prepare(i), BATCH));
  }
  await Promise.all(running);
  binding.hasherFree(h);
  return performance.now() - t;
}

async function copies() {
  const id = binding.resolve('sha256').id;
  const src = Buffer.alloc(256 * MiB, 0x61);
  const batches = [0, 1, 2].map(() => Buffer.allocUnsafeSlow(BATCH));
  const view = (i) => src.subarray(i * BATCH, (i + 1) * BATCH);
  const ways = {
    'jobs over views of the source': () => jobs(id, src.length, view),
    'jobs over batches written by fill()': () => jobs(id, src.length, (i) => batches[i % 3].fill(i & 0xff)),
    'jobs over batches copied from the source': () => jobs(id, src.length, (i) => {
      const batch = batches[i % 3];
      for (let at = 0; at < BATCH; at += 64 * 1024) batch.set(src.subarray(i * BATCH + at, i * BATCH + at + 64 * 1024), at);
      return batch;
    }),
    'one update on the main thread': async () => {
      const t = performance.now();
      crypto.createHash('sha256').update(src).digest();
      return performance.now() - t;
    },
  };
  const best = {};
  for (let r = 0; r < 5; r++) {
    for (const [name, way] of Object.entries(ways)) best[name] = Math.min(best[name] ?? Infinity, await way());
  }
  console.log('256 MiB, sha256, best of 5:');
  for (const [name, ms] of Object.entries(best)) console.log(`  ${name.padEnd(44)} ${ms.toFixed(1)} ms`);
}

async function cpu() {
  const file = prepareFile(1024);
  const remove = removeOnExit(file.file);
  file.buf = undefined;
  const read = () => fs.createReadStream(file.file, { highWaterMark: MiB });
  const ways = {
    'for await + update': async () => {
      const h = crypto.createHash('sha256');
      for await (const c of read()) h.update(c);
      return h.digest('hex');
    },
    hashStream: () => fastHash.hashStream('sha256', read()),
    hashFile: () => fastHash.hashFile('sha256', file.file),
  };
  console.log('1 GiB cached file, 1 MiB reads, sha256 (3 rounds):');
  try {
    for (let r = 0; r < 3; r++) {
      for (const [name, way] of Object.entries(ways)) {
        warm(file.file);
        const c0 = process.cpuUsage();
        const t = performance.now();
        await way();
        const ms = performance.now() - t;
        const c = process.cpuUsage(c0);
        console.log(`  ${name.padEnd(20)} ${ms.toFixed(0).padStart(5)} ms wall ${((c.user + c.system) / 1000).toFixed(0).padStart(5)} ms CPU ` +
          `(${(c.system / 1000).toFixed(0)} system)`);
      }
    }
  } finally {
    remove();
  }
}

(async () => {
  const which = process.argv[2];
  if (which === undefined || which === 'copies') await copies();
  if (which === undefined || which === 'cpu') await cpu();
})();
