/* HMAC (RFC 2104) one-shots, built on the digests of digest.c rather than on
 * OpenSSL's HMAC or EVP_MAC objects, which allocate per call.
 *
 * The hot path allocates nothing for MD5, SHA-1 and SHA-2: the key block, the
 * two low-level contexts and the inner digest live on the stack and are
 * wiped on every exit. Other digests use the environment's two EVP
 * contexts. */
#include <string.h>

#include <openssl/crypto.h>

#include "fast_hash.h"

int fh_hmac_capable(const fh_alg *alg) {
  return !alg->xof && alg->block > 0 && alg->block <= FH_MAX_BLOCK &&
         alg->size <= EVP_MAX_MD_SIZE;
}

static void xor_block(uint8_t *block, size_t n, uint8_t pad) {
  size_t i;

  for (i = 0; i < n; i++) block[i] ^= pad;
}

void fh_hmac_begin(const fh_alg *alg, fh_hmac_work *w, EVP_MD_CTX *evp) {
  w->block_len = 0;
  w->tail_len = 0;
  w->evp = alg->kind == FH_KIND_EVP ? evp : NULL;
}

int fh_hmac_key_block(const fh_alg *alg, const uint8_t *key, size_t keylen,
                      fh_hmac_work *w) {
  size_t n = alg->block;
  int ok = 1;

  w->block_len = n;
  memset(w->bytes, 0, n);
  if (keylen > n)
    ok = fh_digest(w->evp, alg, key, keylen, w->bytes, alg->size);
  else if (keylen > 0)
    memcpy(w->bytes, key, keylen);
  xor_block(w->bytes, n, 0x36);
  return ok;
}

void fh_hmac_to_opad(const fh_alg *alg, fh_hmac_work *w) {
  xor_block(w->bytes, alg->block, 0x36 ^ 0x5c);
}

int fh_hmac_absorb_block(const fh_alg *alg, fh_hmac_work *w, EVP_MD_CTX *evp) {
  if (alg->kind == FH_KIND_EVP)
    return EVP_DigestInit_ex(evp, alg->md, NULL) &&
           EVP_DigestUpdate(evp, w->bytes, alg->block);
  return fh_ll_init(alg->kind, &w->ctx) &&
         fh_ll_update(alg->kind, &w->ctx, w->bytes, alg->block);
}

/* Low-level kinds, a state holding exactly the key block and a tail of at
 * most FH_HMAC_SHORT bytes: the tail and its padding in one update, and the
 * digest read from the state. (Taking the key block into the same update
 * too measured slower: the copy costs more than the call it saves.) */
static int ll_short(const fh_alg *alg, fh_hmac_work *w, const uint8_t *msg,
                    size_t len, uint8_t *out) {
  size_t n;

  if (len > 0) memcpy(w->tail, msg, len);
  n = fh_ll_pad(alg->kind, w->tail, len, alg->block + len);
  if (n > w->tail_len) w->tail_len = n;
  if (!fh_ll_update(alg->kind, &w->ctx, w->tail, n)) return 0;
  fh_ll_output(alg->kind, &w->ctx, out);
  return 1;
}

int fh_hmac_step(const fh_alg *alg, fh_hmac_work *w, const uint8_t *msg,
                 size_t len, uint8_t *out) {
  if (alg->kind == FH_KIND_EVP)
    return EVP_DigestUpdate(w->evp, msg, len) &&
           EVP_DigestFinal_ex(w->evp, out, NULL);
  if (len <= FH_HMAC_SHORT) return ll_short(alg, w, msg, len, out);
  return fh_ll_update(alg->kind, &w->ctx, msg, len) &&
         fh_ll_final(alg->kind, &w->ctx, out);
}

void fh_hmac_wipe(const fh_alg *alg, fh_hmac_work *w) {
  /* The digests follow the key block; before a key block is made only they
   * were written. */
  if (w->block_len > 0)
    fh_wipe(w->bytes, alg->block + 2 * alg->size);
  else
    fh_wipe(FH_HMAC_INNER(w, alg), 2 * alg->size);
  if (alg->kind == FH_KIND_EVP) {
    EVP_MD_CTX_reset(w->evp);
  } else {
    fh_wipe(&w->ctx, fh_ll_size(alg->kind));
    fh_wipe(w->tail, w->tail_len);
  }
}

int fh_hmac_compute(const fh_alg *alg, EVP_MD_CTX *evp, const uint8_t *key,
                    size_t keylen, const uint8_t *data, size_t len,
                    fh_hmac_work *w) {
  uint8_t *inner = FH_HMAC_INNER(w, alg);
  int ok;

  fh_hmac_begin(alg, w, evp);
  ok = fh_hmac_key_block(alg, key, keylen, w) &&
       fh_hmac_absorb_block(alg, w, w->evp) &&
       fh_hmac_step(alg, w, data, len, inner);
  fh_hmac_to_opad(alg, w);
  return ok && fh_hmac_absorb_block(alg, w, w->evp) &&
         fh_hmac_step(alg, w, inner, alg->size, FH_HMAC_MAC(w, alg));
}

static int hmac_oneshot(fh_state *st, const fh_alg *alg, const fh_input *key,
                        const fh_input *data, fh_hmac_work *w) {
  return fh_hmac_compute(alg, st->ctx, key->data, key->len, data->data,
                         data->len, w);
}

int fh_get_hmac_alg(napi_env env, fh_state *st, napi_value value,
                    const fh_alg **alg) {
  if (!fh_get_alg(env, st, value, alg)) return 0;
  if (fh_hmac_capable(*alg)) return 1;
  fh_throw(env, FH_TYPE_ERROR, "ERR_CRYPTO_INVALID_DIGEST",
           "Invalid digest for HMAC");
  return 0;
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
  fh_state *st;
  const fh_alg *alg;
  fh_encoding enc;
  fh_input key, data;
  fh_hmac_work w;
  int ok;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  st = self;
  if (!fh_get_hmac_alg(env, st, argv[0], &alg) ||
      !fh_get_encoding(env, argv[1], &enc) ||
      !get_key_and_data(env, argv[2], argv[3], &key, &data))
    return NULL;
  ok = hmac_oneshot(st, alg, &key, &data, &w);
  fh_input_release(&data);
  fh_input_release(&key);
  if (ok)
    fh_hmac_result(env, verify, verify ? argv[4] : FH_OPTIONAL_ARG(argc, argv, 4),
                   alg, &w, enc, &result);
  else
    fh_throw_openssl(env, "HMAC");
  fh_hmac_wipe(alg, &w);
  return result;
}

napi_value fh_hmac(napi_env env, napi_callback_info info) {
  return hmac_entry(env, info, 0);
}

napi_value fh_hmac_verify(napi_env env, napi_callback_info info) {
  return hmac_entry(env, info, 1);
}
