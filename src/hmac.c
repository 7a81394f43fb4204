/* HMAC (RFC 2104) one-shots, built on the digests of digest.c rather than on
 * OpenSSL's HMAC or EVP_MAC objects, which allocate per call.
 *
 * The hot path allocates nothing for MD5, SHA-1 and SHA-2: the key block, the
 * two low-level contexts and the inner digest live on the stack and are
 * wiped on every exit. Other digests use the environment's two EVP
 * contexts. */
#include <stddef.h>
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

static int absorb(const fh_alg *alg, fh_ll_ctx *ll, EVP_MD_CTX *evp,
                  const uint8_t *p, size_t n) {
  if (alg->kind == FH_KIND_EVP)
    return EVP_DigestInit_ex(evp, alg->md, NULL) && EVP_DigestUpdate(evp, p, n);
  return fh_ll_init(alg->kind, ll) && fh_ll_update(alg->kind, ll, p, n);
}

int fh_hmac_pads_init(fh_state *st, const fh_alg *alg, const uint8_t *key,
                      size_t keylen, fh_hmac_pads *p) {
  uint8_t block[FH_MAX_BLOCK];
  size_t n = alg->block;
  int ok = 1;

  /* K0: the key, or its digest when longer than a block, zero-padded. */
  memset(block, 0, n);
  if (keylen > n)
    ok = fh_digest(st, alg, key, keylen, block, alg->size);
  else if (keylen > 0)
    memcpy(block, key, keylen);
  xor_block(block, n, 0x36);
  ok = ok && absorb(alg, &p->inner, p->inner_evp, block, n);
  xor_block(block, n, 0x36 ^ 0x5c);
  ok = ok && absorb(alg, &p->outer, p->outer_evp, block, n);
  OPENSSL_cleanse(block, n);
  return ok;
}

int fh_hmac_pads_final(const fh_alg *alg, fh_hmac_pads *p, const uint8_t *data,
                       size_t len, uint8_t *out) {
  uint8_t inner[EVP_MAX_MD_SIZE];
  int ok;

  if (alg->kind == FH_KIND_EVP) {
    ok = EVP_DigestUpdate(p->inner_evp, data, len) &&
         EVP_DigestFinal_ex(p->inner_evp, inner, NULL) &&
         EVP_DigestUpdate(p->outer_evp, inner, alg->size) &&
         EVP_DigestFinal_ex(p->outer_evp, out, NULL);
  } else {
    ok = fh_ll_update(alg->kind, &p->inner, data, len) &&
         fh_ll_final(alg->kind, &p->inner, inner) &&
         fh_ll_update(alg->kind, &p->outer, inner, alg->size) &&
         fh_ll_final(alg->kind, &p->outer, out);
  }
  OPENSSL_cleanse(inner, alg->size);
  return ok;
}

void fh_hmac_pads_wipe(const fh_alg *alg, fh_hmac_pads *p) {
  if (alg->kind == FH_KIND_EVP) {
    EVP_MD_CTX_reset(p->inner_evp);
    EVP_MD_CTX_reset(p->outer_evp);
  } else {
    /* inner and outer are adjacent: one call wipes both. */
    OPENSSL_cleanse(&p->inner, offsetof(fh_hmac_pads, outer) -
                                   offsetof(fh_hmac_pads, inner) +
                                   fh_ll_size(alg->kind));
  }
}

/* MAC of data under key, into out (alg->size bytes). */
static int hmac_oneshot(fh_state *st, const fh_alg *alg, const fh_input *key,
                        const fh_input *data, uint8_t *out) {
  fh_hmac_pads p;
  int ok;

  p.inner_evp = st->ctx;
  p.outer_evp = st->ctx2;
  ok = fh_hmac_pads_init(st, alg, key->data, key->len, &p) &&
       fh_hmac_pads_final(alg, &p, data->data, data->len, out);
  fh_hmac_pads_wipe(alg, &p);
  return ok;
}

