/* The algorithm table: which digests take the low-level path, and the
 * per-environment cache of fetched digests that the JS shim addresses by
 * small integer IDs (slot indexes). */
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/provider.h>

#include "fast_hash.h"

/* Digests whose low-level context structs OpenSSL still exports. */
static const struct {
  int nid;
  fh_kind kind;
} low_level[] = {
  { NID_md5, FH_KIND_MD5 },
  { NID_sha1, FH_KIND_SHA1 },
  { NID_sha224, FH_KIND_SHA224 },
  { NID_sha256, FH_KIND_SHA256 },
  { NID_sha384, FH_KIND_SHA384 },
  { NID_sha512, FH_KIND_SHA512 },
};

/* OpenSSL 3.4+ gives SHAKE no default length; Node 20 and 22 use these. */
static const struct {
  int nid;
  uint32_t size;
} xof_default[] = {
  { NID_shake128, 16 },
  { NID_shake256, 32 },
};

fh_state *fh_state_new(void) {
  fh_state *st = calloc(1, sizeof(*st));

  if (st == NULL) return NULL;
  st->ctx = EVP_MD_CTX_new();
  st->ctx2 = EVP_MD_CTX_new();
  if (st->ctx == NULL || st->ctx2 == NULL) {
    fh_state_free(st);
    return NULL;
  }
  /* In FIPS mode the provider's policy must see every digest. */
  st->fips = EVP_default_properties_is_fips_enabled(NULL);
  st->evp_only = st->fips;
  return st;
}

static void direct_free(fh_direct *d) {
  if (d->ctx != NULL) d->freectx(d->ctx);
  memset(d, 0, sizeof(*d));
}

void fh_state_free(fh_state *st) {
  uint32_t i;

  if (st == NULL) return;
  for (i = 0; i < st->nalgs; i++) {
    direct_free(&st->direct[i]); /* before its provider may be unloaded */
    EVP_MD_free(st->algs[i].md);
  }
  EVP_MD_CTX_free(st->ctx);
  EVP_MD_CTX_free(st->ctx2);
  free(st);
}

static fh_kind kind_of(const fh_state *st, int nid) {
  size_t i;

  if (st->evp_only) return FH_KIND_EVP;
  for (i = 0; i < sizeof(low_level) / sizeof(low_level[0]); i++)
    if (low_level[i].nid == nid) return low_level[i].kind;
  return FH_KIND_EVP;
}

static int default_size(const EVP_MD *md, int xof) {
  int size = EVP_MD_get_size(md);
  size_t i;

  if (xof && size <= 0)
    for (i = 0; i < sizeof(xof_default) / sizeof(xof_default[0]); i++)
      if (xof_default[i].nid == EVP_MD_get_type(md)) size = (int)xof_default[i].size;
  return size;
}

/* Whether a provider table entry's names ("SHA3-256:2.16.840...") are md's:
 * all the names of one entry name one algorithm, so the first decides. */
static int names_md(const EVP_MD *md, const char *names) {
  char first[128];
  size_t n = strcspn(names, ":");

  if (n >= sizeof(first)) return 0;
  memcpy(first, names, n);
  first[n] = '\0';
  return EVP_MD_is_a(md, first);
}

/* Finds md's own functions in its provider's digest table and makes this
 * environment's provider context for it; leaves d empty (EVP is used) when
 * the table does not name md exactly once or lacks a function. */
static void direct_setup(fh_direct *d, const EVP_MD *md) {
  const OSSL_PROVIDER *prov = EVP_MD_get0_provider(md);
  const OSSL_ALGORITHM *table, *a, *found = NULL;
  const OSSL_DISPATCH *f;
  OSSL_FUNC_digest_newctx_fn *newctx = NULL;
  fh_direct fns = { NULL, NULL, NULL, NULL, NULL };
  int no_cache = 0, matches = 0;

  if (prov == NULL) return;
  table = OSSL_PROVIDER_query_operation(prov, OSSL_OP_DIGEST, &no_cache);
  for (a = table; a != NULL && a->algorithm_names != NULL; a++) {
    if (names_md(md, a->algorithm_names)) {
      found = a;
      matches++;
    }
  }
  for (f = matches == 1 ? found->implementation : NULL;
       f != NULL && f->function_id != 0; f++) {
    switch (f->function_id) {
      case OSSL_FUNC_DIGEST_NEWCTX: newctx = OSSL_FUNC_digest_newctx(f); break;
      case OSSL_FUNC_DIGEST_INIT: fns.init = OSSL_FUNC_digest_init(f); break;
      case OSSL_FUNC_DIGEST_UPDATE: fns.update = OSSL_FUNC_digest_update(f); break;
      case OSSL_FUNC_DIGEST_FINAL: fns.final = OSSL_FUNC_digest_final(f); break;
      case OSSL_FUNC_DIGEST_FREECTX: fns.freectx = OSSL_FUNC_digest_freectx(f); break;
      default: break;
    }
  }
  if (newctx != NULL && fns.init != NULL && fns.update != NULL &&
      fns.final != NULL && fns.freectx != NULL)
    fns.ctx = newctx(OSSL_PROVIDER_get0_provider_ctx(prov));
  if (table != NULL) OSSL_PROVIDER_unquery_operation(prov, OSSL_OP_DIGEST, table);
  if (fns.ctx != NULL) *d = fns;
}

