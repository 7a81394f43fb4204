'use strict';
// Running Windows Node under Wine, for scripts/test-prebuilds.js (the
// win32-x64 binary) and scripts/test-matrix.js (the JS implementation on
// Windows). Not a script of its own: both require it.
//
// Each caller has a Wine prefix of its own, under
// ${XDG_CACHE_HOME:-~/.cache}/fast-hash/wine/<name>, made on first use
// (wineboot: tens of seconds) and set to Windows 10, the oldest Windows that
// Node 22 starts on without NODE_SKIP_PLATFORM_CHECK. `wineserver -k` on a
// prefix ends its processes and its server and nothing else, so each run is
// ended with it: a wineserver left running would keep CI's job open.
//
// Windows Node under Wine cannot take a Unix pipe as its stdout (node:net
// fails with EBADF), so callers give it files; pipes between Windows
// processes, as the tests' children use, work.
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

// Debian's wine64 package: the loader for 64-bit Windows programs and its
// server.
const WINE = '/usr/lib/wine/wine64';
const WINESERVER = '/usr/lib/wine/wineserver';

// A set-up step's limit (wineboot, winecfg, wineserver -k).
const STEP_LIMIT_MS = 2 * 60 * 1000;

function installed() {
  return fs.existsSync(WINE) && fs.existsSync(WINESERVER);
}

function prefixDir(name) {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'fast-hash', 'wine', name);
}

// What a Wine process of the prefix needs in its environment: the prefix,
// Wine's debug channels off, and no prompt to install Mono or Gecko.
function env(prefix) {
  return { WINEPREFIX: prefix, WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=' };
}

// Ends every process of the prefix and its wineserver.
function end(prefix) {
  spawnSync(WINESERVER, ['-k'], { env: { ...process.env, ...env(prefix) }, stdio: 'ignore', timeout: STEP_LIMIT_MS });
}

// Makes the prefix if need be (a marker file, written last, says it is
// complete); returns its path. Throws when a step fails.
function ensurePrefix(name) {
  const prefix = prefixDir(name);
  const done = path.join(prefix, '.fast-hash-win10');
  if (fs.existsSync(done)) return prefix;
  fs.mkdirSync(prefix, { recursive: true });
  const e = { ...process.env, ...env(prefix) };
  try {
    for (const args of [['wineboot', '-i'], ['winecfg', '/v', 'win10']]) {
      console.error(`$ WINEPREFIX=${prefix} wine64 ${args.join(' ')}`);
      const res = spawnSync(WINE, args, { env: e, stdio: 'ignore', timeout: STEP_LIMIT_MS, killSignal: 'SIGKILL' });
      if (res.error || res.status !== 0) throw new Error(`wine64 ${args.join(' ')}: ${res.error || `exit ${res.status}`}`);
    }
  } finally {
    end(prefix);
  }
  fs.writeFileSync(done, '');
  return prefix;
}

// A path Windows Node reports, as this machine's (Wine's Z: drive is /);
// other drives are left as they are.
function unixPath(file) {
  return /^[zZ]:\\/.test(file) ? file.slice(2).replace(/\\/g, '/') : file;
}

module.exports = { WINE, WINESERVER, installed, prefixDir, env, end, ensurePrefix, unixPath };
