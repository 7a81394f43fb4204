/* HmacKey: HMAC states keyed once, kept in native memory behind a Node-API
 * external, so each MAC costs the message blocks plus one outer block.
 *
 * A key belongs to the environment (thread) that made it: its EVP contexts
 * are copied into that environment's contexts per call. The states are wiped
 * by destroy() or, failing that, by the finalizer when the key is collected. */
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "fast_hash.h"

typedef struct {
  fh_alg alg;         /* a copy holding its own reference to the EVP_MD */
  fh_hmac_pads pads;  /* keyed states; for EVP kinds, contexts owned here */
  int live;           /* cleared by destroy() */
} fh_hmac_key;

/* Tells our externals from anyone else's before the pointer is trusted. */
static const napi_type_tag hmac_key_tag = {
  0x5f2a8c1e9b3d4f60ULL, 0xa17c3e5d2b9f8e41ULL
};

static void wipe_key(fh_hmac_key *k) {
  if (!k->live) return;
  fh_hmac_pads_wipe(&k->alg, &k->pads);
  EVP_MD_CTX_free(k->pads.inner_evp);
  EVP_MD_CTX_free(k->pads.outer_evp);
  k->pads.inner_evp = k->pads.outer_evp = NULL;
  EVP_MD_free(k->alg.md);
  k->alg.md = NULL;
  k->live = 0;
}

static void finalize_key(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  wipe_key(data);
  OPENSSL_cleanse(data, sizeof(fh_hmac_key));
  free(data);
}

static fh_hmac_key *new_key(fh_state *st, const fh_alg *alg,
                            const fh_input *key) {
  fh_hmac_key *k = calloc(1, sizeof(*k));

  if (k == NULL) return NULL;
  k->alg = *alg;
  k->live = EVP_MD_up_ref(alg->md);
  if (!k->live) goto fail;
  if (alg->kind == FH_KIND_EVP) {
    k->pads.inner_evp = EVP_MD_CTX_new();
    k->pads.outer_evp = EVP_MD_CTX_new();
    if (k->pads.inner_evp == NULL || k->pads.outer_evp == NULL) goto fail;
  }
  if (fh_hmac_pads_init(st, &k->alg, key->data, key->len, &k->pads)) return k;
fail:
  finalize_key(NULL, k, NULL);
  return NULL;
}

/* hmacKeyNew(algId, key) -> external */
napi_value fh_hmac_key_new(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], result = NULL;
  void *self;
  fh_state *st;
  const fh_alg *alg;
  uint32_t id;
  fh_input key;
  fh_hmac_key *k;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  st = self;
  if (!fh_get_u32(env, argv[0], &id) || !fh_alg_at(env, st, id, &alg)) return NULL;
  if (!fh_hmac_capable(alg)) {
    fh_throw(env, FH_TYPE_ERROR, "ERR_CRYPTO_INVALID_DIGEST",
             "Invalid digest for HMAC");
    return NULL;
  }
  if (!fh_get_input(env, argv[1], &key)) return NULL;
  k = new_key(st, alg, &key);
  fh_input_release(&key);
  if (k == NULL) {
    fh_throw_openssl(env, "HMAC key setup");
    return NULL;
  }
  if (napi_create_external(env, k, finalize_key, NULL, &result) != napi_ok) {
    finalize_key(env, k, NULL);
    fh_throw(env, FH_ERROR, "ERR_NAPI_CALL_FAILED", "Cannot wrap the HMAC key");
    return NULL;
  }
  CALL(env, napi_type_tag_object(env, result, &hmac_key_tag));
  return result;
}

static int get_key(napi_env env, napi_value value, fh_hmac_key **out) {
  bool ours = false;
  void *data;

  if (napi_check_object_type_tag(env, value, &hmac_key_tag, &ours) != napi_ok ||
      !ours) {
    fh_throw(env, FH_TYPE_ERROR, "ERR_INVALID_ARG_TYPE", "Not an HmacKey");
    return 0;
  }
  CALL(env, napi_get_value_external(env, value, &data));
  *out = data;
  if ((*out)->live) return 1;
  fh_throw(env, FH_ERROR, "ERR_INVALID_STATE",
           "Invalid state: the HmacKey has been destroyed");
  return 0;
}

