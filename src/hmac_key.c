/* HmacKey: HMAC states keyed once, kept in native memory behind a Node-API
 * external, so each MAC costs the message blocks plus one outer block.
 *
 * A key belongs to the environment (thread) that made it: its EVP contexts
 * are copied into that environment's contexts per call. The states are wiped
 * by destroy() or, failing that, by the finalizer when the key is collected. */
/* uv.h needs the POSIX types (pthread_rwlock_t, addrinfo) that strict C99
 * hides. */
#define _XOPEN_SOURCE 700

#include <stdlib.h>
#include <string.h>

#include <uv.h>

#include "fast_hash.h"

/* fh_hmac_key is in fast_hash.h: hasher.c starts streaming HMACs from it. */

/* Tells our externals from anyone else's before the pointer is trusted,
 * another copy of this addon in the same process included (a second
 * node_modules, a bundler's copy): half of the tag is the address of
 * this copy's own tag, which no other loaded copy shares. */
static napi_type_tag hmac_key_tag = { 0, 0xa17c3e5d2b9f8e41ULL };
static uv_once_t hmac_key_tag_once = UV_ONCE_INIT;

static void make_hmac_key_tag(void) {
  hmac_key_tag.lower = 0x5f2a8c1e9b3d4f60ULL ^ (uint64_t)(uintptr_t)&hmac_key_tag;
}

static const napi_type_tag *key_tag(void) {
  uv_once(&hmac_key_tag_once, make_hmac_key_tag);
  return &hmac_key_tag;
}

static void wipe_key(fh_hmac_key *k) {
  if (!k->live) return;
  fh_md_close(&k->inner);
  fh_md_close(&k->outer);
  EVP_MD_free(k->alg.md);
  k->alg.md = NULL;
  k->live = 0;
}

/* The native memory a key holds, told to V8 so that dropped keys count
 * towards its next collection (it sees only a small external otherwise). */
static int64_t key_bytes(const fh_hmac_key *k) {
  return (int64_t)(sizeof(*k) + fh_md_heap(&k->inner) + fh_md_heap(&k->outer));
}

/* The key this thread last proved ours by its type tag: the same key again
 * skips the tag check, which costs more than the rest of the call's argument
 * work. A pointer equal to it is one of our live keys (finalize_key forgets
 * a key before freeing it), so nothing foreign is ever read through. It is
 * per thread, not in the environment's state, because a key's finalizer may
 * run after that state is gone, and keys and their finalizers stay on the
 * thread that made them. libuv's thread-local key rather than C's: a
 * __thread variable would make the binary need the dynamic loader's
 * __tls_get_addr. */
static uv_key_t last_checked;
static uv_once_t last_checked_once = UV_ONCE_INIT;
static int last_checked_ok;

static void make_last_checked(void) {
  last_checked_ok = uv_key_create(&last_checked) == 0;
}

static const fh_hmac_key *checked_key(void) {
  uv_once(&last_checked_once, make_last_checked);
  return last_checked_ok ? uv_key_get(&last_checked) : NULL;
}

static void set_checked_key(const fh_hmac_key *k) {
  if (last_checked_ok) uv_key_set(&last_checked, (void *)k);
}

static void finalize_key(napi_env env, void *data, void *hint) {
  fh_hmac_key *k = data;

  (void)hint;
  if (checked_key() == k) set_checked_key(NULL);
  fh_tell_memory(env, &k->reported, -k->reported);
  wipe_key(k);
  fh_wipe(k, sizeof(*k));
  free(k);
}

/* A key for alg (one of st->algs: a long key is digested with it), its
 * inner and outer states keyed in contexts of their own. NULL with the
 * reason on OpenSSL's queue, or out of memory. */
static fh_hmac_key *new_key(fh_state *st, const fh_alg *alg,
                            const fh_input *key) {
  fh_hmac_key *k = calloc(1, sizeof(*k));
  fh_hmac_work w;
  int ok;

  if (k == NULL) return NULL;
  k->alg = *alg;
  k->fips = st->fips;
  k->live = EVP_MD_up_ref(alg->md);
  fh_hmac_begin(&w);
  ok = k->live && fh_hmac_key_block(st, alg, key->data, key->len, &w) &&
       fh_hmac_keyed(alg, &w, &k->inner, NULL);
  fh_hmac_to_opad(alg, &w);
  ok = ok && fh_hmac_keyed(alg, &w, &k->outer, NULL);
  fh_hmac_wipe(alg, &w);
  if (ok) return k;
  finalize_key(NULL, k, NULL);
  return NULL;
}