/* The slot for an HMAC algorithm ID: capable digests only. */
static int get_hmac_alg(napi_env env, fh_state *st, napi_value value,
                        uint32_t *op, const fh_alg **alg) {
  if (!fh_get_u32(env, value, op) || !fh_alg_at(env, st, *op & 0xff, alg))
    return 0;
  if (fh_hmac_capable(*alg)) return 1;
  fh_throw(env, FH_TYPE_ERROR, "ERR_CRYPTO_INVALID_DIGEST",
           "Invalid digest for HMAC");
  return 0;
}

/* Key, then message; on failure nothing is left to release. */
static int get_key_and_data(napi_env env, napi_value keyv, napi_value datav,
                            fh_input *key, fh_input *data) {
  if (!fh_get_input(env, keyv, key)) return 0;
  if (fh_get_input(env, datav, data)) return 1;
  fh_input_release(key);
  return 0;
}

int fh_verdict(napi_env env, const uint8_t *mac, size_t n,
               const fh_input *given, napi_value *result) {
  /* The length is public; only the bytes are compared in constant time. */
  int same = given->len == n && CRYPTO_memcmp(mac, given->data, n) == 0;

  CALL(env, napi_get_boolean(env, same, result));
  return 1;
}

/* hmac(op, key, data) -> string, op = algId | encodingId << 8. */
napi_value fh_hmac(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3], result = NULL;
  void *self;
  fh_state *st;
  const fh_alg *alg;
  uint32_t op;
  fh_input key, data;
  uint8_t mac[EVP_MAX_MD_SIZE];

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  st = self;
  if (!get_hmac_alg(env, st, argv[0], &op, &alg) ||
      !get_key_and_data(env, argv[1], argv[2], &key, &data))
    return NULL;
  if (hmac_oneshot(st, alg, &key, &data, mac))
    fh_make_string(env, (fh_encoding)(op >> 8), mac, alg->size, &result);
  else
    fh_throw_openssl(env, "HMAC");
  fh_input_release(&data);
  fh_input_release(&key);
  OPENSSL_cleanse(mac, sizeof(mac));
  return result;
}

/* hmacInto(algId, key, data, buffer): the MAC into a Buffer of its size. */
napi_value fh_hmac_into(napi_env env, napi_callback_info info) {
  size_t argc = 4, outlen;
  napi_value argv[4];
  void *self, *out;
  fh_state *st;
  const fh_alg *alg;
  uint32_t id;
  fh_input key, data;
  int ok;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  st = self;
  if (!get_hmac_alg(env, st, argv[0], &id, &alg) ||
      !fh_get_output(env, argv[3], &out, &outlen) ||
      !fh_output_length_ok(env, alg, outlen) ||
      !get_key_and_data(env, argv[1], argv[2], &key, &data))
    return NULL;
  ok = hmac_oneshot(st, alg, &key, &data, out);
  fh_input_release(&data);
  fh_input_release(&key);
  if (!ok) fh_throw_openssl(env, "HMAC");
  return NULL;
}

/* hmacVerify(algId, key, data, mac) -> boolean, in constant time for a mac of
 * the right length (the length itself is public). */
napi_value fh_hmac_verify(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4], result = NULL;
  void *self;
  fh_state *st;
  const fh_alg *alg;
  uint32_t id;
  fh_input key, data, given;
  uint8_t mac[EVP_MAX_MD_SIZE];
  int ok;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  st = self;
  if (!get_hmac_alg(env, st, argv[0], &id, &alg) ||
      !get_key_and_data(env, argv[1], argv[2], &key, &data))
    return NULL;
  ok = hmac_oneshot(st, alg, &key, &data, mac);
  fh_input_release(&data);
  fh_input_release(&key);
  if (!ok) {
    fh_throw_openssl(env, "HMAC");
  } else if (fh_get_input(env, argv[3], &given)) {
    fh_verdict(env, mac, alg->size, &given, &result);
    fh_input_release(&given);
  }
  OPENSSL_cleanse(mac, sizeof(mac));
  return result;
}
