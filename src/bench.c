/* benchCeiling(): the cost of the digest alone, for the benchmarks' ceiling
 * rows. Runs the very call hash() makes (fh_digest_env: the low-level structs,
 * the provider's functions or the environment's EVP context) in a tight
 * loop over bytes already in memory, with no JS, argument or result work,
 * and returns nanoseconds per digest. Not part of the public API. */
#define _XOPEN_SOURCE 700 /* uv.h needs the POSIX types strict C99 hides */

#include <uv.h>

#include "fast_hash.h"

/* benchCeiling(op, data, iterations) -> ns per digest (op = algId). */
napi_value fh_bench_ceiling(napi_env env, napi_callback_info info) {
  size_t argc = 3, outlen;
  napi_value argv[3], result;
  void *self;
  fh_state *st;
  const fh_alg *alg;
  uint32_t op, iterations, i;
  fh_input in;
  uint8_t md[EVP_MAX_MD_SIZE];
  uint64_t start, elapsed;
  int ok = 1;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  st = self;
  if (!fh_get_u32(env, argv[0], &op) || !fh_alg_at(env, st, op & 0xff, &alg) ||
      !fh_get_u32(env, argv[2], &iterations) || !fh_get_input(env, argv[1], &in))
    return NULL;
  outlen = alg->size <= sizeof(md) ? alg->size : sizeof(md);
  start = uv_hrtime();
  for (i = 0; ok && i < iterations; i++)
    ok = fh_digest_env(st, alg, in.data, in.len, md, outlen);
  elapsed = uv_hrtime() - start;
  fh_input_release(&in);
  fh_wipe(md, sizeof(md));
  if (!ok) {
    fh_throw_openssl(env, "Digest");
    return NULL;
  }
  CALL(env, napi_create_double(env, iterations ? (double)elapsed / iterations : 0,
                               &result));
  return result;
}
