/* Argument readers. The JS shim checks every rule first; these re-check
 * what protects memory, so a direct call into the binding with anything at
 * all throws instead of crashing. */
#include <stdlib.h>
#include <string.h>

#include "fast_hash.h"

/* Bytes per element of each napi_typedarray_type, in enum order. */
static const uint8_t element_size[] = {
  1, /* napi_int8_array */
  1, /* napi_uint8_array */
  1, /* napi_uint8_clamped_array */
  2, /* napi_int16_array */
  2, /* napi_uint16_array */
  4, /* napi_int32_array */
  4, /* napi_uint32_array */
  4, /* napi_float32_array */
  8, /* napi_float64_array */
  8, /* napi_bigint64_array */
  8, /* napi_biguint64_array */
};

static int get_string(napi_env env, napi_value value, fh_input *in) {
  size_t units, cap;
  napi_status status;

  /* A UTF-16 unit becomes at most 3 UTF-8 bytes (a surrogate pair, 2 units,
   * becomes 4), so short strings always fit the stack buffer. */
  CALL(env, napi_get_value_string_utf16(env, value, NULL, 0, &units));
  if (units <= FH_STACK_STRING_UNITS) {
    CALL(env, napi_get_value_string_utf8(env, value, (char *)in->stack,
                                         sizeof(in->stack), &in->len));
    in->data = in->stack;
    return 1;
  }
  /* Long strings: size the copy by the same bound, so the string is walked
   * once; untouched pages of a large allocation cost nothing. Only when that
   * much cannot be had, walk it for its exact UTF-8 length. */
  cap = 3 * units + 1;
  in->heap = malloc(cap);
  if (in->heap == NULL) {
    CALL(env, napi_get_value_string_utf8(env, value, NULL, 0, &cap));
    cap += 1;
    in->heap = malloc(cap);
  }
  if (in->heap == NULL) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_MEMORY_ALLOCATION_FAILED",
             "Failed to allocate %zu bytes to encode a string", cap);
    return 0;
  }
  status = napi_get_value_string_utf8(env, value, (char *)in->heap, cap,
                                      &in->len);
  if (status != napi_ok) {
    fh_input_release(in);
    fh_throw_napi(env, status);
    return 0;
  }
  in->data = in->heap;
  return 1;
}

static int get_view(napi_env env, napi_value value, fh_input *in) {
  napi_typedarray_type type;
  size_t length;
  void *data = NULL;
  bool is_typedarray, is_dataview;

  /* Reached only if napi_get_buffer_info ever narrows to Uint8Array. */
  CALL(env, napi_is_typedarray(env, value, &is_typedarray));
  if (is_typedarray) {
    CALL(env, napi_get_typedarray_info(env, value, &type, &length, &data, NULL,
                                       NULL));
    if ((size_t)type >= sizeof(element_size)) {
      fh_throw(env, FH_TYPE_ERROR, "ERR_INVALID_ARG_TYPE",
               "Unsupported TypedArray kind %d", (int)type);
      return 0;
    }
    in->data = data;
    in->len = length * element_size[type];
    return 1;
  }
  CALL(env, napi_is_dataview(env, value, &is_dataview));
  if (is_dataview) {
    CALL(env, napi_get_dataview_info(env, value, &in->len, &data, NULL, NULL));
    in->data = data;
    return 1;
  }
  fh_throw(env, FH_TYPE_ERROR, "ERR_INVALID_ARG_TYPE",
           "The data must be a string, TypedArray or DataView");
  return 0;
}

/* Whether napi_get_buffer_info answers a value that is not an
 * ArrayBufferView with a status. Node 18 and Node 20 before 20.20 assert
 * instead (the process aborts), so there a view is recognised first. The
 * answer depends only on the Node binary, so it is one value per process,
 * written by every environment's init with the same result. */
static int buffer_info_checks;

/* Relaxed atomic access to it: GCC's and clang's builtins; elsewhere (MSVC)
 * a volatile access, which is atomic for an aligned int. */
#if defined(__GNUC__) || defined(__clang__)
#define FH_STORE_RELAXED(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define FH_LOAD_RELAXED(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#else
#define FH_STORE_RELAXED(p, v) (*(volatile int *)(p) = (v))
#define FH_LOAD_RELAXED(p) (*(volatile int *)(p))
#endif

void fh_args_init(napi_env env) {
  const napi_node_version *v;
  int checks = 0;

  if (napi_get_node_version(env, &v) == napi_ok)
    checks = v->major >= 22 || (v->major == 20 && v->minor >= 20);
  FH_STORE_RELAXED(&buffer_info_checks, checks);
}

/* napi_get_buffer_info where it cannot abort: napi_ok only for views. */
static int buffer_info(napi_env env, napi_value value, void **data, size_t *len) {
  bool is_view;

  if (!FH_LOAD_RELAXED(&buffer_info_checks) &&
      (napi_is_buffer(env, value, &is_view) != napi_ok || !is_view))
    return 0;
  return napi_get_buffer_info(env, value, data, len) == napi_ok;
}

int fh_get_input(napi_env env, napi_value value, fh_input *in) {
  napi_valuetype type;
  void *data;

  fh_input_empty(in);
  /* Node answers napi_get_buffer_info for every ArrayBufferView with its
   * viewed bytes, and it is the cheapest query: views, the common case, take
   * one call and no typeof. */
  if (buffer_info(env, value, &data, &in->len)) {
    in->data = data;
    return 1;
  }
  CALL(env, napi_typeof(env, value, &type));
  if (type == napi_string) return get_string(env, value, in);
  if (type == napi_object) return get_view(env, value, in);
  fh_throw(env, FH_TYPE_ERROR, "ERR_INVALID_ARG_TYPE",
           "The data must be a string, TypedArray or DataView");
  return 0;
}

