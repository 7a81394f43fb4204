'use strict';
// Preloaded (NODE_OPTIONS=--require) into a Node that scripts/test-prebuilds.js
// runs under qemu-user. The kernel cannot start that Node's executable by
// itself (no binfmt_misc entry for its arch), so a test that starts a child
// with process.execPath (a FIFO's writer, the forced-EVP digest run) would
// get ENOEXEC. Here each child_process call for process.execPath goes
// through the same emulator instead. FAST_HASH_EMULATOR holds the emulator
// and its arguments as a JSON array; children inherit it and NODE_OPTIONS,
// so theirs are handled too.
const cp = require('child_process');

const emulator = JSON.parse(process.env.FAST_HASH_EMULATOR);
const self = process.execPath;

// spawn, spawnSync, execFile, execFileSync: (file[, args][, ...rest]).
// A call for this Node becomes (emulator, [...emulatorArgs, node, ...args], ...rest).
function wrapFileCall(name) {
  const original = cp[name];
  cp[name] = function (file, args, ...rest) {
    if (file !== self) return original.call(this, file, args, ...rest);
    if (!Array.isArray(args)) {
      if (args !== undefined) rest.unshift(args);
      args = [];
    }
    return original.call(this, emulator[0], [...emulator.slice(1), self, ...args], ...rest);
  };
}

// fork(modulePath[, args][, options]): the emulator becomes options.execPath
// and its arguments and this Node lead options.execArgv.
function wrapFork() {
  const original = cp.fork;
  cp.fork = function (modulePath, args, options) {
    if (!Array.isArray(args)) {
      options = args;
      args = [];
    }
    const opts = { ...options };
    if (opts.execPath && opts.execPath !== self) return original.call(this, modulePath, args, opts);
    opts.execArgv = [...emulator.slice(1), self, ...(opts.execArgv || process.execArgv)];
    opts.execPath = emulator[0];
    return original.call(this, modulePath, args, opts);
  };
}

for (const name of ['spawn', 'spawnSync', 'execFile', 'execFileSync']) wrapFileCall(name);
wrapFork();
