/* fast-hash: the algorithm table and the digest states, the part of the
 * internal header (fast_hash.h includes it) that says how a digest is
 * computed. Read it first: every other file digests through fh_digest or an
 * fh_md. */
#ifndef FAST_HASH_DIGEST_H
#define FAST_HASH_DIGEST_H

#include <stddef.h>
#include <stdint.h>

#include <node_api.h>
#include <openssl/core_dispatch.h>
#include <openssl/evp.h>
#include <openssl/md5.h>
#include <openssl/sha.h>

/* ---- algorithms (algs.c) ------------------------------------------------- */

/* How a digest is computed: OpenSSL's low-level context structs on the stack
 * for the common ones (no provider dispatch, no allocation), else EVP. */
typedef enum {
  FH_KIND_EVP = 0,
  FH_KIND_MD5,
  FH_KIND_SHA1,
  FH_KIND_SHA224,
  FH_KIND_SHA256,
  FH_KIND_SHA384,
  FH_KIND_SHA512
} fh_kind;

typedef struct {
  EVP_MD *md;        /* fetched once (again if FIPS mode changes); NULL when
                        FIPS mode forbids it. Freed with the environment. */
  int nid;
  fh_kind kind;
  uint32_t size;     /* default output length in bytes */
  uint32_t block;    /* block size in bytes */
  int xof;           /* extendable output: any length may be asked for */
} fh_alg;

/* One slot per distinct digest; far more than OpenSSL has. */
#define FH_MAX_ALGS 64

/* The largest block of an HMAC-capable digest (SHA3-224: 144 bytes; SHAKE128
 * has 168 but is an XOF). OpenSSL 3.0 defines no constant for it. */
#define FH_MAX_BLOCK 168

/* A digest's own provider functions and a provider context of one
 * environment's, for the EVP kinds on that environment's thread. EVP_DigestInit
 * in OpenSSL 3.0 frees and re-creates the provider context on every init (a
 * malloc, a free and a wipe per call) and dispatches through several layers;
 * the provider's init resets the context in place. ctx is NULL where EVP is
 * used instead: XOFs (their length is a parameter), FIPS mode or
 * FAST_HASH_FORCE_EVP (every call goes through EVP's checks), or a provider
 * whose table does not name the digest exactly once. */
typedef struct {
  void *ctx;
  OSSL_FUNC_digest_init_fn *init;
  OSSL_FUNC_digest_update_fn *update;
  OSSL_FUNC_digest_final_fn *final;
  OSSL_FUNC_digest_freectx_fn *freectx;
} fh_direct;
/* Per-environment state (Node-API instance data): every worker thread that
 * loads the addon has its own, so nothing here is shared between threads. */
typedef struct {
  fh_alg algs[FH_MAX_ALGS];
  fh_direct direct[FH_MAX_ALGS]; /* by slot, like algs; never copied into a
                                     thread-pool job */
  uint32_t nalgs;
  EVP_MD_CTX *ctx;   /* reused by every EVP-path digest of this environment */
  EVP_MD_CTX *ctx2;  /* and, for HMAC, the outer state beside it */
  int force_evp;     /* forceEvp() called (FAST_HASH_FORCE_EVP=1 in the
                        environment's own process.env, read by the shim) */
  int fips;          /* FIPS mode as of the last fetch */
  int evp_only;      /* force_evp or fips: no low-level path */
  uint32_t calls;    /* per-call FIPS checks are spaced by this counter */
  struct fh_hashers *hashers; /* hasher.c: this environment's hasher states */
  napi_ref probe;    /* env.c: an empty JS function, made on first use */
  struct fh_pool_env *pool; /* pool.c: this environment's side of the
                               addon's threads, made at its first task */
} fh_state;

fh_state *fh_state_new(void);
void fh_state_free(fh_state *st);

/* Looks `name` up (fetch, then the legacy table) and returns its slot index,
 * or -1 when OpenSSL knows no such digest. Leaves OpenSSL's queue empty. */
int fh_alg_resolve(fh_state *st, const char *name);

/* Whether HMAC takes this digest: not an XOF, a block no larger than
 * FH_MAX_BLOCK (this protects fh_hmac_work's memory: fh_get_spec checks it
 * for every HMAC entry). */
int fh_hmac_capable(const fh_alg *alg);

/* Follows FIPS mode, which crypto.setFips() can switch at run time: when it
 * changed since the digests were fetched, they are fetched again under the
 * new default properties (a forbidden one is left NULL) and the low-level
 * path is turned off or on; slot IDs stay as they are. */
