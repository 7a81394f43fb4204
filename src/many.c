/* hashMany(): every element of an array digested in one native call, so the
 * JS-to-native crossing and the argument unpacking are paid once.
 *
 * Buffer elements cost no heap allocation: each is read in place, digested
 * into a stack buffer and encoded from the stack, as in hash(). */
#include <stdlib.h>

#include "fast_hash.h"

/* Digests one element into md (outlen bytes) in the batch's context `ll`;
 * 0 with an exception pending. */
static int digest_element(napi_env env, fh_state *st, const fh_alg *alg,
                          fh_ll_ctx *ll, napi_value element, uint8_t *md,
                          size_t outlen) {
  fh_input in;
  int ok;

  if (!fh_get_input(env, element, &in)) return 0;
  ok = fh_digest_env_in(st, ll, alg, in.data, in.len, md, outlen);
  fh_input_release(&in);
  if (!ok) fh_throw_openssl(env, "Digest");
  return ok;
}

/* Element arguments read from the stack up to this many, else one heap
 * array for the call. */
#define FH_MANY_STACK_ARGS 64

/* hashMany(op, outputLength, into, ...inputs): the elements come as
 * arguments, because reading them from an array through Node-API
 * (napi_get_element) costs more than hashing 64 bytes. Without `into`
 * (undefined), the digests come back as one string, each digest's text at a
 * fixed width for the shim to slice; with a Buffer `into`, digest i fills its
 * i-th slice. hashMany(algId, encodingId, outputLength, into, ...inputs). */
napi_value fh_hash_many(napi_env env, napi_callback_info info) {
  size_t argc = 0, count = 0, outlen, width = 0, i;
  napi_value stack_argv[FH_MANY_STACK_ARGS], *argv = stack_argv, result = NULL;
  napi_valuetype into_type;
  void *self, *out = NULL;
  fh_state *st;
  const fh_alg *alg;
  fh_encoding enc;
  uint8_t md[EVP_MAX_MD_SIZE];
  fh_ll_ctx ll;
  char *text = NULL;
  int ok = 1;

  CALL(env, napi_get_cb_info(env, info, &argc, NULL, NULL, NULL));
  if (argc < 4) {
    fh_throw(env, FH_TYPE_ERROR, "ERR_MISSING_ARGS", "hashMany needs 4 arguments");
    return NULL;
  }
  if (argc > FH_MANY_STACK_ARGS && (argv = malloc(argc * sizeof(*argv))) == NULL) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_MEMORY_ALLOCATION_FAILED",
             "Failed to allocate %zu arguments", argc);
    return NULL;
  }
  if (napi_get_cb_info(env, info, &argc, argv, NULL, &self) != napi_ok)
    goto done;
  fh_state_follow_fips(st = self);
  if (!fh_get_alg(env, st, argv[0], &alg) || !fh_get_encoding(env, argv[1], &enc) ||
      napi_typeof(env, argv[3], &into_type) != napi_ok)
    goto done;
  count = argc - 4;
  outlen = alg->size;
  if (alg->xof && !fh_get_size(env, argv[2], &outlen)) goto done;
  if (into_type != napi_undefined) {
    size_t total;
    if (!fh_get_output(env, argv[3], &out, &total)) goto done;
    /* count <= argc, so count * outlen <= 2^40 * argc cannot wrap; the
     * division says so without relying on it. */
    if ((outlen != 0 && count > SIZE_MAX / outlen) || total != count * outlen) {
      fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
               "The output must hold %zu digests of %zu bytes", count, outlen);
      goto done;
    }
  } else if (enc >= FH_ENC_COUNT) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
             "Strings need a text encoding, not encoding id %u", (unsigned)enc);
    goto done;
  } else if (outlen > sizeof(md)) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
             "Output length %zu is too long for hashMany strings", outlen);
    goto done;
  } else {
    width = fh_encoded_length(enc, outlen);
    if ((text = malloc(count * width + 1)) == NULL) {
      fh_throw(env, FH_RANGE_ERROR, "ERR_MEMORY_ALLOCATION_FAILED",
               "Failed to allocate %zu bytes of digests", count * width);
      goto done;
    }
  }
  for (i = 0; ok && i < count; i++) {
    uint8_t *dst = out != NULL ? (uint8_t *)out + i * outlen : md;
    ok = digest_element(env, st, alg, &ll, argv[4 + i], dst, outlen);
    if (ok && text != NULL) fh_encode(text + i * width, enc, md, outlen);
  }
  if (ok && text != NULL) {
    if (napi_create_string_latin1(env, text, count * width, &result) != napi_ok)
      fh_throw(env, FH_ERROR, "ERR_STRING_TOO_LONG", "The digests do not fit a string");
  }
done:
  /* One wipe for the whole batch: each digest's Init overwrote the last. */
  fh_wipe(&ll, sizeof(ll));
  fh_wipe(md, sizeof(md));
  if (text != NULL) {
    fh_wipe(text, count * width);
    free(text);
  }
  if (argv != stack_argv) free(argv);
  return result;
}
