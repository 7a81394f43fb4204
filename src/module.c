/* Module init and export table. Each environment (main thread, each worker)
 * gets its own fh_state as Node-API instance data, handed to every function
 * as its callback data, so calls never look it up. */
#include "fast_hash.h"

static void finalize_state(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  fh_hashers_free(data);
  fh_state_free(data);
}

/* { hex, base64, base64url, latin1, buffer } -> the IDs the entry points
 * take: the shim learns them here rather than repeating the enum. */
static napi_value encoding_ids(napi_env env) {
  napi_value obj, id;
  int i;

  CALL(env, napi_create_object(env, &obj));
  for (i = 0; i < FH_ENC_COUNT; i++) {
    CALL(env, napi_create_uint32(env, (uint32_t)i, &id));
    CALL(env, napi_set_named_property(env, obj, fh_encoding_names[i], id));
  }
  CALL(env, napi_create_uint32(env, FH_ENC_BUFFER, &id));
  CALL(env, napi_set_named_property(env, obj, "buffer", id));
  return obj;
}

/* forceEvp(): every digest of this environment through EVP, as in FIPS mode
 * (tests check the paths against each other with it). The shim calls it
 * right after loading, before any name is resolved: a slot's path is set
 * when it is resolved. */
static napi_value force_evp(napi_env env, napi_callback_info info) {
  void *data;
  fh_state *st;

  CALL(env, napi_get_cb_info(env, info, NULL, NULL, NULL, &data));
  st = data;
  if (st->nalgs != 0) {
    fh_throw(env, FH_ERROR, "ERR_INVALID_STATE",
             "forceEvp() must come before any digest is resolved");
    return NULL;
  }
  st->force_evp = 1;
  st->evp_only = 1;
  return NULL;
}

NAPI_MODULE_INIT() {
  fh_state *st = fh_state_new();
  napi_value encodings, evp_only;

  fh_args_init(env);
  if (st == NULL) {
    fh_throw(env, FH_ERROR, "ERR_MEMORY_ALLOCATION_FAILED",
             "fast-hash: cannot allocate its per-environment state");
    return NULL;
  }
  if (napi_set_instance_data(env, st, finalize_state, NULL) != napi_ok) {
    fh_state_free(st);
    fh_throw(env, FH_ERROR, "ERR_NAPI_CALL_FAILED",
             "fast-hash: cannot attach its per-environment state");
    return NULL;
  }
  encodings = encoding_ids(env);
  if (encodings == NULL) return NULL;
  CALL(env, napi_get_boolean(env, st->evp_only, &evp_only));

  napi_property_descriptor props[] = {
    { "hash", NULL, fh_hash, NULL, NULL, NULL, napi_enumerable, st },
    { "resolve", NULL, fh_resolve, NULL, NULL, NULL, napi_enumerable, st },
    { "hmac", NULL, fh_hmac, NULL, NULL, NULL, napi_enumerable, st },
    { "hmacVerify", NULL, fh_hmac_verify, NULL, NULL, NULL, napi_enumerable, st },
    { "hmacKeyNew", NULL, fh_hmac_key_new, NULL, NULL, NULL, napi_enumerable, st },
    { "hmacKeyDigest", NULL, fh_hmac_key_digest, NULL, NULL, NULL, napi_enumerable, st },
    { "hmacKeyVerify", NULL, fh_hmac_key_verify, NULL, NULL, NULL, napi_enumerable, st },
    { "hmacKeyDestroy", NULL, fh_hmac_key_destroy, NULL, NULL, NULL, napi_enumerable, st },
    { "hasherNew", NULL, fh_hasher_new, NULL, NULL, NULL, napi_enumerable, st },
    { "hasherUpdate", NULL, fh_hasher_update, NULL, NULL, NULL, napi_enumerable, st },
    { "hasherDigest", NULL, fh_hasher_digest, NULL, NULL, NULL, napi_enumerable, st },
    { "hasherCopy", NULL, fh_hasher_copy, NULL, NULL, NULL, napi_enumerable, st },
    { "hasherFree", NULL, fh_hasher_free, NULL, NULL, NULL, napi_enumerable, st },
    { "hasherUpdateAsync", NULL, fh_hasher_update_async, NULL, NULL, NULL, napi_enumerable, st },
    { "hmacKeyHasher", NULL, fh_hmac_key_hasher, NULL, NULL, NULL, napi_enumerable, st },
    { "hashPrefix", NULL, fh_hash_prefix, NULL, NULL, NULL, napi_enumerable, st },
    { "hasherStoreStats", NULL, fh_hasher_store_stats, NULL, NULL, NULL, napi_enumerable, st },
    { "hashMany", NULL, fh_hash_many, NULL, NULL, NULL, napi_enumerable, st },
    { "hashFileSync", NULL, fh_hash_file_sync, NULL, NULL, NULL, napi_enumerable, st },
    { "hashAsync", NULL, fh_hash_async, NULL, NULL, NULL, napi_enumerable, st },
    { "hmacAsync", NULL, fh_hmac_async, NULL, NULL, NULL, napi_enumerable, st },
    { "hashFile", NULL, fh_hash_file, NULL, NULL, NULL, napi_enumerable, st },
    { "forceEvp", NULL, force_evp, NULL, NULL, NULL, napi_enumerable, st },
    { "encodedLength", NULL, fh_encoded_length_js, NULL, NULL, NULL, napi_enumerable, st },
#ifdef FH_BENCH
    { "benchCeiling", NULL, fh_bench_ceiling, NULL, NULL, NULL, napi_enumerable, st },
    { "benchCall", NULL, fh_bench_call, NULL, NULL, NULL, napi_enumerable, st },
    { "benchHmac", NULL, fh_bench_hmac, NULL, NULL, NULL, napi_enumerable, st },
    { "benchHmacKey", NULL, fh_bench_hmac_key, NULL, NULL, NULL, napi_enumerable, st },
#endif
    { "encodings", NULL, NULL, NULL, NULL, encodings, napi_enumerable, NULL },
    { "evpOnly", NULL, NULL, NULL, NULL, evp_only, napi_enumerable, NULL },
  };
  CALL(env, napi_define_properties(env, exports, sizeof(props) / sizeof(props[0]),
                                   props));
  return exports;
}