/* Puts md (owned, or NULL when FIPS mode forbids it) in slot i with the path
 * it takes in this environment. */
static void use_md(fh_state *st, uint32_t i, EVP_MD *md) {
  fh_alg *alg = &st->algs[i];

  direct_free(&st->direct[i]);
  EVP_MD_free(alg->md);
  alg->md = md;
  alg->kind = kind_of(st, alg->nid);
  if (md != NULL && !st->evp_only && alg->kind == FH_KIND_EVP && !alg->xof)
    direct_setup(&st->direct[i], md);
}

/* Fetches `name` from the providers; names only the legacy table knows
 * (aliases such as RSA-SHA256) are fetched by the canonical name it gives.
 * What cannot be fetched cannot be used in OpenSSL 3 (md4 without the legacy
 * provider, md5 in FIPS mode), so it counts as unknown. */
static EVP_MD *lookup(const char *name) {
  EVP_MD *md = EVP_MD_fetch(NULL, name, NULL);
  const EVP_MD *legacy;

  if (md != NULL) return md;
  legacy = EVP_get_digestbyname(name);
  return legacy == NULL ? NULL
                        : EVP_MD_fetch(NULL, EVP_MD_get0_name(legacy), NULL);
}

int fh_alg_resolve(fh_state *st, const char *name) {
  EVP_MD *md;
  fh_alg *alg;
  uint32_t i;
  int xof, size;

  fh_state_follow_fips(st);
  md = lookup(name);

  /* Failed fetches leave entries on the thread's queue; node:crypto must not
   * see them. */
  ERR_clear_error();
  if (md == NULL) return -1;
  /* Aliases of one digest share a slot: fetches return the same object. */
  for (i = 0; i < st->nalgs; i++) {
    if (st->algs[i].md == md) {
      EVP_MD_free(md);
      return (int)i;
    }
  }
  xof = (EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF) != 0;
  size = default_size(md, xof);
  if (st->nalgs == FH_MAX_ALGS || size <= 0 ||
      (!xof && size > EVP_MAX_MD_SIZE)) {
    EVP_MD_free(md);
    return -1;
  }
  alg = &st->algs[st->nalgs];
  alg->md = NULL;
  alg->nid = EVP_MD_get_type(md);
  alg->size = (uint32_t)size;
  alg->block = (uint32_t)EVP_MD_get_block_size(md);
  alg->xof = xof;
  use_md(st, st->nalgs, md);
  ERR_clear_error();
  return (int)st->nalgs++;
}

void fh_state_follow_fips(fh_state *st) {
  int fips = EVP_default_properties_is_fips_enabled(NULL);
  uint32_t i;

  if (fips == st->fips) return;
  st->fips = fips;
  st->evp_only = st->force_evp || fips;
  for (i = 0; i < st->nalgs; i++) {
    fh_alg *alg = &st->algs[i];
    const char *name = alg->nid != NID_undef ? OBJ_nid2sn(alg->nid)
                       : alg->md != NULL     ? EVP_MD_get0_name(alg->md)
                                             : NULL;

    use_md(st, i, name != NULL ? EVP_MD_fetch(NULL, name, NULL) : NULL);
  }
  ERR_clear_error();
}

int fh_hmac_capable(const fh_alg *alg) {
  return !alg->xof && alg->block > 0 && alg->block <= FH_MAX_BLOCK &&
         alg->size <= EVP_MAX_MD_SIZE;
}
