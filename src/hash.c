/* hash(): the one-shot digest entry points the JS shim calls with IDs.
 *
 * The hot path allocates nothing: the digest is computed into a stack buffer
 * (or into the caller's Buffer), short strings are UTF-8 encoded on the
 * stack, and the result string is made from a stack buffer. Only a string
 * longer than FH_STACK_STRING_UNITS, or an XOF output longer than
 * EVP_MAX_MD_SIZE, goes to the heap. */
#include <stdlib.h>
#include <string.h>

#include "fast_hash.h"

/* hash(algId, encodingId, data, outputLength[, buffer]) -> string, or fills
 * buffer. The length is read only for XOFs, every other digest has exactly
 * its own size. */
napi_value fh_hash(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5], into, result = NULL;
  void *data;
  fh_state *st;
  fh_encoding enc;
  const fh_alg *alg;
  size_t outlen;
  fh_input in;
  uint8_t stack_md[EVP_MAX_MD_SIZE], *md = stack_md;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &data));
  st = data;
  if (!fh_get_alg(env, st, argv[0], &alg) || !fh_get_encoding(env, argv[1], &enc))
    return NULL;
  outlen = alg->size;
  if (alg->xof && !fh_get_size(env, argv[3], &outlen)) return NULL;
  if (!fh_get_input(env, argv[2], &in)) return NULL;
  into = FH_OPTIONAL_ARG(argc, argv, 4);
  if (into != NULL) {
    /* Bytes wanted: the digest goes straight into the caller's Buffer (no
     * copy to make and wipe; OpenSSL has read all the input before it writes
     * the digest, so even a Buffer that is also the input is fine). */
    if (fh_get_output_of(env, into, outlen, &md) &&
        !fh_digest_env(st, alg, in.data, in.len, md, outlen))
      fh_throw_openssl(env, "Digest");
    fh_input_release(&in);
    return NULL;
  }
  if (outlen > sizeof(stack_md)) {
    md = malloc(outlen);
    if (md == NULL) {
      fh_input_release(&in);
      fh_throw(env, FH_RANGE_ERROR, "ERR_MEMORY_ALLOCATION_FAILED",
               "Failed to allocate %zu bytes for the digest", outlen);
      return NULL;
    }
  }
  if (fh_digest_env(st, alg, in.data, in.len, md, outlen))
    fh_make_string(env, enc, md, outlen, &result);
  else
    fh_throw_openssl(env, "Digest");
  fh_input_release(&in);
  fh_wipe(md, outlen);
  if (md != stack_md) free(md);
  return result;
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
  CALL(env, napi_create_string_utf8(env,
      alg->kind != FH_KIND_EVP ? "low-level"
      : st->direct[id].ctx != NULL ? "provider" : "evp", NAPI_AUTO_LENGTH, &value));
  CALL(env, napi_set_named_property(env, result, "path", value));
  return result;
}
