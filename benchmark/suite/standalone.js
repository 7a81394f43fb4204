'use strict';
// Questions that run themselves rather than as a table of input sizes. Each
// module exports { id, name, algs, run(opts, { libs, env, label }) }: run
// prints its own table and returns result rows for the JSON (objects with at
// least `question` and `table`). `opts` is run.js's: quick, budgetMs, size
// (if --size was given), and so on. An optional headlines(rows) gives the
// lines printed (after "headline ") at the end of the run.
module.exports = [
  require('./file'), // (g) file: hashFile / hashFileSync vs the same bytes in memory
  require('./command'), // (h) command: the fast-hash command vs sha256sum
  require('./stream'), // (i) streams: hashStream vs pipeline / for await over createHash
  require('./runtime'), // (j) runtime: fast-hash vs this runtime's own call for the same work
  require('./sharing'), // (k) sharing: fs.stat latency under 16 streams; throughput of N streams
  require('./dropin'), // (l) drop-in: createHash/createHmac chains, await hashAsync
  require('./executor'), // (m) executor: every kind of job at once on the one executor; also benchmark/executor.js
];