/* The MAC of data under the key, from a copy of its keyed states. */
static int key_mac(fh_state *st, const fh_hmac_key *k, const fh_input *data,
                   uint8_t *out) {
  const fh_alg *alg = &k->alg;
  fh_hmac_pads work;
  size_t n = fh_ll_size(alg->kind);
  int ok;

  work.inner_evp = st->ctx;
  work.outer_evp = st->ctx2;
  if (alg->kind == FH_KIND_EVP) {
    ok = EVP_MD_CTX_copy_ex(work.inner_evp, k->pads.inner_evp) &&
         EVP_MD_CTX_copy_ex(work.outer_evp, k->pads.outer_evp);
  } else {
    memcpy(&work.inner, &k->pads.inner, n);
    memcpy(&work.outer, &k->pads.outer, n);
    ok = 1;
  }
  ok = ok && fh_hmac_pads_final(alg, &work, data->data, data->len, out);
  fh_hmac_pads_wipe(alg, &work);
  return ok;
}

/* Reads (key, ..., data) and computes the MAC; on failure an exception is
 * pending and mac holds nothing. */
static int key_mac_args(napi_env env, fh_state *st, napi_value keyv,
                        napi_value datav, fh_hmac_key **k, uint8_t *mac) {
  fh_input data;
  int ok;

  if (!get_key(env, keyv, k) || !fh_get_input(env, datav, &data)) return 0;
  ok = key_mac(st, *k, &data, mac);
  fh_input_release(&data);
  if (!ok) fh_throw_openssl(env, "HMAC");
  return ok;
}

/* hmacKeyDigest(key, encodingId, data) -> string */
napi_value fh_hmac_key_digest(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3], result = NULL;
  void *self;
  fh_hmac_key *k;
  uint32_t enc;
  uint8_t mac[EVP_MAX_MD_SIZE];

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if (!fh_get_u32(env, argv[1], &enc)) return NULL;
  if (key_mac_args(env, self, argv[0], argv[2], &k, mac)) {
    fh_make_string(env, (fh_encoding)enc, mac, k->alg.size, &result);
    OPENSSL_cleanse(mac, k->alg.size);
  }
  return result;
}

/* hmacKeyDigestInto(key, data, buffer) */
napi_value fh_hmac_key_digest_into(napi_env env, napi_callback_info info) {
  size_t argc = 3, outlen;
  napi_value argv[3];
  void *self, *out;
  fh_hmac_key *k;
  uint8_t mac[EVP_MAX_MD_SIZE];

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if (!fh_get_output(env, argv[2], &out, &outlen)) return NULL;
  if (key_mac_args(env, self, argv[0], argv[1], &k, mac) &&
      fh_output_length_ok(env, &k->alg, outlen))
    memcpy(out, mac, outlen);
  OPENSSL_cleanse(mac, sizeof(mac));
  return NULL;
}

/* hmacKeyVerify(key, data, mac) -> boolean */
napi_value fh_hmac_key_verify(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3], result = NULL;
  void *self;
  fh_hmac_key *k;
  fh_input given;
  uint8_t mac[EVP_MAX_MD_SIZE];

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if (key_mac_args(env, self, argv[0], argv[1], &k, mac) &&
      fh_get_input(env, argv[2], &given)) {
    fh_verdict(env, mac, k->alg.size, &given, &result);
    fh_input_release(&given);
  }
  OPENSSL_cleanse(mac, sizeof(mac));
  return result;
}

/* hmacKeyDestroy(key): wipes the states now; later use throws. */
napi_value fh_hmac_key_destroy(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  fh_hmac_key *k;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (get_key(env, argv[0], &k)) wipe_key(k);
  return NULL;
}