/* hmacKeyNew(algId, key) -> external */
napi_value fh_hmac_key_new(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], result = NULL;
  void *self;
  fh_spec spec;
  fh_input key;
  fh_hmac_key *k;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if (!fh_get_spec(env, self, argv[0], NULL, NULL, FH_SPEC_HMAC | FH_SPEC_FRESH,
                   &spec) ||
      !fh_get_key(env, argv[1], &key))
    return NULL;
  k = new_key(self, spec.alg, &key);
  fh_input_release(&key);
  if (k == NULL) {
    fh_throw_openssl(env, "HMAC key setup");
    return NULL;
  }
  if (napi_create_external(env, k, finalize_key, NULL, &result) != napi_ok) {
    finalize_key(NULL, k, NULL);
    fh_throw(env, FH_ERROR, "ERR_NAPI_CALL_FAILED", "Cannot wrap the HMAC key");
    return NULL;
  }
  /* Told right after napi_create_external: from there on the finalizer
   * runs whatever happens, and gives back what k->reported holds. */
  fh_tell_memory(env, &k->reported, key_bytes(k));
  CALL(env, napi_type_tag_object(env, result, key_tag()));
  return result;
}

static int get_key(napi_env env, napi_value value, fh_hmac_key **out) {
  bool ours = false;
  void *data = NULL;

  /* Anything but an external fails here, with no exception pending (the tag
   * check alone would throw an uncoded TypeError for undefined and null). */
  if (napi_get_value_external(env, value, &data) != napi_ok) data = NULL;
  if (data != NULL && data == checked_key()) {
    ours = true;
  } else if (data != NULL &&
             napi_check_object_type_tag(env, value, key_tag(), &ours) == napi_ok &&
             ours) {
    set_checked_key(data);
  }
  if (!ours) {
    fh_throw(env, FH_TYPE_ERROR, "ERR_INVALID_ARG_TYPE", "Not an HmacKey");
    return 0;
  }
  *out = data;
  if ((*out)->live) return 1;
  fh_throw(env, FH_ERROR, "ERR_INVALID_STATE",
           "Invalid state: the HmacKey has been destroyed");
  return 0;
}

int fh_hmac_key_get(napi_env env, fh_state *st, napi_value value,
                    const fh_hmac_key **out) {
  fh_hmac_key *k;

  if (!get_key(env, value, &k)) return 0;
  fh_state_check_fips(st, 0);
  if (k->fips != st->fips) {
    fh_throw(env, FH_ERROR, "ERR_INVALID_STATE",
             "Invalid state: FIPS mode changed since the HmacKey was made");
    return 0;
  }
  *out = k;
  return 1;
}

int fh_hmac_key_mac(fh_state *st, const fh_hmac_key *k, const fh_input *data,
                    fh_hmac_work *w) {
  const fh_alg *alg = &k->alg;
  uint8_t *inner = FH_HMAC_INNER(w, alg);

  fh_hmac_begin(w);
  return fh_md_copy(&w->md, &k->inner, st->ctx) &&
         fh_md_finish(&w->md, data->data, data->len, inner, alg->size) &&
         fh_md_copy(&w->md, &k->outer, st->ctx) &&
         fh_md_finish(&w->md, inner, alg->size, FH_HMAC_MAC(w, alg), alg->size);
}

/* Reads (key, ..., data) and computes the MAC into w. Returns 1, or 0
 * with an exception pending. Either way the caller wipes w when *k is set. */
static int key_mac_args(napi_env env, fh_state *st, napi_value keyv,
                        napi_value datav, const fh_hmac_key **k,
                        fh_hmac_work *w) {
  fh_input data;
  int ok;

  *k = NULL;
  if (!fh_hmac_key_get(env, st, keyv, k)) return 0;
  if (!fh_get_input(env, datav, &data)) {
    *k = NULL;
    return 0;
  }
  ok = fh_hmac_key_mac(st, *k, &data, w);
  fh_input_release(&data);
  if (!ok) fh_throw_openssl(env, "HMAC");
  return ok;
}

/* hmacKeyDigest(key, encodingId, data[, buffer]) -> string, or fills buffer;
 * hmacKeyVerify(key, macEncodingId, data, mac) -> boolean. */
static napi_value key_entry(napi_env env, napi_callback_info info,
                            int verify) {
  size_t argc = 4;
  napi_value argv[4], result = NULL;
  void *self;
  const fh_hmac_key *k;
  fh_encoding enc;
  fh_hmac_work w;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if (!fh_get_encoding(env, argv[1], &enc)) return NULL;
  if (key_mac_args(env, self, argv[0], argv[2], &k, &w))
    fh_hmac_result(env, verify, verify ? argv[3] : FH_OPTIONAL_ARG(argc, argv, 3),
                   &k->alg, &w, enc, &result);
  if (k != NULL) fh_hmac_wipe(&k->alg, &w);
  return result;
}

napi_value fh_hmac_key_digest(napi_env env, napi_callback_info info) {
  return key_entry(env, info, 0);
}

napi_value fh_hmac_key_verify(napi_env env, napi_callback_info info) {
  return key_entry(env, info, 1);
}

/* hmacKeyDestroy(key): wipes the states now; later use throws. */
napi_value fh_hmac_key_destroy(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  fh_hmac_key *k;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (get_key(env, argv[0], &k)) {
    wipe_key(k);
    fh_tell_memory(env, &k->reported, key_bytes(k) - k->reported);
  }
  return NULL;
}