void fh_input_empty(fh_input *in) {
  in->data = NULL;
  in->len = 0;
  in->heap = NULL;
  in->secret = 0;
}

int fh_get_key(napi_env env, napi_value value, fh_input *in) {
  if (!fh_get_input(env, value, in)) return 0;
  in->secret = 1;
  return 1;
}

void fh_input_release(fh_input *in) {
  if (in->secret && (in->heap != NULL || in->data == in->stack))
    fh_wipe((uint8_t *)in->data, in->len);
  free(in->heap);
  in->heap = NULL;
}

int fh_get_u32(napi_env env, napi_value value, uint32_t *out) {
  CALL(env, napi_get_value_uint32(env, value, out));
  return 1;
}

int fh_get_output(napi_env env, napi_value value, void **data, size_t *len) {
  /* One call where Node answers it for Buffers (any ArrayBufferView) and
   * refuses anything else. */
  if (buffer_info(env, value, data, len)) return 1;
  fh_throw(env, FH_TYPE_ERROR, "ERR_INVALID_ARG_TYPE",
           "The output must be a Buffer");
  return 0;
}

int fh_get_output_of(napi_env env, napi_value value, size_t n, uint8_t **data) {
  void *out;
  size_t len;

  if (!fh_get_output(env, value, &out, &len)) return 0;
  if (len != n) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
             "The output Buffer must hold %zu bytes, not %zu", n, len);
    return 0;
  }
  *data = out;
  return 1;
}

int fh_get_size(napi_env env, napi_value value, size_t *out) {
  int64_t n;

  CALL(env, napi_get_value_int64(env, value, &n));
  if (n < 0 || (uint64_t)n > FH_MAX_OUTPUT) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
             "The output length must be >= 0 and <= %llu. Received %lld",
             (unsigned long long)FH_MAX_OUTPUT, (long long)n);
    return 0;
  }
  *out = (size_t)n;
  return 1;
}

/* The digest for an algorithm ID: IDs are only ever handed out by
 * resolve(), but a direct call may pass any number. */
static int get_alg(napi_env env, fh_state *st, napi_value value, int flags,
                   const fh_alg **out) {
  uint32_t id;

  if (!fh_get_u32(env, value, &id)) return 0;
  if (id >= st->nalgs) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
             "Unknown algorithm id %u", (unsigned)id);
    return 0;
  }
  fh_state_check_fips(st, flags & FH_SPEC_FRESH);
  *out = &st->algs[id];
  if ((*out)->md == NULL) {
    fh_throw(env, FH_TYPE_ERROR, "ERR_CRYPTO_INVALID_DIGEST",
             "Invalid digest: not allowed in FIPS mode");
    return 0;
  }
  if (!(flags & FH_SPEC_HMAC) || fh_hmac_capable(*out)) return 1;
  fh_throw(env, FH_TYPE_ERROR, "ERR_CRYPTO_INVALID_DIGEST",
           "Invalid digest for HMAC");
  return 0;
}

int fh_get_encoding(napi_env env, napi_value value, fh_encoding *out) {
  uint32_t id;

  if (!fh_get_u32(env, value, &id)) return 0;
  if (id < FH_ENC_COUNT || id == FH_ENC_BUFFER) {
    *out = (fh_encoding)id;
    return 1;
  }
  fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
           "Unknown output encoding id %u", (unsigned)id);
  return 0;
}

int fh_get_spec(napi_env env, fh_state *st, napi_value algv, napi_value encv,
                napi_value lenv, int flags, fh_spec *spec) {
  if (!get_alg(env, st, algv, flags, &spec->alg)) return 0;
  spec->enc = FH_ENC_BUFFER;
  if (encv != NULL && !fh_get_encoding(env, encv, &spec->enc)) return 0;
  spec->length = spec->alg->size;
  return !spec->alg->xof || lenv == NULL || fh_get_size(env, lenv, &spec->length);
}

int fh_get_input_prefix(napi_env env, napi_value value, napi_value nv,
                        fh_input *in) {
  size_t n;

  if (!fh_get_size(env, nv, &n) || !fh_get_input(env, value, in)) return 0;
  if (n <= in->len) {
    in->len = n;
    return 1;
  }
  fh_input_release(in);
  fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
           "The length %zu is more than the data's %zu bytes", n, in->len);
  return 0;
}

/* A path from JS (a string, or a Buffer of raw bytes) as a C string on the
 * heap. The shim refuses paths with NUL bytes (a C string ends at the
 * first). */
char *fh_get_path(napi_env env, napi_value value) {
  napi_valuetype type;
  size_t len;
  void *bytes;
  char *path;

  CALL(env, napi_typeof(env, value, &type));
  if (type == napi_string) {
    CALL(env, napi_get_value_string_utf8(env, value, NULL, 0, &len));
    if ((path = malloc(len + 1)) != NULL)
      napi_get_value_string_utf8(env, value, path, len + 1, &len);
  } else {
    if (!fh_get_output(env, value, &bytes, &len)) return NULL;
    if ((path = malloc(len + 1)) != NULL) {
      if (len != 0) memcpy(path, bytes, len); /* an empty Buffer's data may be NULL */
      path[len] = '\0';
    }
  }
  if (path == NULL)
    fh_throw(env, FH_RANGE_ERROR, "ERR_MEMORY_ALLOCATION_FAILED",
             "Failed to allocate memory for a path");
  return path;
}
