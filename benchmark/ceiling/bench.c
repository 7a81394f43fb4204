/* The benchmarks' ceilings: the C work of a call alone. Each runs the very
 * code a public call runs (for hash(), fh_digest: the low-level structs,
 * the provider's functions or the environment's EVP context; for HMAC, the
 * MAC and the wipe of its working state) in a tight loop over bytes already
 * in memory, with no JS, argument or result work, and returns nanoseconds
 * per call. Not part of the public API. */
#define _XOPEN_SOURCE 700 /* uv.h needs the POSIX types strict C99 hides */

#include <uv.h>

#include "fast_hash.h"

/* Returns ns per call as a JS number, or NULL after throwing when ok is 0. */
static napi_value per_call(napi_env env, int ok, uint64_t elapsed,
                           uint32_t iterations, const char *what) {
  napi_value result;

  if (!ok) {
    fh_throw_openssl(env, what);
    return NULL;
  }
  CALL(env, napi_create_double(env, iterations ? (double)elapsed / iterations : 0,
                               &result));
  return result;
}

/* benchCeiling(algId, data, iterations) -> ns per digest. */
napi_value fh_bench_ceiling(napi_env env, napi_callback_info info) {
  size_t argc = 3, outlen;
  napi_value argv[3];
  void *self;
  fh_state *st;
  fh_spec spec;
  const fh_alg *alg;
  uint32_t iterations, i;
  fh_input in;
  uint8_t md[EVP_MAX_MD_SIZE];
  uint64_t start, elapsed;
  int ok = 1;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  st = self;
  if (!fh_get_spec(env, st, argv[0], NULL, NULL, 0, &spec) ||
      !fh_get_u32(env, argv[2], &iterations) || !fh_get_input(env, argv[1], &in))
    return NULL;
  alg = spec.alg;
  outlen = alg->size <= sizeof(md) ? alg->size : sizeof(md);
  start = uv_hrtime();
  for (i = 0; ok && i < iterations; i++)
    ok = fh_digest(st, NULL, alg, in.data, in.len, md, outlen);
  elapsed = uv_hrtime() - start;
  fh_input_release(&in);
  fh_wipe(md, sizeof(md));
  return per_call(env, ok, elapsed, iterations, "Digest");
}

/* benchCall(algId, data) -> undefined: hash()'s digest of data through a
 * Node-API call that reads no encoding and makes no result. With a
 * Buffer.allocUnsafe of the digest's size beside it, it is the least a call
 * that returns the digest as a new Buffer can cost. */
napi_value fh_bench_call(napi_env env, napi_callback_info info) {
  size_t argc = 2, outlen;
  napi_value argv[2];
  void *self;
  fh_state *st;
  fh_spec spec;
  const fh_alg *alg;
  fh_input in;
  uint8_t md[EVP_MAX_MD_SIZE];
  int ok;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  st = self;
  if (!fh_get_spec(env, st, argv[0], NULL, NULL, 0, &spec) ||
      !fh_get_input(env, argv[1], &in))
    return NULL;
  alg = spec.alg;
  outlen = alg->size <= sizeof(md) ? alg->size : sizeof(md);
  ok = fh_digest(st, NULL, alg, in.data, in.len, md, outlen);
  fh_input_release(&in);
  fh_wipe(md, outlen);
  if (!ok) fh_throw_openssl(env, "Digest");
  return NULL;
}

/* Runs `iterations` HMACs as hmac() does; *elapsed gets the ns they took. */
static int time_hmac(fh_state *st, const fh_alg *alg, const fh_input *key,
                     const fh_input *data, uint32_t iterations,
                     uint64_t *elapsed) {
  fh_hmac_work w;
  uint64_t start = uv_hrtime();
  uint32_t i;
  int ok = 1;

  for (i = 0; ok && i < iterations; i++) {
    ok = fh_hmac_compute(st, alg, key->data, key->len, data->data, data->len,
                         &w);
    fh_hmac_wipe(alg, &w);
  }
  *elapsed = uv_hrtime() - start;
  return ok;
}

/* benchHmac(algId, key, data, iterations) -> ns per MAC, key schedule
 * included: the C work of hmac(). */
napi_value fh_bench_hmac(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4], result = NULL;
  void *self;
  fh_state *st;
  fh_spec spec;
  uint32_t iterations;
  fh_input key, data;
  uint64_t elapsed;
  int ok;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  st = self;
  if (!fh_get_spec(env, st, argv[0], NULL, NULL, FH_SPEC_HMAC, &spec) ||
      !fh_get_u32(env, argv[3], &iterations) || !fh_get_key(env, argv[1], &key))
    return NULL;
  if (fh_get_input(env, argv[2], &data)) {
    ok = time_hmac(st, spec.alg, &key, &data, iterations, &elapsed);
    fh_input_release(&data);
    result = per_call(env, ok, elapsed, iterations, "HMAC");
  }
  fh_input_release(&key);
  return result;
}

/* benchHmacKey(key, data, iterations) -> ns per MAC from the key's
 * precomputed states: the C work of HmacKey#digest. */
napi_value fh_bench_hmac_key(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  void *self;
  const fh_hmac_key *k;
  uint32_t iterations, i;
  fh_input data;
  fh_hmac_work w;
  uint64_t start, elapsed;
  int ok = 1;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if (!fh_hmac_key_get(env, self, argv[0], &k) ||
      !fh_get_u32(env, argv[2], &iterations) || !fh_get_input(env, argv[1], &data))
    return NULL;
  start = uv_hrtime();
  for (i = 0; ok && i < iterations; i++) {
    ok = fh_hmac_key_mac(self, k, &data, &w);
    fh_hmac_wipe(&k->alg, &w);
  }
  elapsed = uv_hrtime() - start;
  fh_input_release(&data);
  return per_call(env, ok, elapsed, iterations, "HMAC");
}
