/* Throwing JS errors: every error the addon raises carries a Node-style code. */
/* uv.h needs the POSIX types (pthread_rwlock_t, addrinfo) that strict C99
 * hides. */
#define _XOPEN_SOURCE 700

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <openssl/err.h>
#include <uv.h>

#include "fast_hash.h"

static bool exception_pending(napi_env env) {
  bool pending = false;
  return napi_is_exception_pending(env, &pending) == napi_ok && pending;
}

void fh_throw(napi_env env, fh_error_class cls, const char *code,
              const char *fmt, ...) {
  char message[512];
  va_list ap;
  napi_value js_code, js_message, error;
  napi_status status;

  if (exception_pending(env)) return;
  va_start(ap, fmt);
  vsnprintf(message, sizeof(message), fmt, ap);
  va_end(ap);
  if (napi_create_string_utf8(env, code, NAPI_AUTO_LENGTH, &js_code) != napi_ok ||
      napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &js_message) != napi_ok)
    return;
  switch (cls) {
    case FH_TYPE_ERROR:
      status = napi_create_type_error(env, js_code, js_message, &error);
      break;
    case FH_RANGE_ERROR:
      status = napi_create_range_error(env, js_code, js_message, &error);
      break;
    default:
      status = napi_create_error(env, js_code, js_message, &error);
      break;
  }
  if (status == napi_ok) napi_throw(env, error);
}

void fh_throw_napi(napi_env env, napi_status status) {
  const napi_extended_error_info *info = NULL;
  const char *message = NULL;

  /* Read the last error before any other Node-API call overwrites it. */
  if (napi_get_last_error_info(env, &info) == napi_ok && info != NULL)
    message = info->error_message;
  if (message == NULL) message = "Node-API call failed";
  switch (status) {
    case napi_invalid_arg:
    case napi_object_expected:
    case napi_string_expected:
    case napi_number_expected:
    case napi_arraybuffer_expected:
    case napi_detachable_arraybuffer_expected:
      fh_throw(env, FH_TYPE_ERROR, "ERR_INVALID_ARG_TYPE", "%s", message);
      break;
    default:
      fh_throw(env, FH_ERROR, "ERR_NAPI_CALL_FAILED", "%s (status %d)",
               message, (int)status);
      break;
  }
}

/* Node names OpenSSL errors ERR_OSSL_<LIB>_<REASON>; the libraries a digest
 * can fail in are few. */
static const struct {
  int lib;
  const char *name;
} openssl_libs[] = {
  { ERR_LIB_EVP, "EVP_" },
  { ERR_LIB_PROV, "PROV_" },
  { ERR_LIB_CRYPTO, "CRYPTO_" },
  { ERR_LIB_OBJ, "OBJ_" },
};

void fh_throw_openssl(napi_env env, const char *what) {
  unsigned long err = ERR_get_error();
  const char *reason = err ? ERR_reason_error_string(err) : NULL;
  const char *lib = "";
  char code[128], text[256];
  size_t n, i;

  ERR_clear_error();
  if (reason == NULL) {
    fh_throw(env, FH_ERROR, "ERR_CRYPTO_OPERATION_FAILED", "%s failed", what);
    return;
  }
  for (i = 0; i < sizeof(openssl_libs) / sizeof(openssl_libs[0]); i++)
    if (openssl_libs[i].lib == ERR_GET_LIB(err)) lib = openssl_libs[i].name;
  n = (size_t)snprintf(code, sizeof(code), "ERR_OSSL_%s", lib);
  for (; *reason != '\0' && n + 1 < sizeof(code); reason++, n++)
    code[n] = isalnum((unsigned char)*reason)
                ? (char)toupper((unsigned char)*reason)
                : '_';
  code[n] = '\0';
  ERR_error_string_n(err, text, sizeof(text));
  fh_throw(env, FH_ERROR, code, "%s failed: %s", what, text);
}

void fh_throw_fs(napi_env env, const fh_fs_error *err, const char *path) {
  napi_value error;

  if (fh_fs_error_value(env, err, path, &error)) napi_throw(env, error);
}

int fh_fs_error_value(napi_env env, const fh_fs_error *err, const char *path,
                      napi_value *result) {
  char message[1024];
  napi_value code, text, value;
  const char *name = uv_err_name(err->code);

  /* As fs words it: "ENOENT: no such file or directory, open '/x'". */
  snprintf(message, sizeof(message), "%s: %s, %s '%s'", name,
           uv_strerror(err->code), err->syscall, path);
  CALL(env, napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &code));
  CALL(env, napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &text));
  CALL(env, napi_create_error(env, code, text, result));
  CALL(env, napi_create_int32(env, err->code, &value));
  CALL(env, napi_set_named_property(env, *result, "errno", value));
  CALL(env, napi_create_string_utf8(env, err->syscall, NAPI_AUTO_LENGTH, &value));
  CALL(env, napi_set_named_property(env, *result, "syscall", value));
  CALL(env, napi_create_string_utf8(env, path, NAPI_AUTO_LENGTH, &value));
  CALL(env, napi_set_named_property(env, *result, "path", value));
  return 1;
}
