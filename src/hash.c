/* The one-shot entry points the JS shim calls with IDs: hash(), hashPrefix()
 * (a hasher whose parts all sit in the shim's stage) and hashFileSync().
 *
 * The hot path allocates nothing: the digest is computed into a stack buffer
 * (or into the caller's Buffer), short strings are UTF-8 encoded on the
 * stack, and the result string is made from a stack buffer. Only a string
 * longer than FH_STACK_STRING_UNITS, or an XOF output longer than
 * EVP_MAX_MD_SIZE, goes to the heap. */
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>

#include "fast_hash.h"

/* hash(algId, encodingId, data, outputLength[, buffer]) and
 * hashPrefix(algId, encodingId, data, n, outputLength[, buffer]) -> string,
 * or fill buffer: the digest of data, or of its first n bytes. A Buffer
 * that is also the input is fine: OpenSSL has read all of the input before
 * it writes the digest. */
static napi_value one_shot(napi_env env, napi_callback_info info, int prefix) {
  size_t argc = 6, at = prefix ? 1 : 0;
  napi_value argv[6];
  void *self;
  fh_spec spec;
  fh_input in;
  fh_out out;
  int ok;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if (!fh_get_spec(env, self, argv[0], argv[1], argv[3 + at], 0, &spec) ||
      !fh_out_open(env, &out, FH_OPTIONAL_ARG(argc, argv, 4 + at), spec.length))
    return NULL;
  ok = prefix ? fh_get_input_prefix(env, argv[2], argv[3], &in)
              : fh_get_input(env, argv[2], &in);
  if (ok) {
    ok = fh_digest(self, NULL, spec.alg, in.data, in.len, out.bytes, out.n);
    fh_input_release(&in);
    if (!ok) fh_throw_openssl(env, "Digest");
  }
  return fh_out_close(env, &out, ok, spec.enc);
}

napi_value fh_hash(napi_env env, napi_callback_info info) {
  return one_shot(env, info, 0);
}

napi_value fh_hash_prefix(napi_env env, napi_callback_info info) {
  return one_shot(env, info, 1);
}

/* Digests the file at `path` into out[0..outlen) on this (the JS) thread,
 * step by step, asking between two whether the environment still runs
 * JS: a worker's terminate() stops the digest there. Returns 1; or 0 with
 * an exception pending. */
static int digest_file_here(napi_env env, fh_state *st, const fh_alg *alg,
                            const char *path, uint8_t *out, size_t outlen) {
  fh_file f;
  int r = FH_FILE_FAILED;

  if (fh_file_open(&f, alg, st->ctx, path)) {
    while ((r = fh_file_step(&f, out, outlen)) == FH_FILE_MORE &&
           fh_env_running(env, st))
      continue;
    fh_file_close(&f);
  }
  if (r == FH_FILE_END) return 1;
  if (r == FH_FILE_MORE) {
    fh_throw(env, FH_ERROR, "ERR_CRYPTO_OPERATION_FAILED",
             "The digest of '%s' was stopped: the environment is ending", path);
  } else if (f.err.code != 0) {
    ERR_clear_error();
    fh_throw_fs(env, &f.err, path);
  } else {
    fh_throw_openssl(env, "Digest");
  }
  return 0;
}

/* hashFileSync(algId, encodingId, path, outputLength[, buffer]) -> string,
 * or fills buffer. */
napi_value fh_hash_file_sync(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  void *self;
  fh_spec spec;
  fh_out out;
  char *path;
  int ok;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if (!fh_get_spec(env, self, argv[0], argv[1], argv[3], FH_SPEC_FRESH, &spec) ||
      !fh_out_open(env, &out, FH_OPTIONAL_ARG(argc, argv, 4), spec.length))
    return NULL;
  path = fh_get_path(env, argv[2]);
  ok = path != NULL &&
       digest_file_here(env, self, spec.alg, path, out.bytes, out.n);
  free(path);
  return fh_out_close(env, &out, ok, spec.enc);
}

/* resolve(name) -> { id, size, xof, block, path } or undefined for an
 * unknown digest. The shim calls it once per name and caches the answer;
 * path ('low-level', 'provider' or 'evp': how hash() computes it in this
 * environment) is for tests and benchmarks. */
napi_value fh_resolve(napi_env env, napi_callback_info info) {
  size_t argc = 1, len;
  napi_value argv[1], result, value;
  void *data;
  fh_state *st;
  const fh_alg *alg;
  char name[128];
  int id;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &data));
  st = data;
  CALL(env, napi_get_value_string_utf8(env, argv[0], name, sizeof(name), &len));
  /* Too long to be a digest name, or cut short at a NUL that OpenSSL would
   * stop at ("sha256\0junk" must not mean sha256). */
  if (len + 1 >= sizeof(name) || strlen(name) != len) return NULL;
  id = fh_alg_resolve(st, name);
  if (id < 0) return NULL;
  alg = &st->algs[id];
  CALL(env, napi_create_object(env, &result));
  CALL(env, napi_create_uint32(env, (uint32_t)id, &value));
  CALL(env, napi_set_named_property(env, result, "id", value));
  CALL(env, napi_create_uint32(env, alg->size, &value));
  CALL(env, napi_set_named_property(env, result, "size", value));
  CALL(env, napi_create_uint32(env, alg->block, &value));
  CALL(env, napi_set_named_property(env, result, "block", value));
  CALL(env, napi_get_boolean(env, alg->xof, &value));
  CALL(env, napi_set_named_property(env, result, "xof", value));
  CALL(env, napi_create_string_utf8(env, fh_digest_path(st, alg),
                                    NAPI_AUTO_LENGTH, &value));
  CALL(env, napi_set_named_property(env, result, "path", value));
  return result;
}
