/* The algorithm table: which digests take the low-level path, and the
 * per-environment cache of fetched digests that the JS shim addresses by
 * small integer IDs (slot indexes). */
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/objects.h>

#include "fast_hash.h"

/* Digests whose low-level context structs OpenSSL still exports. */
static const struct {
  int nid;
  fh_kind kind;
} low_level[] = {
  { NID_md5, FH_KIND_MD5 },       { NID_sha1, FH_KIND_SHA1 },
  { NID_sha224, FH_KIND_SHA224 }, { NID_sha256, FH_KIND_SHA256 },
  { NID_sha384, FH_KIND_SHA384 }, { NID_sha512, FH_KIND_SHA512 },
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
  const char *force;

  if (st == NULL) return NULL;
  st->ctx = EVP_MD_CTX_new();
  st->ctx2 = EVP_MD_CTX_new();
  if (st->ctx == NULL || st->ctx2 == NULL) {
    fh_state_free(st);
    return NULL;
  }
  /* In FIPS mode the provider's policy must see every digest. */
  force = getenv("FAST_HASH_FORCE_EVP");
  st->force_evp = force != NULL && strcmp(force, "1") == 0;
  st->fips = EVP_default_properties_is_fips_enabled(NULL);
  st->evp_only = st->force_evp || st->fips;
  return st;
}

void fh_state_free(fh_state *st) {
  uint32_t i;

  if (st == NULL) return;
  for (i = 0; i < st->nalgs; i++) EVP_MD_free(st->algs[i].md);
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

  fh_state_follow_fips(st);
  md = lookup(name);
  fh_alg *alg;
  uint32_t i;
  int xof, size;

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
  alg->md = md;
  alg->nid = EVP_MD_get_type(md);
  alg->kind = kind_of(st, alg->nid);
  alg->size = (uint32_t)size;
  alg->block = (uint32_t)EVP_MD_get_block_size(md);
  alg->xof = xof;
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
                       : alg->md != NULL ? EVP_MD_get0_name(alg->md) : NULL;
    EVP_MD *md = name != NULL ? EVP_MD_fetch(NULL, name, NULL) : NULL;

    EVP_MD_free(alg->md);
    alg->md = md;
    alg->kind = kind_of(st, alg->nid);
  }
  ERR_clear_error();
}
