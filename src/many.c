/* hashMany(): every element of an array digested in one native call, so the
 * JS-to-native crossing and the argument unpacking are paid once.
 *
 * Buffer elements cost no heap allocation: each is read in place, digested
 * into a stack buffer and encoded from the stack, as in hash(). */
#include <openssl/crypto.h>

#include "fast_hash.h"

/* Digests inputs[i] into md (outlen bytes); 0 with an exception pending. */
static int digest_element(napi_env env, fh_state *st, const fh_alg *alg,
                          napi_value inputs, uint32_t i, uint8_t *md,
                          size_t outlen) {
  napi_value element;
  fh_input in;
  int ok;

  CALL(env, napi_get_element(env, inputs, i, &element));
  if (!fh_get_input(env, element, &in)) return 0;
  ok = fh_digest(st->ctx, alg, in.data, in.len, md, outlen);
  fh_input_release(&in);
  if (!ok) fh_throw_openssl(env, "Digest");
  return ok;
}

/* Fills the i-th slice of buffer.length / inputs.length bytes. */
static int many_into(napi_env env, fh_state *st, const fh_alg *alg,
                     napi_value inputs, uint32_t count, napi_value into) {
  void *out;
  size_t total, outlen;
  uint32_t i;

  if (!fh_get_output(env, into, &out, &total)) return 0;
  outlen = count ? total / count : 0;
  if (count && total % count) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
             "The output is not a whole number of digests");
    return 0;
  }
  if (!fh_output_length_ok(env, alg, outlen)) return 0;
  for (i = 0; i < count; i++)
    if (!digest_element(env, st, alg, inputs, i, (uint8_t *)out + i * outlen,
                        outlen))
      return 0;
  return 1;
}

/* hashMany(op, inputs, outputLength[, buffer]) -> string[], or fills the
 * buffer digest after digest; op = algId | encodingId << 8. */
napi_value fh_hash_many(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4], results, value;
  void *self;
  fh_state *st;
  const fh_alg *alg;
  uint32_t op, count, i;
  size_t outlen;
  bool is_array;
  uint8_t md[EVP_MAX_MD_SIZE];
  int ok = 1;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  st = self;
  if (!fh_get_u32(env, argv[0], &op) || !fh_alg_at(env, st, op & 0xff, &alg))
    return NULL;
  CALL(env, napi_is_array(env, argv[1], &is_array));
  if (!is_array) {
    fh_throw(env, FH_TYPE_ERROR, "ERR_INVALID_ARG_TYPE",
             "The inputs must be an Array");
    return NULL;
  }
  CALL(env, napi_get_array_length(env, argv[1], &count));
  if (argc > 3) {
    many_into(env, st, alg, argv[1], count, argv[3]);
    return NULL;
  }
  outlen = alg->size;
  if (alg->xof && !fh_get_size(env, argv[2], &outlen)) return NULL;
  /* Longer XOF outputs come with a Buffer from JS. */
  if (outlen > sizeof(md)) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
             "Output length %zu is too long for hashMany strings", outlen);
    return NULL;
  }
  CALL(env, napi_create_array_with_length(env, count, &results));
  for (i = 0; ok && i < count; i++) {
    ok = digest_element(env, st, alg, argv[1], i, md, outlen) &&
         fh_make_string(env, (fh_encoding)(op >> 8), md, outlen, &value) &&
         napi_set_element(env, results, i, value) == napi_ok;
  }
  OPENSSL_cleanse(md, outlen);
  if (!ok) {
    fh_throw(env, FH_ERROR, "ERR_NAPI_CALL_FAILED", "hashMany failed at %u",
             (unsigned)(i - 1));
    return NULL;
  }
  return results;
}
