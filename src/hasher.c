/* Hashers: incremental digests (createHasher) and streaming HMACs
 * (hmacKey.createHasher()). The states live in the environment's store
 * (hasher_store.c) and JS names them by token. digest() wipes and frees the
 * state; the shim frees a hasher dropped unfinished (hasherFree) once the
 * garbage collector reports it.
 *
 * MD5, SHA-1 and SHA-2 run on low-level structs inside the slot: update
 * and digest allocate nothing. Other digests and the XOFs run in EVP
 * contexts of the hasher's own. An HMAC hasher holds the inner state, fed
 * the message, and the outer state, both copied from an HmacKey. */
#include <string.h>

#include "fast_hash.h"

/* The live hasher behind a token argument. Returns it, or NULL with an
 * exception pending; a token that names no live hasher is one whose state
 * digest() has freed (the shim never passes any other). */
static fh_hasher *get_hasher(napi_env env, fh_state *st, napi_value value,
                             int64_t *token) {
  fh_hasher *h;

  if (napi_get_value_int64(env, value, token) != napi_ok) {
    fh_throw(env, FH_TYPE_ERROR, "ERR_INVALID_ARG_TYPE", "Not a Hasher");
    return NULL;
  }
  h = fh_hasher_find(st, *token);
  if (h == NULL)
    fh_throw(env, FH_ERROR, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
  return h;
}

static napi_value token_value(napi_env env, int64_t token) {
  napi_value result;

  CALL(env, napi_create_int64(env, token, &result));
  return result;
}

/* hasherNew(algId, length) -> token. length is read for XOFs only: every
 * other digest gives exactly its own size. */
napi_value fh_hasher_new(napi_env env, napi_callback_info info) {
  size_t argc = 2, length;
  napi_value argv[2];
  void *self;
  const fh_alg *alg;
  int64_t token;
  fh_hasher *h;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if (!fh_get_alg(env, self, argv[0], &alg)) return NULL;
  length = alg->size;
  if (alg->xof && !fh_get_size(env, argv[1], &length)) return NULL;
  h = fh_hasher_alloc(env, self, alg->kind, 0, &token);
  if (h == NULL) return NULL;
  h->xof = (uint8_t)alg->xof;
  h->size = alg->size;
  h->length = length;
  if (alg->kind == FH_KIND_EVP ? EVP_DigestInit_ex(h->evp, alg->md, NULL)
                               : fh_ll_init(alg->kind, &h->ll[0]))
    return token_value(env, token);
  fh_hasher_release(env, self, token);
  fh_throw_openssl(env, "Digest init");
  return NULL;
}

/* Cuts `in` to its first n bytes, n given by `value` (no more than it has).
 * Returns 1, or 0 with an exception pending (in released). */
static int cut_input(napi_env env, napi_value value, fh_input *in) {
  size_t n;

  if (!fh_get_size(env, value, &n)) {
    fh_input_release(in);
    return 0;
  }
  if (n <= in->len) {
    in->len = n;
    return 1;
  }
  fh_input_release(in);
  fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
           "The length %zu is more than the data's %zu bytes", n, in->len);
  return 0;
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
  if ((h = get_hasher(env, self, argv[0], &token)) == NULL ||
      !fh_get_input(env, argv[1], &in) ||
      (argc > 2 && !cut_input(env, argv[2], &in)))
    return NULL;
  ok = h->kind == FH_KIND_EVP
           ? EVP_DigestUpdate(h->evp, in.data, in.len)
           : fh_ll_update((fh_kind)h->kind, &h->ll[0], in.data, in.len);
  fh_input_release(&in);
  if (!ok) fh_throw_openssl(env, "Digest update");
  return NULL;
}

/* Finishes h into out[0..h->length): the digest, or for HMAC the outer
 * digest of the inner one. Returns 1, or 0 with the reason on OpenSSL's
 * queue. */
static int hasher_final(fh_hasher *h, uint8_t *out) {
  fh_kind kind = (fh_kind)h->kind;
  uint8_t inner[EVP_MAX_MD_SIZE];
  int ok;

  if (!h->hmac) {
    if (kind != FH_KIND_EVP) return fh_ll_final(kind, &h->ll[0], out);
    if (!h->xof) return EVP_DigestFinal_ex(h->evp, out, NULL);
    /* SHAKE of length 0 is the empty string; OpenSSL refuses to squeeze 0. */
    return h->length == 0 || EVP_DigestFinalXOF(h->evp, out, h->length);
  }
  if (kind == FH_KIND_EVP)
    ok = EVP_DigestFinal_ex(h->evp, inner, NULL) &&
         EVP_DigestUpdate(h->outer_evp, inner, h->size) &&
         EVP_DigestFinal_ex(h->outer_evp, out, NULL);
  else
    ok = fh_ll_final(kind, &h->ll[0], inner) &&
         fh_ll_update(kind, &h->ll[1], inner, h->size) &&
         fh_ll_final(kind, &h->ll[1], out);
  fh_wipe(inner, h->size);
  return ok;
}

