/* Whether an environment still runs JavaScript: the one question that long
 * work on the JS thread (hash.c) and a thread-pool job between two slices
 * (async.c) ask to learn when to stop. Its own file so that those two call
 * into it and module.c, which registers the exports, is called by none. */
#include "fast_hash.h"

/* Asks by calling an empty JS function, which V8 refuses at its entry once
 * a worker's terminate() or the environment's end has begun. The function
 * is made on first use and kept in st->probe, a reference Node-API frees
 * with the environment. Returns 1 while JS runs; may leave an exception
 * pending. */
int fh_env_running(napi_env env, fh_state *st) {
  napi_value fn, script, global, ignored;

  if (st->probe == NULL) {
    if (napi_create_string_utf8(env, "(function () {})", NAPI_AUTO_LENGTH,
                                &script) != napi_ok ||
        napi_run_script(env, script, &fn) != napi_ok ||
        napi_create_reference(env, fn, 1, &st->probe) != napi_ok)
      return 0;
  } else if (napi_get_reference_value(env, st->probe, &fn) != napi_ok) {
    return 0;
  }
  return napi_get_global(env, &global) == napi_ok &&
         napi_call_function(env, global, fn, 0, NULL, &ignored) == napi_ok;
}
