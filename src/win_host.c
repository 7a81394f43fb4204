/* Windows only (the MinGW prebuild, scripts/prebuild.js): binds the addon's
 * Node-API, libuv and OpenSSL imports to the process that loads it, whatever
 * its executable is called.
 *
 * The binary imports those symbols from "node.exe" through a delay-import
 * table (dlltool --output-delaylib): a plain import would make Windows's
 * loader look for a file named node.exe, which a renamed or embedded Node
 * (node22.exe, an Electron app) does not have, or would load some other
 * node.exe beside it. node-gyp's MSVC builds solve it the same way
 * (win_delay_load_hook.cc); node-gyp's hook is not compiled into this
 * binary, so this file is left out of binding.gyp's sources.
 *
 * Every import is resolved at DLL_PROCESS_ATTACH, not at its first call: a
 * host that lacks one (not Node, or a Node without some OpenSSL export) then
 * makes LoadLibrary fail, which process.dlopen reports as an Error that
 * lib/binding.js catches, as `-z now` makes dlopen fail on Linux. Resolved
 * lazily, the missing symbol would raise a structured exception at its first
 * call and end the process. */
#ifdef _WIN32

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <delayimp.h>

/* The module name the delay-import table names (dlltool -D). */
#define FH_HOST_IMPORT "node.exe"

/* Set when an import is missing from the host; read once, at attach. */
static int fh_host_missing;

/* Not a function of the host: what a missing import's slot holds until the
 * load fails (DllMain then refuses, so nothing ever calls it). */
static void WINAPI fh_host_absent(void) {}

/* Case-insensitive ASCII equality; the loader compares module names so. */
static int fh_host_name_is(const char *name, const char *want) {
  for (; *name && *want; name++, want++) {
    char a = *name, b = *want;
    if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
    if (b >= 'A' && b <= 'Z') b = (char)(b - 'A' + 'a');
    if (a != b) return 0;
  }
  return *name == *want;
}

/* The delay-load helper's notify hook: before it would LoadLibrary("node.exe"),
 * hand it the host's own module instead. Everything else: the default. */
static FARPROC WINAPI fh_host_notify(unsigned reason, PDelayLoadInfo info) {
  if (reason == dliNotePreLoadLibrary && fh_host_name_is(info->szDll, FH_HOST_IMPORT)) {
    return (FARPROC)GetModuleHandleW(NULL);
  }
  return NULL;
}

/* The failure hook: a symbol the host does not export is noted, and a
 * placeholder returned so the helper does not raise an exception. (The
 * module itself cannot fail to load: the notify hook always answers.) */
static FARPROC WINAPI fh_host_failure(unsigned reason, PDelayLoadInfo info) {
  (void)info;
  if (reason == dliFailGetProc || reason == dliFailLoadLib) fh_host_missing = 1;
  return reason == dliFailGetProc ? (FARPROC)fh_host_absent : NULL;
}

/* The helper reads these (mingw-w64's delayimp.c, as MSVC's delayhlp.cpp);
 * mingw-w64's delayimp.h declares them without const. */
PfnDliHook __pfnDliNotifyHook2 = fh_host_notify;
PfnDliHook __pfnDliFailureHook2 = fh_host_failure;

/* The delay-import descriptor dlltool writes into the import library; its
 * name follows the library's file name (scripts/prebuild.js makes
 * libfh_host.a). GNU ld leaves the PE header's delay-import directory empty,
 * so __HrLoadAllImportsForDll, which reads that directory, finds nothing:
 * the descriptor is named instead. */
#ifndef FH_HOST_DESCRIPTOR
#define FH_HOST_DESCRIPTOR __DELAY_IMPORT_DESCRIPTOR_libfh_host_a
#endif
extern const ImgDelayDescr FH_HOST_DESCRIPTOR;
extern IMAGE_DOS_HEADER __ImageBase;
FARPROC WINAPI __delayLoadHelper2(PCImgDelayDescr desc, FARPROC *slot);

/* Binds every slot of the descriptor's import address table (it ends with a
 * null slot) through the helper, as the first call of each would. Returns 0
 * when one is missing from the host. */
static int fh_host_bind_all(void) {
  const ImgDelayDescr *desc = &FH_HOST_DESCRIPTOR;
  FARPROC *slot = (FARPROC *)((char *)&__ImageBase + desc->rvaIAT);

  if (!(desc->grAttrs & dlattrRva)) return 0;
  for (; *slot != NULL; slot++) __delayLoadHelper2(desc, slot);
  return !fh_host_missing;
}

/* Resolves every import from the host at load; FALSE (the load fails) when
 * one is missing. */
BOOL WINAPI DllMain(HINSTANCE self, DWORD reason, LPVOID reserved) {
  (void)self;
  (void)reserved;
  return reason != DLL_PROCESS_ATTACH || fh_host_bind_all();
}

#else
/* ISO C wants at least one declaration in a translation unit. */
typedef int fh_win_host_unused;
#endif /* _WIN32 */