/* Where digest() writes: the caller's Buffer `into` (exactly h->length
 * bytes), else `stack`, which holds EVP_MAX_MD_SIZE (longer outputs come
 * through a Buffer). Returns the place, or NULL with an exception pending. */
static uint8_t *digest_target(napi_env env, const fh_hasher *h,
                              napi_value into, fh_encoding enc, uint8_t *stack) {
  uint8_t *out;

  if (into != NULL) return fh_get_output_of(env, into, h->length, &out) ? out : NULL;
  if (enc >= FH_ENC_COUNT) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
             "Strings need a text encoding, not encoding id %u", (unsigned)enc);
    return NULL;
  }
  if (h->length <= EVP_MAX_MD_SIZE) return stack;
  fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
           "Outputs over %d bytes need an output Buffer", EVP_MAX_MD_SIZE);
  return NULL;
}

/* Absorbs the first n bytes of `tail` (n given by `nv`) into h: the parts
 * the shim staged, sent with digest() rather than in a call of their own.
 * Returns 1, or 0 with an exception pending. */
static int absorb_tail(napi_env env, fh_hasher *h, napi_value tail,
                       napi_value nv) {
  fh_input in;
  size_t n;
  int ok;

  if (!fh_get_size(env, nv, &n)) return 0;
  if (n == 0) return 1;
  if (!fh_get_input(env, tail, &in) || !cut_input(env, nv, &in)) return 0;
  ok = h->kind == FH_KIND_EVP
           ? EVP_DigestUpdate(h->evp, in.data, in.len)
           : fh_ll_update((fh_kind)h->kind, &h->ll[0], in.data, in.len);
  fh_input_release(&in);
  if (!ok) fh_throw_openssl(env, "Digest update");
  return ok;
}

/* The result of a digest call that computed n bytes into out (ok 0: it
 * failed, with the reason on OpenSSL's queue): a thrown error, the string in
 * encoding enc, or nothing when the digest went into the caller's Buffer
 * `into`. The stack copy is wiped either way. */
static napi_value digest_result(napi_env env, int ok, napi_value into,
                                fh_encoding enc, uint8_t *out, size_t n,
                                uint8_t *stack) {
  napi_value result = NULL;

  if (!ok)
    fh_throw_openssl(env, "Digest");
  else if (into == NULL)
    fh_make_string(env, enc, out, n, &result);
  if (out == stack) fh_wipe(stack, n);
  return result;
}

/* hasherDigest(token, encodingId, tail, n[, buffer]) -> string, or fills
 * buffer: the digest of everything absorbed and then tail's first n bytes.
 * The shim has marked the hasher finished: its state is wiped and freed
 * whatever fails. */
napi_value fh_hasher_digest(napi_env env, napi_callback_info info) {
  size_t argc = 5, length;
  napi_value argv[5], into;
  void *self;
  int64_t token;
  fh_hasher *h;
  fh_encoding enc;
  uint8_t stack[EVP_MAX_MD_SIZE], *out;
  int ok;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  into = FH_OPTIONAL_ARG(argc, argv, 4);
  if ((h = get_hasher(env, self, argv[0], &token)) == NULL) return NULL;
  if (!fh_get_encoding(env, argv[1], &enc) ||
      (out = digest_target(env, h, into, enc, stack)) == NULL ||
      !absorb_tail(env, h, argv[2], argv[3])) {
    fh_hasher_release(env, self, token);
    return NULL;
  }
  ok = hasher_final(h, out);
  length = h->length;
  fh_hasher_release(env, self, token);
  return digest_result(env, ok, into, enc, out, length, stack);
}

/* Copies h's states into c (a fresh slot of the same kind). Returns 1, or 0
 * with the reason on OpenSSL's queue. */
static int copy_states(fh_hasher *c, const fh_hasher *h) {
  size_t n;

  c->xof = h->xof;
  c->size = h->size;
  if (h->kind == FH_KIND_EVP)
    return EVP_MD_CTX_copy_ex(c->evp, h->evp) &&
           (!h->hmac || EVP_MD_CTX_copy_ex(c->outer_evp, h->outer_evp));
  n = fh_ll_size((fh_kind)h->kind);
  memcpy(&c->ll[0], &h->ll[0], n);
  if (h->hmac) memcpy(&c->ll[1], &h->ll[1], n);
  return 1;
}

