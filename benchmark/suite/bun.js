'use strict';
// Bun's own one-shot digest with bytes out, Bun.CryptoHasher.hash(alg, data),
// timed in a Bun child (bun-child.js) with the suite's harness and budget:
// the call a Bun user would weigh fast-hash's 'buffer' output against.
//
// Bun is $FAST_HASH_BENCH_BUN, else `bun` on the PATH, else the one the test
// matrix caches (npm run test:matrix -- bun fetches it). Without one the
// column is left out, with a note.

const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

function cachedBun() {
  const base = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'fast-hash', 'runtimes');
  let dirs = [];
  try {
    dirs = fs.readdirSync(base).filter((d) => d.startsWith('@oven+bun-linux-')).sort().reverse();
  } catch { return null; }
  for (const d of dirs) {
    const pkg = d.slice('@oven+'.length, d.lastIndexOf('@'));
    const bin = path.join(base, d, 'node_modules', '@oven', pkg, 'bin', 'bun');
    if (fs.existsSync(bin)) return bin;
  }
  return null;
}

// { bin, version } or { missing: why }.
function findBun() {
  const candidates = [process.env.FAST_HASH_BENCH_BUN, 'bun', cachedBun()].filter(Boolean);
  for (const bin of candidates) {
    const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
    if (r.status === 0) return { bin, version: r.stdout.trim() };
  }
  return { missing: 'no Bun found (FAST_HASH_BENCH_BUN, PATH, or the test matrix cache: npm run test:matrix -- bun)' };
}

let bun;
function cryptoHasherBytes(alg, size) {
  return {
    name: 'Bun CryptoHasher',
    measure(opts) {
      if (!bun) {
        bun = findBun();
        console.log(bun.missing ? `note: Bun CryptoHasher column left out: ${bun.missing}` :
          `note: Bun CryptoHasher: Bun.CryptoHasher.hash(alg, data) in Bun ${bun.version} (${bun.bin}), same harness and budget`);
      }
      if (bun.missing) return null;
      const args = [path.join(__dirname, 'bun-child.js'), alg, size, opts.budgetMs, opts.batchMs, opts.warmupMs,
        opts.minRounds || 5];
      const r = spawnSync(bun.bin, args, { encoding: 'utf8', env: { ...process.env, DO_NOT_TRACK: '1' } });
      if (r.status !== 0) throw new Error(`the Bun child failed: ${r.stderr || r.error}`);
      return JSON.parse(r.stdout.trim().split('\n').pop());
    },
  };
}

module.exports = { cryptoHasherBytes };
