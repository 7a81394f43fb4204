/* HMAC (RFC 2104) one-shots, built on the digest states of digest.c rather
 * than on OpenSSL's HMAC or EVP_MAC objects, which allocate per call.
 *
 * The hot path allocates nothing for MD5, SHA-1 and SHA-2: the key block,
 * the working state and the inner digest live on the stack and are wiped on
 * every exit. Other digests run in the environment's EVP context. */
#include <string.h>

#include <openssl/crypto.h>

#include "fast_hash.h"

static void xor_block(uint8_t *block, size_t n, uint8_t pad) {
  size_t i;

  for (i = 0; i < n; i++) block[i] ^= pad;
}

void fh_hmac_begin(fh_hmac_work *w) {
  w->keyed = 0;
  w->md.open = 0;
}

int fh_hmac_key_block(fh_state *st, const fh_alg *alg, const uint8_t *key,
                      size_t keylen, fh_hmac_work *w) {
  size_t n = alg->block;
  int ok = 1;

  w->keyed = 1;
  memset(w->bytes, 0, n);
  if (keylen > n)
    ok = fh_digest(st, NULL, alg, key, keylen, w->bytes, alg->size);
  else if (keylen > 0)
    memcpy(w->bytes, key, keylen);
  xor_block(w->bytes, n, 0x36);
  return ok;
}

void fh_hmac_to_opad(const fh_alg *alg, fh_hmac_work *w) {
  xor_block(w->bytes, alg->block, 0x36 ^ 0x5c);
}

int fh_hmac_keyed(const fh_alg *alg, const fh_hmac_work *w, fh_md *m,
                  EVP_MD_CTX *lent) {
  return fh_md_start(m, alg, lent) && fh_md_update(m, w->bytes, alg->block);
}

void fh_hmac_wipe(const fh_alg *alg, fh_hmac_work *w) {
  /* The digests follow the key block; before a key block is made only they
   * were written. */
  if (w->keyed)
    fh_wipe(w->bytes, alg->block + 2 * alg->size);
  else
    fh_wipe(FH_HMAC_INNER(w, alg), 2 * alg->size);
  fh_md_close(&w->md);
}

int fh_hmac_compute(fh_state *st, const fh_alg *alg, const uint8_t *key,
                    size_t keylen, const uint8_t *data, size_t len,
                    fh_hmac_work *w) {
  EVP_MD_CTX *lent = st != NULL ? st->ctx : NULL;
  uint8_t *inner = FH_HMAC_INNER(w, alg);
  int ok;

  fh_hmac_begin(w);
  ok = fh_hmac_key_block(st, alg, key, keylen, w) &&
       fh_hmac_keyed(alg, w, &w->md, lent) &&
       fh_md_finish(&w->md, data, len, inner, alg->size);
  fh_hmac_to_opad(alg, w);
  return ok && fh_hmac_keyed(alg, w, &w->md, lent) &&
         fh_md_finish(&w->md, inner, alg->size, FH_HMAC_MAC(w, alg), alg->size);
}

/* Key, then message; on failure nothing is left to release. */
static int get_key_and_data(napi_env env, napi_value keyv, napi_value datav,
                            fh_input *key, fh_input *data) {
  if (!fh_get_key(env, keyv, key)) return 0;
  if (fh_get_input(env, datav, data)) return 1;
  fh_input_release(key);
  return 0;
}

int fh_verdict(napi_env env, const uint8_t *mac, size_t n, napi_value given,
               fh_encoding enc, napi_value *result) {
  fh_input bytes;
  int same = 0, text = fh_mac_text_equals(env, given, enc, mac, n, &same);

  if (text == 0) return 0;
  if (text < 0) {
    /* The length is public; only the bytes are compared in constant time. */
    if (!fh_get_input(env, given, &bytes)) return 0;
    same = bytes.len == n && CRYPTO_memcmp(mac, bytes.data, n) == 0;
    fh_input_release(&bytes);
  }
  CALL(env, napi_get_boolean(env, same, result));
  return 1;
}

int fh_hmac_result(napi_env env, int verify, napi_value last,
                   const fh_alg *alg, const fh_hmac_work *w, fh_encoding enc,
                   napi_value *result) {
  const uint8_t *mac = FH_HMAC_MAC(w, alg);

  if (verify) return fh_verdict(env, mac, alg->size, last, enc, result);
  return fh_emit(env, last, mac, alg->size, enc, result);
}

/* hmac(algId, encodingId, key, data[, buffer]) -> string, or fills buffer;
 * hmacVerify(algId, macEncodingId, key, data, mac) -> boolean, mac bytes or
 * a string in that encoding. */
static napi_value hmac_entry(napi_env env, napi_callback_info info,
                             int verify) {
  size_t argc = 5;
  napi_value argv[5], result = NULL;
  void *self;
  fh_spec spec;
  fh_input key, data;
  fh_hmac_work w;
  int ok;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if (!fh_get_spec(env, self, argv[0], argv[1], NULL, FH_SPEC_HMAC, &spec) ||
      !get_key_and_data(env, argv[2], argv[3], &key, &data))
    return NULL;
  ok = fh_hmac_compute(self, spec.alg, key.data, key.len, data.data, data.len, &w);
  fh_input_release(&data);
  fh_input_release(&key);
  if (ok)
    fh_hmac_result(env, verify, verify ? argv[4] : FH_OPTIONAL_ARG(argc, argv, 4),
                   spec.alg, &w, spec.enc, &result);
  else
    fh_throw_openssl(env, "HMAC");
  fh_hmac_wipe(spec.alg, &w);
  return result;
}

napi_value fh_hmac(napi_env env, napi_callback_info info) {
  return hmac_entry(env, info, 0);
}

napi_value fh_hmac_verify(napi_env env, napi_callback_info info) {
  return hmac_entry(env, info, 1);
}
