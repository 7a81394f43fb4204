/* One-shot digests. MD5, SHA-1 and SHA-2 run on OpenSSL's low-level context
 * structs on the stack: no provider dispatch and no allocation, about half the
 * time of EVP_Digest for short inputs. On the environment's thread, the
 * other fixed-length digests run on their provider's own functions and its
 * provider context for them (fh_direct); XOFs, forced or FIPS EVP, and
 * thread-pool jobs use an EVP_MD_CTX. */

#include <string.h>

#include "fast_hash.h"

int fh_ll_init(fh_kind kind, fh_ll_ctx *c) {
  switch (kind) {
    case FH_KIND_MD5: return MD5_Init(&c->md5);
    case FH_KIND_SHA1: return SHA1_Init(&c->sha1);
    case FH_KIND_SHA224: return SHA224_Init(&c->sha256);
    case FH_KIND_SHA256: return SHA256_Init(&c->sha256);
    case FH_KIND_SHA384: return SHA384_Init(&c->sha512);
    case FH_KIND_SHA512: return SHA512_Init(&c->sha512);
    default: return 0;
  }
}

int fh_ll_update(fh_kind kind, fh_ll_ctx *c, const uint8_t *p, size_t n) {
  switch (kind) {
    case FH_KIND_MD5: return MD5_Update(&c->md5, p, n);
    case FH_KIND_SHA1: return SHA1_Update(&c->sha1, p, n);
    case FH_KIND_SHA224: return SHA224_Update(&c->sha256, p, n);
    case FH_KIND_SHA256: return SHA256_Update(&c->sha256, p, n);
    case FH_KIND_SHA384: return SHA384_Update(&c->sha512, p, n);
    case FH_KIND_SHA512: return SHA512_Update(&c->sha512, p, n);
    default: return 0;
  }
}

int fh_ll_final(fh_kind kind, fh_ll_ctx *c, uint8_t *out) {
  switch (kind) {
    case FH_KIND_MD5: return MD5_Final(out, &c->md5);
    case FH_KIND_SHA1: return SHA1_Final(out, &c->sha1);
    case FH_KIND_SHA224: return SHA224_Final(out, &c->sha256);
    case FH_KIND_SHA256: return SHA256_Final(out, &c->sha256);
    case FH_KIND_SHA384: return SHA384_Final(out, &c->sha512);
    case FH_KIND_SHA512: return SHA512_Final(out, &c->sha512);
    default: return 0;
  }
}

size_t fh_ll_size(fh_kind kind) {
  switch (kind) {
    case FH_KIND_MD5: return sizeof(MD5_CTX);
    case FH_KIND_SHA1: return sizeof(SHA_CTX);
    case FH_KIND_SHA224:
    case FH_KIND_SHA256: return sizeof(SHA256_CTX);
    default: return sizeof(SHA512_CTX);
  }
}

size_t fh_ll_block(fh_kind kind) {
  return kind == FH_KIND_SHA384 || kind == FH_KIND_SHA512 ? SHA512_CBLOCK
                                                          : SHA256_CBLOCK;
}

static void put_be64(uint8_t *p, uint64_t v) {
  int i;

  for (i = 7; i >= 0; i--, v >>= 8) p[i] = (uint8_t)v;
}

static void put_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

static void put_le32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

size_t fh_ll_pad(fh_kind kind, uint8_t *buf, size_t used, uint64_t total) {
  size_t block = fh_ll_block(kind);
  /* The bit count field: 8 bytes, or 16 for SHA-384/512 (whose upper half
   * is 0 at any length a size_t can count). */
  size_t field = block == SHA512_CBLOCK ? 16 : 8;
  size_t n = (used + 1 + field + block - 1) / block * block;

  buf[used] = 0x80;
  memset(buf + used + 1, 0, n - used - 1);
  if (kind == FH_KIND_MD5) {
    put_le32(buf + n - 8, (uint32_t)(total << 3));
    put_le32(buf + n - 4, (uint32_t)(total >> 29));
  } else {
    put_be64(buf + n - 8, total << 3);
  }
  return n;
}

void fh_ll_output(fh_kind kind, const fh_ll_ctx *c, uint8_t *out) {
  int i;

  switch (kind) {
    case FH_KIND_MD5:
      put_le32(out, c->md5.A);
      put_le32(out + 4, c->md5.B);
      put_le32(out + 8, c->md5.C);
      put_le32(out + 12, c->md5.D);
      break;
    case FH_KIND_SHA1:
      put_be32(out, c->sha1.h0);
      put_be32(out + 4, c->sha1.h1);
      put_be32(out + 8, c->sha1.h2);
      put_be32(out + 12, c->sha1.h3);
      put_be32(out + 16, c->sha1.h4);
      break;
    case FH_KIND_SHA224:
    case FH_KIND_SHA256:
      for (i = 0; i < (kind == FH_KIND_SHA224 ? 7 : 8); i++)
        put_be32(out + 4 * i, c->sha256.h[i]);
      break;
    default:
      for (i = 0; i < (kind == FH_KIND_SHA384 ? 6 : 8); i++)
        put_be64(out + 8 * i, c->sha512.h[i]);
      break;
  }
}

