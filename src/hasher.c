/* Hashers: incremental digests (createHasher) and streaming HMACs
 * (hmacKey.createHasher()). The states live in the environment's store
 * (hasher_store.c) and JS names them by token. digest() wipes and frees the
 * state; the shim frees a hasher dropped unfinished (hasherFree) once the
 * garbage collector reports it.
 *
 * Each hasher holds digest states (digest.c) with contexts of their own: a
 * plain hasher one, an HMAC hasher the inner state, fed the message, and
 * the outer state, both copied from an HmacKey. */
#include <string.h>

#include "fast_hash.h"

fh_hasher *fh_hasher_get(napi_env env, fh_state *st, napi_value value,
                         unsigned queued, int64_t *token) {
  fh_hasher *h;

  if (napi_get_value_int64(env, value, token) != napi_ok) {
    fh_throw(env, FH_TYPE_ERROR, "ERR_INVALID_ARG_TYPE", "Not a Hasher");
    return NULL;
  }
  h = fh_hasher_find(st, *token);
  if (h == NULL)
    fh_throw(env, FH_ERROR, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
  else if (h->busy > queued || h->doomed)
    fh_throw(env, FH_ERROR, "ERR_INVALID_STATE",
             "Invalid state: the hasher is being updated off the event loop");
  else
    return h;
  return NULL;
}

/* The token of a hasher whose states were just set up (ok), or, when that
 * failed, NULL with the hasher released and the reason thrown. */
static napi_value issued(napi_env env, fh_state *st, fh_hasher *h,
                         int64_t token, int ok, const char *what) {
  napi_value result;

  if (!ok) {
    fh_hasher_release(env, st, token);
    fh_throw_openssl(env, what);
    return NULL;
  }
  fh_hasher_account(env, st, h);
  CALL(env, napi_create_int64(env, token, &result));
  return result;
}

/* hasherNew(algId, length) -> token. length is read for XOFs only: every
 * other digest gives exactly its own size. */
napi_value fh_hasher_new(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  void *self;
  fh_spec spec;
  int64_t token;
  fh_hasher *h;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if (!fh_get_spec(env, self, argv[0], NULL, argv[1], 0, &spec) ||
      (h = fh_hasher_alloc(env, self, 0, &token)) == NULL)
    return NULL;
  h->size = spec.alg->size;
  h->length = spec.length;
  return issued(env, self, h, token, fh_md_start(&h->md[0], spec.alg, NULL),
                "Digest init");
}

/* hasherUpdate(token, data[, length]): data is a string (UTF-8) or a view;
 * with length, only its first length bytes (the shim's staged parts). */
napi_value fh_hasher_update(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  void *self;
  int64_t token;
  fh_hasher *h;
  fh_input in;
  int ok;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if ((h = fh_hasher_get(env, self, argv[0], 0, &token)) == NULL ||
      !(argc > 2 ? fh_get_input_prefix(env, argv[1], argv[2], &in)
                 : fh_get_input(env, argv[1], &in)))
    return NULL;
  ok = fh_md_update(&h->md[0], in.data, in.len);
  fh_input_release(&in);
  if (!ok) fh_throw_openssl(env, "Digest update");
  return NULL;
}

/* Finishes h, absorbing `tail` last, into out[0..h->length): the digest,
 * or for HMAC the outer digest of the inner one. Returns 1, or 0 with the
 * reason on OpenSSL's queue. */
static int hasher_final(fh_hasher *h, const fh_input *tail, uint8_t *out) {
  uint8_t inner[EVP_MAX_MD_SIZE];
  int ok;

  if (!h->hmac) return fh_md_finish(&h->md[0], tail->data, tail->len, out, h->length);
  ok = fh_md_finish(&h->md[0], tail->data, tail->len, inner, h->size) &&
       fh_md_finish(&h->md[1], inner, h->size, out, h->size);
  fh_wipe(inner, h->size);
  return ok;
}

/* The first n bytes of `tail` (n given by `nv`): the parts the shim staged,
 * sent with digest() rather than in a call of their own. With none staged
 * (n 0, the common case for long parts), the tail is not read at all. */
static int get_tail(napi_env env, napi_value tail, napi_value nv,
                    fh_input *in) {
  size_t n;

  if (!fh_get_size(env, nv, &n)) return 0;
  if (n != 0) return fh_get_input_prefix(env, tail, nv, in);
  fh_input_empty(in);
  return 1;
}

/* hasherDigest(token, encodingId, tail, n[, buffer]) -> string, or fills
 * buffer: the digest of everything absorbed and then tail's first n bytes.
 * The shim has marked the hasher finished: its state is wiped and freed
 * whatever fails. */
napi_value fh_hasher_digest(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  void *self;
  int64_t token;
  fh_hasher *h;
  fh_encoding enc;
  fh_input tail;
  fh_out out;
  int ok = 0;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if ((h = fh_hasher_get(env, self, argv[0], 0, &token)) == NULL) return NULL;
  if (!fh_get_encoding(env, argv[1], &enc) ||
      !fh_out_open(env, &out, FH_OPTIONAL_ARG(argc, argv, 4), h->length)) {
    fh_hasher_release(env, self, token);
    return NULL;
  }
  if (get_tail(env, argv[2], argv[3], &tail)) {
    ok = hasher_final(h, &tail, out.bytes);
    fh_input_release(&tail);
    if (!ok) fh_throw_openssl(env, "Digest");
  }
  fh_hasher_release(env, self, token);
  return fh_out_close(env, &out, ok, enc);
}

/* hasherCopy(token, length) -> a new token with the same state. length is
 * read for XOFs only (a copy names its own, as Hash#copy takes one). */
napi_value fh_hasher_copy(napi_env env, napi_callback_info info) {
  size_t argc = 2, length;
  napi_value argv[2];
  void *self;
  int64_t token, copy;
  fh_hasher *h, *c;
  int ok;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if ((h = fh_hasher_get(env, self, argv[0], 0, &token)) == NULL) return NULL;
  length = h->size;
  if (h->md[0].xof && !fh_get_size(env, argv[1], &length)) return NULL;
  /* Slots never move (chunks are not reallocated): h stays valid. */
  if ((c = fh_hasher_alloc(env, self, h->hmac, &copy)) == NULL) return NULL;
  c->size = h->size;
  c->length = length;
  ok = fh_md_copy(&c->md[0], &h->md[0], NULL) &&
       (!h->hmac || fh_md_copy(&c->md[1], &h->md[1], NULL));
  return issued(env, self, c, copy, ok, "Hasher copy");
}

/* hmacKeyHasher(key) -> token: no key work, only copies of its states. */
napi_value fh_hmac_key_hasher(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  void *self;
  const fh_hmac_key *k;
  int64_t token;
  fh_hasher *h;
  int ok;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if (!fh_hmac_key_get(env, self, argv[0], &k) ||
      (h = fh_hasher_alloc(env, self, 1, &token)) == NULL)
    return NULL;
  h->size = h->length = k->alg.size;
  ok = fh_md_copy(&h->md[0], &k->inner, NULL) &&
       fh_md_copy(&h->md[1], &k->outer, NULL);
  return issued(env, self, h, token, ok, "HMAC hasher");
}

/* hasherFree(token): frees the state of a hasher dropped before digest()
 * (one a thread-pool update holds, once it ends); a token that names no
 * live hasher is left alone. */
napi_value fh_hasher_free(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  void *self;
  int64_t token;
  fh_hasher *h;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if (napi_get_value_int64(env, argv[0], &token) != napi_ok ||
      (h = fh_hasher_find(self, token)) == NULL)
    return NULL;
  if (h->busy)
    h->doomed = 1;
  else
    fh_hasher_release(env, self, token);
  return NULL;
}
