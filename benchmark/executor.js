'use strict';
// Question (m) of the suite, alone: the one executor off the main thread
// under mixed load, starvation, scaling, one stream and the command on many
// small files, each figure beside its target (suite/executor.js says what
// each row runs). A benchmark: it fails only on a wrong digest.
//
// Usage: node benchmark/executor.js [--quick] [--impl DIR] [--json FILE]
//   --impl DIR   measure the fast-hash of checkout DIR (its lib/ and its
//                build/Release/fast_hash.node; bin/fast-hash.js for row 5)
//                instead of this one, e.g. the commit before the executor
//                built in /tmp/base; FAST_HASH_BENCH_IMPL=DIR does the same.
//                Only that checkout's addon is loaded: two addons in one
//                process would each start threads of their own.
//   --quick      fewer samples and rounds, 64 MiB files for row 3 (~1 min)
//   --json FILE  the rows, with the environment, as JSON
// To compare two commits, run it once per checkout, one after the other,
// on a machine with nothing else running.

const fs = require('fs');
const util = require('util');
const bench = require('./common');
const question = require('./suite/executor');

function parse(argv) {
  try {
    return util.parseArgs({
      args: argv,
      options: { quick: { type: 'boolean' }, impl: { type: 'string' }, json: { type: 'string' } },
    }).values;
  } catch (err) {
    console.error(`${err.message}\nusage: node benchmark/executor.js [--quick] [--impl DIR] [--json FILE]`);
    return process.exit(2);
  }
}

async function main() {
  const values = parse(process.argv.slice(2));
  const opts = { quick: Boolean(values.quick), impl: values.impl || process.env.FAST_HASH_BENCH_IMPL || undefined };
  const env = bench.envInfo();
  bench.printEnv(env);
  const rows = await question.run(opts);
  console.log('');
  for (const line of question.headlines(rows)) console.log(`headline ${line}`);
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ env, options: opts, rows }, null, 1));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
