/* hashMany(): every element of an array digested in one native call, so the
 * JS-to-native crossing and the argument unpacking are paid once.
 *
 * Buffer elements cost no heap allocation: each is read in place, digested
 * into a stack buffer and encoded from the stack, as in hash(). */
#include <stdlib.h>

#include "fast_hash.h"

/* Element arguments read from the stack up to this many, else one heap
 * array for the call. */
#define FH_MANY_STACK_ARGS 64

/* One call's batch: count elements in `inputs`, digested as spec says. */
typedef struct {
  fh_state *st;
  fh_spec spec;
  napi_value *inputs;
  size_t count;
  fh_ll_ctx ll;   /* every low-level digest's state: wiped once, at the end */
} fh_batch;

/* Digests one element into md (b->spec.length bytes); 0 with an exception
 * pending. */
static int digest_element(napi_env env, fh_batch *b, napi_value element,
                          uint8_t *md) {
  fh_input in;
  int ok;

  if (!fh_get_input(env, element, &in)) return 0;
  ok = fh_digest(b->st, &b->ll, b->spec.alg, in.data, in.len, md,
                 b->spec.length);
  fh_input_release(&in);
  if (!ok) fh_throw_openssl(env, "Digest");
  return ok;
}

/* Digest i into the i-th slice of the caller's Buffer `into`, which holds
 * exactly count digests. */
static int many_bytes(napi_env env, fh_batch *b, napi_value into) {
  size_t n = b->spec.length, total, i;
  void *out;

  if (!fh_get_output(env, into, &out, &total)) return 0;
  /* count < argc, so count * n <= 2^40 * argc cannot wrap; the division
   * says so without relying on it. */
  if ((n != 0 && b->count > SIZE_MAX / n) || total != b->count * n) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
             "The output must hold %zu digests of %zu bytes", b->count, n);
    return 0;
  }
  for (i = 0; i < b->count; i++)
    if (!digest_element(env, b, b->inputs[i], (uint8_t *)out + i * n)) return 0;
  return 1;
}

/* Every digest's text at a fixed width in one string, for the shim to
 * slice. NULL with an exception pending. */
static napi_value many_text(napi_env env, fh_batch *b) {
  size_t width = fh_encoded_length(b->spec.enc, b->spec.length), i;
  napi_value result = NULL;
  char *text = NULL;
  fh_out md;
  int ok;

  if (b->spec.enc >= FH_ENC_COUNT) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
             "Strings need a text encoding, not encoding id %u",
             (unsigned)b->spec.enc);
    return NULL;
  }
  if (!fh_out_open(env, &md, NULL, b->spec.length)) return NULL;
  ok = (text = malloc(b->count * width + 1)) != NULL;
  if (!ok)
    fh_throw(env, FH_RANGE_ERROR, "ERR_MEMORY_ALLOCATION_FAILED",
             "Failed to allocate %zu bytes of digests", b->count * width);
  for (i = 0; ok && i < b->count; i++) {
    ok = digest_element(env, b, b->inputs[i], md.bytes);
    if (ok) fh_encode(text + i * width, b->spec.enc, md.bytes, md.n);
  }
  if (ok && napi_create_string_latin1(env, text, b->count * width, &result) != napi_ok)
    fh_throw(env, FH_ERROR, "ERR_STRING_TOO_LONG", "The digests do not fit a string");
  if (text != NULL) fh_wipe(text, b->count * width);
  free(text);
  fh_out_close(env, &md, 0, b->spec.enc);
  return result;
}

/* The batch, argv read: without `into` (undefined) the digests come back as
 * one string, with a Buffer `into` digest i fills its i-th slice. */
static napi_value many(napi_env env, fh_state *st, napi_value *argv,
                       size_t argc) {
  fh_batch b;
  napi_valuetype into_type;
  napi_value result = NULL;

  b.st = st;
  b.inputs = argv + 4;
  b.count = argc - 4;
  if (!fh_get_spec(env, st, argv[0], argv[1], argv[2], FH_SPEC_FRESH, &b.spec))
    return NULL;
  if (napi_typeof(env, argv[3], &into_type) != napi_ok) {
    fh_throw(env, FH_TYPE_ERROR, "ERR_INVALID_ARG_TYPE", "Cannot read the output");
  } else if (into_type == napi_undefined) {
    result = many_text(env, &b);
  } else {
    many_bytes(env, &b, argv[3]);
  }
  fh_wipe(&b.ll, sizeof(b.ll));
  return result;
}

/* hashMany(algId, encodingId, outputLength, into, ...inputs): the elements
 * come as arguments, because reading them from an array through Node-API
 * (napi_get_element) costs more than hashing 64 bytes. */
napi_value fh_hash_many(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  napi_value stack_argv[FH_MANY_STACK_ARGS], *argv = stack_argv, result = NULL;
  void *self;

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
  if (napi_get_cb_info(env, info, &argc, argv, NULL, &self) == napi_ok)
    result = many(env, self, argv, argc);
  if (argv != stack_argv) free(argv);
  return result;
}
