/* Digest states and one-shot digests: the only file that knows which of
 * OpenSSL's ways computes a digest. MD5, SHA-1 and SHA-2 run on OpenSSL's
 * low-level context structs: no provider dispatch and no allocation. On the
 * environment's thread, one-shots of the other fixed-length digests run on
 * their provider's own functions and its provider context for them
 * (fh_direct): EVP_DigestInit would free and re-create that context on
 * every call. XOFs, forced or FIPS EVP and other threads use an
 * EVP_MD_CTX. The figures behind the low-level path: see
 * benchmark/README.md, Figures behind design choices. */

#include <string.h>

#include "fast_hash.h"

/* What an own EVP context costs beyond its pointer: OpenSSL's context and
 * the provider's state (an estimate; SHA-3's, ~400 bytes, is the
 * largest). */
#define FH_EVP_CTX_BYTES 512

/* Tails up to this many bytes after whole blocks go with their padding
 * through the compression function in one update, with no Final: one call
 * for all their blocks instead of an update, a buffered copy and a final
 * block (see benchmark/README.md, Figures behind design choices). */
#define FH_MD_SHORT 256

static int fh_ll_init(fh_kind kind, fh_ll_ctx *c) {
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

static int fh_ll_update(fh_kind kind, fh_ll_ctx *c, const uint8_t *p, size_t n) {
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

static int fh_ll_final(fh_kind kind, fh_ll_ctx *c, uint8_t *out) {
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

static size_t fh_ll_block(fh_kind kind) {
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

static size_t fh_ll_pad(fh_kind kind, uint8_t *buf, size_t used, uint64_t total) {
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

static void fh_ll_output(fh_kind kind, const fh_ll_ctx *c, uint8_t *out) {
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

/* The bytes absorbed so far by a low-level state, and whether they end on
 * a block boundary (nothing buffered). */
static uint64_t ll_absorbed(fh_kind kind, const fh_ll_ctx *c, int *whole) {
  switch (kind) {
    case FH_KIND_MD5:
      *whole = c->md5.num == 0;
      return ((uint64_t)c->md5.Nh << 32 | c->md5.Nl) >> 3;
    case FH_KIND_SHA1:
      *whole = c->sha1.num == 0;
      return ((uint64_t)c->sha1.Nh << 32 | c->sha1.Nl) >> 3;
    case FH_KIND_SHA224:
    case FH_KIND_SHA256:
      *whole = c->sha256.num == 0;
      return ((uint64_t)c->sha256.Nh << 32 | c->sha256.Nl) >> 3;
    default:
      *whole = c->sha512.num == 0;
      return (uint64_t)(c->sha512.Nl >> 3);
  }
}

/* A low-level state on a block boundary finishing with a tail of at most
 * FH_MD_SHORT bytes: the tail and its padding in one update, the digest read
 * from the state. The copy of the tail is wiped (for HMAC it holds the inner
 * digest). */
static int ll_finish_short(fh_kind kind, fh_ll_ctx *c, uint64_t absorbed,
                           const uint8_t *p, size_t n, uint8_t *out) {
  uint8_t tail[FH_MD_SHORT + 2 * SHA512_CBLOCK];
  size_t padded;
  int ok;

  if (n > 0) memcpy(tail, p, n);
  padded = fh_ll_pad(kind, tail, n, absorbed + n);
  ok = fh_ll_update(kind, c, tail, padded);
  if (ok) fh_ll_output(kind, c, out);
  fh_wipe(tail, padded);
  return ok;
}

/* An EVP state's digest. SHAKE of length 0 is the empty string, which
 * OpenSSL refuses to squeeze. */
static int evp_final(EVP_MD_CTX *ctx, int xof, uint8_t *out, size_t outlen) {
  if (!xof) return EVP_DigestFinal_ex(ctx, out, NULL);
  return outlen == 0 || EVP_DigestFinalXOF(ctx, out, outlen);
}

/* Opens a closed state of `kind`. 0 when an own context cannot be made (m
 * is then open and closable). */
static int md_open(fh_md *m, fh_kind kind, int xof, EVP_MD_CTX *lent) {
  m->kind = (uint8_t)kind;
  m->xof = (uint8_t)xof;
  m->open = 1;
  m->own = kind == FH_KIND_EVP && lent == NULL;
  m->evp = kind != FH_KIND_EVP ? NULL : lent != NULL ? lent
                                                     : EVP_MD_CTX_new();
  return kind != FH_KIND_EVP || m->evp != NULL;
}

int fh_md_start(fh_md *m, const fh_alg *alg, EVP_MD_CTX *lent) {
  if (!m->open && !md_open(m, alg->kind, alg->xof, lent)) return 0;
  if (m->kind == FH_KIND_EVP) return EVP_DigestInit_ex(m->evp, alg->md, NULL);
  return fh_ll_init((fh_kind)m->kind, &m->ll);
}

int fh_md_update(fh_md *m, const uint8_t *p, size_t n) {
  if (m->kind == FH_KIND_EVP) return EVP_DigestUpdate(m->evp, p, n);
  return fh_ll_update((fh_kind)m->kind, &m->ll, p, n);
}

int fh_md_final(fh_md *m, uint8_t *out, size_t outlen) {
  if (m->kind == FH_KIND_EVP) return evp_final(m->evp, m->xof, out, outlen);
  return fh_ll_final((fh_kind)m->kind, &m->ll, out);
}

int fh_md_finish(fh_md *m, const uint8_t *p, size_t n, uint8_t *out,
                 size_t outlen) {
  uint64_t absorbed;
  int whole;

  if (m->kind != FH_KIND_EVP && n <= FH_MD_SHORT) {
    absorbed = ll_absorbed((fh_kind)m->kind, &m->ll, &whole);
    if (whole) return ll_finish_short((fh_kind)m->kind, &m->ll, absorbed, p, n, out);
  }
  return (n == 0 || fh_md_update(m, p, n)) && fh_md_final(m, out, outlen);
}

int fh_md_copy(fh_md *dst, const fh_md *src, EVP_MD_CTX *lent) {
  if (!dst->open && !md_open(dst, (fh_kind)src->kind, src->xof, lent)) return 0;
  if (src->kind == FH_KIND_EVP) return EVP_MD_CTX_copy_ex(dst->evp, src->evp);
  memcpy(&dst->ll, &src->ll, sizeof(dst->ll));
  return 1;
}

void fh_md_close(fh_md *m) {
  if (!m->open) return;
  /* Both clear the provider's state before it is freed or reused. */
  if (m->own)
    EVP_MD_CTX_free(m->evp);
  else if (m->evp != NULL)
    EVP_MD_CTX_reset(m->evp);
  if (m->kind != FH_KIND_EVP) fh_wipe(&m->ll, sizeof(m->ll));
  m->evp = NULL;
  m->open = 0;
}

size_t fh_md_heap(const fh_md *m) {
  return m->open && m->own ? FH_EVP_CTX_BYTES : 0;
}

/* A one-shot in an EVP context. A failed context may hold a half-set-up
 * provider state: it starts afresh. */
static int evp_digest(EVP_MD_CTX *ctx, const fh_alg *alg, const uint8_t *data,
                      size_t len, uint8_t *out, size_t outlen) {
  int ok = EVP_DigestInit_ex(ctx, alg->md, NULL) &&
           EVP_DigestUpdate(ctx, data, len) &&
           evp_final(ctx, alg->xof, out, outlen);

  if (!ok) EVP_MD_CTX_reset(ctx);
  return ok;
}

/* A one-shot through EVP: the environment's context, or one of the call's
 * own on other threads. */
static int evp_one_shot(fh_state *st, const fh_alg *alg, const uint8_t *data,
                        size_t len, uint8_t *out, size_t outlen) {
  EVP_MD_CTX *ctx = st != NULL ? st->ctx : EVP_MD_CTX_new();
  int ok = ctx != NULL && evp_digest(ctx, alg, data, len, out, outlen);

  if (st == NULL) EVP_MD_CTX_free(ctx);
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

int fh_digest(fh_state *st, fh_ll_ctx *scratch, const fh_alg *alg,
              const uint8_t *data, size_t len, uint8_t *out, size_t outlen) {
  fh_ll_ctx own;
  fh_ll_ctx *c = scratch != NULL ? scratch : &own;
  int ok;

  if (st != NULL && st->direct[alg - st->algs].ctx != NULL)
    return direct_digest(&st->direct[alg - st->algs], data, len, out, outlen);
  if (alg->kind == FH_KIND_EVP)
    return evp_one_shot(st, alg, data, len, out, outlen);
  ok = fh_ll_init(alg->kind, c) && fh_ll_update(alg->kind, c, data, len) &&
       fh_ll_final(alg->kind, c, out);
  if (scratch == NULL) fh_wipe(&own, sizeof(own));
  return ok;
}

const char *fh_digest_path(const fh_state *st, const fh_alg *alg) {
  if (alg->kind != FH_KIND_EVP) return "low-level";
  return st->direct[alg - st->algs].ctx != NULL ? "provider" : "evp";
}