static int evp_digest(EVP_MD_CTX *ctx, const fh_alg *alg, const uint8_t *data,
                      size_t len, uint8_t *out, size_t outlen) {
  int ok = EVP_DigestInit_ex(ctx, alg->md, NULL) &&
           EVP_DigestUpdate(ctx, data, len) &&
           (alg->xof ? EVP_DigestFinalXOF(ctx, out, outlen)
                     : EVP_DigestFinal_ex(ctx, out, NULL));

  /* A failed context may hold a half-set-up provider state: start afresh. */
  if (!ok) EVP_MD_CTX_reset(ctx);
  return ok;
}

int fh_digest_in(fh_ll_ctx *ll, EVP_MD_CTX *ctx, const fh_alg *alg,
                 const uint8_t *data, size_t len, uint8_t *out, size_t outlen) {
  if (alg->kind == FH_KIND_EVP) {
    /* SHAKE of length 0 is the empty string; OpenSSL refuses to squeeze 0. */
    if (alg->xof && outlen == 0) return 1;
    return evp_digest(ctx, alg, data, len, out, outlen);
  }
  return fh_ll_init(alg->kind, ll) && fh_ll_update(alg->kind, ll, data, len) &&
         fh_ll_final(alg->kind, ll, out);
}

int fh_digest(EVP_MD_CTX *ctx, const fh_alg *alg, const uint8_t *data,
              size_t len, uint8_t *out, size_t outlen) {
  fh_ll_ctx c;
  int ok = fh_digest_in(&c, ctx, alg, data, len, out, outlen);

  if (alg->kind != FH_KIND_EVP) fh_wipe(&c, fh_ll_size(alg->kind));
  return ok;
}

/* The provider's functions on the environment's provider context: init resets
 * it in place, so nothing is allocated or freed. The context keeps the last
 * digest's final state until the next init, as a reused EVP context does. */
static int direct_digest(const fh_direct *d, const uint8_t *data, size_t len,
                         uint8_t *out, size_t outlen) {
  size_t written = 0;

  /* EVP skips empty updates; a provider need not accept a NULL pointer. */
  return d->init(d->ctx, NULL) && (len == 0 || d->update(d->ctx, data, len)) &&
         d->final(d->ctx, out, &written, outlen) && written == outlen;
}

int fh_digest_env_in(fh_state *st, fh_ll_ctx *ll, const fh_alg *alg,
                     const uint8_t *data, size_t len, uint8_t *out,
                     size_t outlen) {
  const fh_direct *d = &st->direct[alg - st->algs];

  if (d->ctx != NULL) return direct_digest(d, data, len, out, outlen);
  return fh_digest_in(ll, st->ctx, alg, data, len, out, outlen);
}

int fh_digest_env(fh_state *st, const fh_alg *alg, const uint8_t *data,
                  size_t len, uint8_t *out, size_t outlen) {
  fh_ll_ctx c;
  int ok = fh_digest_env_in(st, &c, alg, data, len, out, outlen);

  if (alg->kind != FH_KIND_EVP) fh_wipe(&c, fh_ll_size(alg->kind));
  return ok;
}

int fh_stream_init(fh_stream *s, const fh_alg *alg, EVP_MD_CTX *evp) {
  s->alg = alg;
  s->evp = evp;
  if (alg->kind == FH_KIND_EVP) return EVP_DigestInit_ex(evp, alg->md, NULL);
  return fh_ll_init(alg->kind, &s->ll);
}

int fh_stream_update(fh_stream *s, const uint8_t *p, size_t n) {
  if (s->alg->kind == FH_KIND_EVP) return EVP_DigestUpdate(s->evp, p, n);
  return fh_ll_update(s->alg->kind, &s->ll, p, n);
}

int fh_stream_final(fh_stream *s, uint8_t *out, size_t outlen) {
  const fh_alg *alg = s->alg;

  if (alg->kind != FH_KIND_EVP) return fh_ll_final(alg->kind, &s->ll, out);
  if (!alg->xof) return EVP_DigestFinal_ex(s->evp, out, NULL);
  /* SHAKE of length 0 is the empty string; OpenSSL refuses to squeeze 0. */
  return outlen == 0 || EVP_DigestFinalXOF(s->evp, out, outlen);
}

void fh_stream_wipe(fh_stream *s) {
  if (s->alg->kind != FH_KIND_EVP)
    fh_wipe(&s->ll, fh_ll_size(s->alg->kind));
}