void fh_state_follow_fips(fh_state *st);
#define FH_FIPS_CHECK_EVERY 1024

/* The FIPS rule. Asking OpenSSL takes a lock, a visible part of a short
 * call, so with `now` 0 it asks only every FH_FIPS_CHECK_EVERY calls (the
 * per-call paths); calls that fetch, make a key, or start a batch, an async
 * job or a file pass 1. Called by the two argument readers (fh_get_spec,
 * fh_hmac_key_get) and nowhere else; inline, as it runs on every call
 * (see benchmark/README.md, Figures behind design choices). */
static inline void fh_state_check_fips(fh_state *st, int now) {
  if (now || ++st->calls % FH_FIPS_CHECK_EVERY == 0) fh_state_follow_fips(st);
}

/* ---- digest states (digest.c) --------------------------------------------
 * The one place that knows how a digest is computed: OpenSSL's low-level
 * structs (MD5, SHA-1, SHA-2: no dispatch, no allocation), a provider's own
 * functions (other fixed-length digests, one-shots on the environment's
 * thread), or EVP (XOFs, FIPS mode, forced EVP, other threads). Everything
 * else digests through fh_digest or an fh_md and never asks which. */

/* Low-level contexts. States are copied and wiped whole: a copy or a wipe
 * of a size known at compile time is a few vector moves, where one of the
 * size a kind uses becomes `rep movs`/`rep stos`, whose start-up costs
 * more than the bytes. */
typedef union {
  MD5_CTX md5;
  SHA_CTX sha1;
  SHA256_CTX sha256;
  SHA512_CTX sha512;
} fh_ll_ctx;

/* A digest in progress. It is closed when its memory is zeroed and after
 * fh_md_close. EVP kinds run in an EVP_MD_CTX that is either lent by the
 * caller (the environment's, reused call after call, and reset on close)
 * or the state's own (made when it opens, freed on close). */
typedef struct {
  uint8_t kind;      /* fh_kind, fixed when it opens (FIPS mode may change
                        the algorithm slot's kind later) */
  uint8_t xof;
  uint8_t open;
  uint8_t own;       /* evp is the state's own */
  EVP_MD_CTX *evp;   /* EVP kinds */
  fh_ll_ctx ll;      /* low-level kinds */
} fh_md;

/* Starts a digest of alg in m: a closed m opens (EVP kinds in `lent`, or a
 * context of its own when lent is NULL); an open one restarts in its
 * context (same kind). Returns 1, or 0 with the reason on OpenSSL's queue
 * (m is then still closable). */
int fh_md_start(fh_md *m, const fh_alg *alg, EVP_MD_CTX *lent);
int fh_md_update(fh_md *m, const uint8_t *p, size_t n);
/* Writes the digest to out[0..outlen): outlen is the digest's size unless
 * it is an XOF (any length, 0 included). */
int fh_md_final(fh_md *m, uint8_t *out, size_t outlen);
/* fh_md_update of p[0..n), then fh_md_final: a short tail after whole
 * blocks goes through the compression function with its padding in one
 * update, and the digest is read from the state. */
int fh_md_finish(fh_md *m, const uint8_t *p, size_t n, uint8_t *out,
                 size_t outlen);
/* Makes dst a copy of src: a closed dst opens as src's kind (EVP kinds in
 * `lent`, or a context of its own), an open one is overwritten. */
int fh_md_copy(fh_md *dst, const fh_md *src, EVP_MD_CTX *lent);
/* Wipes the state, resets a lent context, frees an own one. */
void fh_md_close(fh_md *m);
/* The native memory the state holds beyond itself (an estimate, told to
 * V8 by the holders of long-lived states). */
size_t fh_md_heap(const fh_md *m);

/* One-shot digest of data[0..len) into out[0..outlen) (outlen as in
 * fh_md_final). st: the environment's state, on its thread (its provider
 * contexts and EVP context are used), or NULL on any other thread. scratch:
 * a low-level state the caller wipes once for a whole batch, or NULL.
 * Returns 1, or 0 with the reason on OpenSSL's queue. */
int fh_digest(fh_state *st, fh_ll_ctx *scratch, const fh_alg *alg,
              const uint8_t *data, size_t len, uint8_t *out, size_t outlen);

/* How fh_digest computes alg in this environment: "low-level", "provider"
 * or "evp" (resolve()'s `path`, for tests and benchmarks). */
const char *fh_digest_path(const fh_state *st, const fh_alg *alg);

#endif /* FAST_HASH_DIGEST_H */