/* hasherCopy(token, length) -> a new token with the same state. length is
 * read for XOFs only (a copy names its own, as Hash#copy takes one). */
napi_value fh_hasher_copy(napi_env env, napi_callback_info info) {
  size_t argc = 2, length;
  napi_value argv[2];
  void *self;
  int64_t token, copy;
  fh_hasher *h, *c;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if ((h = get_hasher(env, self, argv[0], &token)) == NULL) return NULL;
  length = h->size;
  if (h->xof && !fh_get_size(env, argv[1], &length)) return NULL;
  /* Slots never move (chunks are not reallocated): h stays valid. */
  if ((c = fh_hasher_alloc(env, self, (fh_kind)h->kind, h->hmac, &copy)) == NULL)
    return NULL;
  c->length = length;
  if (copy_states(c, h)) return token_value(env, copy);
  fh_hasher_release(env, self, copy);
  fh_throw_openssl(env, "Hasher copy");
  return NULL;
}

/* Starts an HMAC hasher h from k's keyed states. */
static int key_states(fh_hasher *h, const fh_hmac_key *k) {
  const fh_alg *alg = &k->alg;

  h->xof = 0;
  h->size = alg->size;
  h->length = alg->size;
  if (alg->kind == FH_KIND_EVP)
    return EVP_MD_CTX_copy_ex(h->evp, k->inner_evp) &&
           EVP_MD_CTX_copy_ex(h->outer_evp, k->outer_evp);
  memcpy(&h->ll[0], &k->inner, fh_ll_size(alg->kind));
  memcpy(&h->ll[1], &k->outer, fh_ll_size(alg->kind));
  return 1;
}

/* hmacKeyHasher(key) -> token: no key work, only copies of its states. */
napi_value fh_hmac_key_hasher(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  void *self;
  const fh_hmac_key *k;
  int64_t token;
  fh_hasher *h;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if (!fh_hmac_key_get(env, self, argv[0], &k)) return NULL;
  if ((h = fh_hasher_alloc(env, self, k->alg.kind, 1, &token)) == NULL)
    return NULL;
  if (key_states(h, k)) return token_value(env, token);
  fh_hasher_release(env, self, token);
  fh_throw_openssl(env, "HMAC hasher");
  return NULL;
}

/* hasherFree(token): frees the state of a hasher dropped before digest();
 * a token that names no live hasher is left alone. */
napi_value fh_hasher_free(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  void *self;
  int64_t token;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if (napi_get_value_int64(env, argv[0], &token) == napi_ok)
    fh_hasher_release(env, self, token);
  return NULL;
}

/* Where a one-shot writes: the caller's Buffer `into` (exactly outlen
 * bytes), else `stack`, which holds EVP_MAX_MD_SIZE. NULL with an exception
 * pending. */
static uint8_t *one_shot_target(napi_env env, napi_value into, size_t outlen,
                                uint8_t *stack) {
  uint8_t *out;

  if (into != NULL) return fh_get_output_of(env, into, outlen, &out) ? out : NULL;
  if (outlen <= EVP_MAX_MD_SIZE) return stack;
  fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
           "Outputs over %d bytes need an output Buffer", EVP_MAX_MD_SIZE);
  return NULL;
}

/* hashPrefix(algId, encodingId, data, n, length[, buffer]) -> string, or
 * fills buffer: as hash(algId, encodingId, data, length[, buffer]) of data's
 * first n bytes. The digest of a
 * hasher whose parts all sit in the shim's stage: one call, and no view made
 * to cut the stage (a view costs V8 about as much as this call). */
napi_value fh_hash_prefix(napi_env env, napi_callback_info info) {
  size_t argc = 6, outlen;
  napi_value argv[6], into;
  void *self;
  fh_encoding enc;
  const fh_alg *alg;
  fh_input in;
  uint8_t stack[EVP_MAX_MD_SIZE], *out;
  int ok;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if (!fh_get_alg(env, self, argv[0], &alg) || !fh_get_encoding(env, argv[1], &enc))
    return NULL;
  outlen = alg->size;
  if (alg->xof && !fh_get_size(env, argv[4], &outlen)) return NULL;
  into = FH_OPTIONAL_ARG(argc, argv, 5);
  if ((out = one_shot_target(env, into, outlen, stack)) == NULL ||
      !fh_get_input(env, argv[2], &in) || !cut_input(env, argv[3], &in))
    return NULL;
  ok = fh_digest_env(self, alg, in.data, in.len, out, outlen);
  fh_input_release(&in);
  return digest_result(env, ok, into, enc, out, outlen, stack);
}
