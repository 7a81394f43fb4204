/* fast-hash: the one internal header shared by every C file of the addon. */
#ifndef FAST_HASH_H
#define FAST_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <node_api.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

/* C99's restrict and inline: MSVC's C compiler in its default (pre-C11)
 * mode, which node-gyp uses for C, knows them only as __restrict and
 * __inline; /std:c11 and later define __STDC_VERSION__ and know both. */
#if defined(_MSC_VER) && !defined(__clang__) && !defined(__STDC_VERSION__)
#define restrict __restrict
#define inline __inline
#endif

/* ---- wiping ---------------------------------------------------------------
 * Every key, key block, HMAC state, digest and its text is wiped before its
 * memory is given back, on every exit path. fh_wipe is memset followed by an
 * empty asm that takes the pointer and clobbers memory: the compiler must
 * assume the zeros are read, so it cannot drop them as dead stores. That is
 * OPENSSL_cleanse's guarantee at memset's speed (OPENSSL_cleanse stores 8
 * bytes per loop turn; at key-block sizes the difference shows in a short
 * HMAC: see benchmark/README.md, Figures behind design choices). */
static inline void fh_wipe(void *p, size_t n) {
#if defined(__GNUC__) || defined(__clang__)
  /* A large wipe of a size the compiler knows would become `rep stos`,
   * whose start-up costs more than libc's vector stores: the size is hidden
   * from it. */
  if (__builtin_constant_p(n) && n > 128) __asm__("" : "+r"(n));
  memset(p, 0, n);
  __asm__ __volatile__("" : : "r"(p) : "memory");
#else
  OPENSSL_cleanse(p, n);
#endif
}

/* ---- native memory told to V8 ---------------------------------------------
 * Tells V8 of native memory held (bytes > 0) or given back (bytes < 0), and
 * keeps in *told what V8 accepted. Never more is given back than was told:
 * V8 in Node 24 and later aborts the process when its count would go below
 * zero, and a worker's terminate() can make the calls around a telling one
 * fail while a finalizer still gives back. With env NULL (teardown without
 * an environment) nothing is told. */
static inline void fh_tell_memory(napi_env env, int64_t *told, int64_t bytes) {
  int64_t unused;

  if (env == NULL) return;
  if (bytes < -*told) bytes = -*told;
  if (bytes != 0 && napi_adjust_external_memory(env, bytes, &unused) == napi_ok)
    *told += bytes;
}

/* ---- errors (error.c) ---------------------------------------------------- */

typedef enum { FH_ERROR,
               FH_TYPE_ERROR,
               FH_RANGE_ERROR } fh_error_class;

/* Throws a JS error of class `cls` whose `code` is `code`, unless an exception
 * is already pending (the first error is the one the user should see). */
void fh_throw(napi_env env, fh_error_class cls, const char *code,
              const char *fmt, ...);

/* Turns a failed Node-API status into a JS error, unless one is pending. */
void fh_throw_napi(napi_env env, napi_status status);

/* Throws the oldest error on OpenSSL's thread queue as an ERR_OSSL_* error
 * and empties the queue: node:crypto reads the same queue afterwards. */
void fh_throw_openssl(napi_env env, const char *what);

/* Every Node-API call goes through CALL: on failure it throws (keeping a
 * pending exception) and returns 0, which is NULL for functions returning a
 * napi_value and "failed" for the int helpers. Only for code that owns
 * nothing that needs releasing at that point. */
#define CALL(env, expr)                 \
  do {                                  \
    napi_status fh_status_ = (expr);    \
    if (fh_status_ != napi_ok) {        \
      fh_throw_napi((env), fh_status_); \
      return 0;                         \
    }                                   \
  } while (0)

/* ---- encoding IDs (encode.c) -------------------------------------------- */

/* Encodings made natively into a JS string. Everything else is produced in JS
 * from a Buffer the C side fills. */
typedef enum {
  FH_ENC_HEX = 0,
  FH_ENC_BASE64,
  FH_ENC_BASE64URL,
  FH_ENC_LATIN1,
  FH_ENC_COUNT
} fh_encoding;

/* For the functions that can also give a Buffer made in C (async ones). */
#define FH_ENC_BUFFER 0xff

/* ---- algorithms and digest states (digest.h: algs.c, digest.c) --------- */

#include "digest.h"

/* (env.c) Whether this environment still runs JavaScript, asked by
 * calling an empty JS function, which V8 refuses at its entry once a
 * worker's terminate() or the environment's end has begun. Long work on
 * the JS thread (hashFileSync between two steps, hashMany), ask
 * it to learn when to stop. May leave an exception pending. */
int fh_env_running(napi_env env, fh_state *st);

/* ---- HMAC (hmac.c) ------------------------------------------------------- */

typedef struct fh_input fh_input;

/* One HMAC computation (RFC 2104): inner = H(K0 ^ ipad || message), then
 * MAC = H(K0 ^ opad || inner), both run in one working state. Everything it
 * fills with key-derived bytes lives here, so one wipe covers every exit. */
typedef struct {
  /* block bytes of K0 ^ ipad (then ^ opad), followed by the inner digest
   * and the MAC (alg->size bytes each): one contiguous span to wipe. */
  uint8_t bytes[FH_MAX_BLOCK + 2 * EVP_MAX_MD_SIZE];
  int keyed;                    /* a key block was made */
  fh_md md;                     /* the working state */
} fh_hmac_work;

#define FH_HMAC_INNER(w, alg) ((w)->bytes + (alg)->block)
#define FH_HMAC_MAC(w, alg) ((w)->bytes + (alg)->block + (alg)->size)

/* Sets up w: nothing in use yet. */
void fh_hmac_begin(fh_hmac_work *w);

/* The key block = K0 ^ ipad: K0 is the key, or its digest when longer than a
 * block, zero-padded. st as in fh_digest. Returns 1, or 0 with the reason on
 * OpenSSL's queue. */
int fh_hmac_key_block(fh_state *st, const fh_alg *alg, const uint8_t *key,
                      size_t keylen, fh_hmac_work *w);

/* Turns the key block from K0 ^ ipad into K0 ^ opad. */
void fh_hmac_to_opad(const fh_alg *alg, fh_hmac_work *w);

/* Starts m with the key block (EVP kinds in `lent`, as fh_md_start). */
int fh_hmac_keyed(const fh_alg *alg, const fh_hmac_work *w, fh_md *m,
                  EVP_MD_CTX *lent);

/* The whole one-shot: the MAC of data under key, into FH_HMAC_MAC(w, alg).
 * st as in fh_digest. The caller wipes w. */
int fh_hmac_compute(fh_state *st, const fh_alg *alg, const uint8_t *key,
                    size_t keylen, const uint8_t *data, size_t len,
                    fh_hmac_work *w);

/* Wipes what w used (only the bytes alg used: the whole area is ~300
 * bytes) and closes its working state. */
void fh_hmac_wipe(const fh_alg *alg, fh_hmac_work *w);

/* The JS result of a computed MAC, for the entry points whose last argument
 * is `last`: a verdict on it when `verify`, else the MAC (into it if the
 * caller passed a Buffer, NULL when not, as a string in `enc`). */
int fh_hmac_result(napi_env env, int verify, napi_value last,
                   const fh_alg *alg, const fh_hmac_work *w, fh_encoding enc,
                   napi_value *result);

/* Compares a computed MAC with `given` (bytes, or a string in `enc`) in
 * constant time, and sets result to the JS boolean. Wrong lengths and
 * undecodable strings are false, not errors. */
int fh_verdict(napi_env env, const uint8_t *mac, size_t n, napi_value given,
               fh_encoding enc, napi_value *result);

/* ---- arguments (args.c) -------------------------------------------------- */
/* The JS shim checks every rule first and passes IDs it got from the
 * binding; these readers re-check only what protects memory or could make
 * a direct call into the binding crash, and throw coded errors for it. */

/* Strings up to this many UTF-16 units are UTF-8 encoded on the stack (at most
 * 3 bytes per unit); longer ones into one heap buffer. */
#define FH_STACK_STRING_UNITS 1024

/* Learns, once per process, whether this Node's napi_get_buffer_info is safe
 * on any value (see args.c). Called by module init before any other call. */
void fh_args_init(napi_env env);

struct fh_input {
  const uint8_t *data;
  size_t len;
  uint8_t *heap;  /* owned copy of a long string, else NULL */
  int secret;     /* a key: its copies are wiped on release */
  uint8_t stack[3 * FH_STACK_STRING_UNITS + 1];
};

/* Reads a string (as UTF-8) or an ArrayBufferView's bytes. For views, `data`
 * points into the JS buffer and is valid until JS runs again. fh_get_key
 * marks the copies it makes as secret: they are wiped on release. Messages
 * are not (they are the caller's data, not key material, and wiping a long
 * string's copy would cost another pass over it). */
int fh_get_input(napi_env env, napi_value value, fh_input *in);
int fh_get_key(napi_env env, napi_value value, fh_input *in);
/* fh_get_input cut to its first n bytes, n read from `nv` (no more than it
 * has). */
int fh_get_input_prefix(napi_env env, napi_value value, napi_value nv,
                        fh_input *in);
void fh_input_release(fh_input *in);
/* An input of no bytes, nothing to release. */
void fh_input_empty(fh_input *in);

int fh_get_u32(napi_env env, napi_value value, uint32_t *out);

/* A Buffer (any ArrayBufferView) to write a result into. */
int fh_get_output(napi_env env, napi_value value, void **data, size_t *len);
/* The same, which must hold exactly n bytes (a RangeError otherwise). */
int fh_get_output_of(napi_env env, napi_value value, size_t n, uint8_t **data);
/* An output length: 0 to FH_MAX_OUTPUT, far past any Buffer the shim makes,
 * and small enough that a count of them times it cannot wrap. */
#define FH_MAX_OUTPUT ((size_t)1 << 40)
int fh_get_size(napi_env env, napi_value value, size_t *out);

/* An output encoding ID (from `encodings`, 'buffer' included). */
int fh_get_encoding(napi_env env, napi_value value, fh_encoding *out);

/* What a digest call asks for: the algorithm, the output encoding and the
 * output length. */
typedef struct {
  const fh_alg *alg;
  fh_encoding enc;
  size_t length;
} fh_spec;

enum {
  FH_SPEC_HMAC = 1,   /* HMAC-capable digests only; the length is the size */
  FH_SPEC_FRESH = 2   /* FIPS mode asked now (fh_state_check_fips) */
};

/* Reads an algorithm ID (from resolve()), an encoding ID (encv NULL: none;
 * 'buffer' included) and the output length (read for XOFs only, lenv NULL:
 * none; every other digest gives exactly its own size). Returns 1, or 0
 * with an exception pending. */
int fh_get_spec(napi_env env, fh_state *st, napi_value algv, napi_value encv,
                napi_value lenv, int flags, fh_spec *spec);

/* A path (string or Buffer) as a heap C string; NULL with an exception
 * pending. */
char *fh_get_path(napi_env env, napi_value value);

/* ---- output encodings (encode.c) ----------------------------------------- */

extern const char *const fh_encoding_names[FH_ENC_COUNT];

/* The length of the text of n bytes in `enc`, and the text itself (dst holds
 * fh_encoded_length bytes; latin1 is the bytes as they are). */
size_t fh_encoded_length(fh_encoding enc, size_t n);
void fh_encode(char *dst, fh_encoding enc, const uint8_t *src, size_t n);

/* encodedLength(encoding, n), exported to the shim. */
napi_value fh_encoded_length_js(napi_env env, napi_callback_info info);

/* Creates the JS string for bytes src[0..n) in `enc`. */
int fh_make_string(napi_env env, fh_encoding enc, const uint8_t *src,
                   size_t n, napi_value *result);

/* Hands a result to JS: copied into the caller's Buffer `into` (passed when
 * JS wants bytes; it must hold exactly n) and *result left NULL, or made
 * into a new string in `enc`. */
int fh_emit(napi_env env, napi_value into, const uint8_t *bytes, size_t n,
            fh_encoding enc, napi_value *result);

/* Where a digest of n bytes is written: the caller's Buffer `into` (passed
 * when JS wants bytes; exactly n bytes), else the stack, else (an XOF output
 * past EVP_MAX_MD_SIZE) the heap. Every entry point makes text of any
 * length, so JS need not know where the stack ends. */
typedef struct {
  uint8_t *bytes;
  size_t n;
  napi_value into;
  uint8_t stack[EVP_MAX_MD_SIZE];
} fh_out;

/* Returns 1, or 0 with an exception pending and nothing to close. */
int fh_out_open(napi_env env, fh_out *o, napi_value into, size_t n);
/* The JS result: when ok and no Buffer was given, the text in enc (else
 * NULL). The bytes are wiped, unless they are the caller's Buffer, and the
 * heap is freed. */
napi_value fh_out_close(napi_env env, fh_out *o, int ok, fh_encoding enc);

/* The optional last argument: argv[i] if the caller passed it, else NULL. */
#define FH_OPTIONAL_ARG(argc, argv, i) ((argc) > (i) ? (argv)[i] : NULL)

/* *same = 1 when the string `value` is exactly the `want` (<= EVP_MAX_MD_SIZE)
 * bytes of mac in `enc` (strictly: see encode.c), compared in constant time.
 * Returns 1; -1 when value is not a string (nothing pending); 0 only with an
 * exception pending. */
int fh_mac_text_equals(napi_env env, napi_value value, fh_encoding enc,
                       const uint8_t *mac, size_t want, int *same);

/* ---- files (file.c) ------------------------------------------------------ */

/* A file-system failure: a negative libuv error code and the call. */
typedef struct {
  int code;
  const char *syscall;
} fh_fs_error;

/* Files are read in chunks this large: reads then cost little next to
 * hashing. */
#define FH_FILE_CHUNK (1u << 20)

/* A file being digested a step at a time: no one call reads for long, so a
 * file that never ends (a character device, a pipe, a growing file, a FIFO
 * whose writer is idle or not yet there) holds its thread for one step at
 * a time and is stopped between two (async.c, hashFileSync). Touches no
 * JS: runs on any thread. */
typedef struct fh_ahead fh_ahead;
typedef struct {
  int fd;             /* a uv_file; -1 once closed */
  fh_md md;
  uint8_t *chunk;     /* FH_FILE_CHUNK bytes */
  int64_t done;       /* bytes read so far */
  int64_t size;       /* a regular file's size at open; -1 for any other */
  int fifo;           /* a FIFO, open without blocking: its reads wait in
                         poll() for at most the rest of a step (POSIX) */
  fh_ahead *ahead;    /* the chunks read ahead (fh_file_ahead), or NULL */
  fh_fs_error err;    /* set on a file-system failure */
} fh_file;

/* A FIFO with nothing to read holds its thread for at most this long per
 * step (the poll() of a step): then the task goes to the back of the queue,
 * and an abort, a worker's terminate() or the process's exit is seen. */
#define FH_FILE_WAIT_NS ((uint64_t)10 * 1000 * 1000)

enum { FH_FILE_FAILED = 0,
       FH_FILE_END = 1,
       FH_FILE_MORE = 2 };

/* Opens the file at `path` for a digest of alg (EVP kinds in `lent`, which
 * must outlive f, or in a context of f's own when lent is NULL). Returns 1;
 * or 0, with nothing to close, and f->err set on a file-system failure or
 * the reason on OpenSSL's queue. */
int fh_file_open(fh_file *f, const fh_alg *alg, EVP_MD_CTX *lent,
                 const char *path);
/* Hashes the next step (pool.c's bound): FH_FILE_MORE, FH_FILE_END at the end of the file
 * (the digest is then in out[0..outlen)), or FH_FILE_FAILED (f->err set, or
 * the reason on OpenSSL's queue). */
int fh_file_step(fh_file *f, uint8_t *out, size_t outlen);
/* Wipes the state, frees the chunks and closes the file. Only once no
 * fh_file_read_ahead() runs. */
void fh_file_close(fh_file *f);
/* Gives a regular file with two chunks or more left a ring of chunks that
 * another thread fills (fh_file_read_ahead) while fh_file_step hashes, so
 * that one file's reads overlap its hashing; spare() is asked last, once
 * the file qualifies (it may take a lock). Returns 1 when f has the ring;
 * 0 when it has none (then fh_file_step reads as it always does). */
int fh_file_ahead(fh_file *f, int (*spare)(void));
/* Whether the ring has room for a read ahead (any thread). */
int fh_file_ahead_wanted(fh_file *f);
/* Fills the ring's free chunks from the file, on a thread other than the
 * one running fh_file_step (after its read, when one is under way);
 * returns when the ring is full, at the end of the file, or after
 * fh_file_ahead_stop(). */
void fh_file_read_ahead(fh_file *f);
/* No more reads ahead: the job is ending. */
void fh_file_ahead_stop(fh_file *f);

/* ---- file-system errors (error.c) ----------------------------------------- */

/* The Node-style error for a file-system failure: code, errno, syscall and
 * path set, worded as fs words it. */
int fh_fs_error_value(napi_env env, const fh_fs_error *err, const char *path,
                      napi_value *result);
void fh_throw_fs(napi_env env, const fh_fs_error *err, const char *path);

/* ---- the executor (pool.c) ----------------------------------------------- */
/* A piece of work for the addon's threads, run in bounded steps: run() is
 * one step on one of them, returning 1 while the task has more to do (it
 * then goes to the back of the queue) and 0 once it is over; then done()
 * on the JS thread of the environment that submitted it. done() gets env
 * NULL when that environment has ended (or is ending), and then only frees
 * the task: no JS, no references. The other fields are the pool's. */
typedef struct fh_task fh_task;
struct fh_task {
  int (*run)(fh_task *t);
  void (*done)(napi_env env, fh_task *t);
  fh_task *companion;       /* set before submit, or NULL: see below */
  fh_task *next;            /* in the queue */
  fh_task *after;           /* queued when this one has finished */
  fh_task *parent;          /* a companion's task */
  struct fh_pool_env *pe;
  int finished;             /* its last step has ended */
  int busy;                 /* a companion: queued or running */
  int finishing;            /* ended while its companion was busy */
};
/* A step hashes at most this much input: a few milliseconds for the
 * slowest digest, the longest any task waits for a thread per step ahead
 * of it, and the longest an ending environment waits for its tasks. */
#define FH_STEP_BYTES ((size_t)1 << 20)
/* Queues t (its run and done set). With `before` (a task this environment
 * submitted whose done() has not come yet), t is queued only once `before`
 * has finished: one hasher's updates run in order. Returns 1; or 0 with an
 * exception pending, t untouched. */
int fh_pool_submit(napi_env env, fh_state *st, fh_task *t, fh_task *before);
/* A task's companion (t->companion, its run set, done unused) is work that
 * helps t on a spare thread: fh_pool_wake queues one step of it when it is
 * neither queued nor running, nothing else is queued and a thread is idle
 * or may start (fh_pool_spare).
 * Its run() returns 0: it runs again only when woken again. t is reported
 * (or freed) only once its companion is neither queued nor running, so the
 * companion may use t's memory. Returns 1 when queued, 0 when not. Called
 * from t's own steps. */
int fh_pool_wake(fh_task *companion);
/* Whether nothing is queued and a thread is idle or may start: a
 * companion woken now would run at once. */
int fh_pool_spare(void);
/* ---- exported functions (hash.c) ----------------------------------------- */

napi_value fh_hash(napi_env env, napi_callback_info info);
napi_value fh_hash_prefix(napi_env env, napi_callback_info info);
napi_value fh_hash_file_sync(napi_env env, napi_callback_info info);
napi_value fh_resolve(napi_env env, napi_callback_info info);

/* ---- exported functions (hmac.c, hmac_key.c) ----------------------------- */

napi_value fh_hmac(napi_env env, napi_callback_info info);
napi_value fh_hmac_verify(napi_env env, napi_callback_info info);
napi_value fh_hmac_key_new(napi_env env, napi_callback_info info);
napi_value fh_hmac_key_digest(napi_env env, napi_callback_info info);
napi_value fh_hmac_key_verify(napi_env env, napi_callback_info info);
napi_value fh_hmac_key_destroy(napi_env env, napi_callback_info info);

/* An HmacKey's keyed states (hmac_key.c), read by hasher.c to start a
 * streaming HMAC. */
typedef struct {
  fh_alg alg;                 /* a copy holding its own EVP_MD reference */
  fh_md inner, outer;         /* keyed states, with contexts of their own */
  int live;                   /* cleared by destroy() */
  int fips;                   /* FIPS mode when keyed: a key never outlives
                                 a switch (its digest was fetched before) */
  int64_t reported;           /* bytes told to V8 and not yet given back */
} fh_hmac_key;

/* The HmacKey behind `value`: ours, not destroyed, keyed under the FIPS
 * mode in force (as per-call paths see it: every FH_FIPS_CHECK_EVERY calls).
 * Returns 1, or 0 with an exception pending. */
int fh_hmac_key_get(napi_env env, fh_state *st, napi_value value,
                    const fh_hmac_key **out);

/* The MAC of data under the key, into FH_HMAC_MAC(w, &k->alg), from copies
 * of its keyed states; the caller wipes w. */
int fh_hmac_key_mac(fh_state *st, const fh_hmac_key *k, const fh_input *data,
                    fh_hmac_work *w);

/* ---- hashers (hasher_store.c, hasher.c) ----------------------------------- */

/* One hasher's state: a slot of the environment's store. */
typedef struct {
  uint32_t gen;           /* the generation its token names */
  uint8_t hmac;           /* digest() finishes the outer state too */
  uint8_t busy;           /* updates queued or running on the addon's
                             threads (hasher_async.c): no call may touch
                             the states, but one more such update */
  uint8_t doomed;         /* freed while busy: released when the update
                             ends */
  uint32_t size;          /* the digest's own output length */
  size_t length;          /* output bytes digest() gives */
  size_t heap;            /* native memory of its states, told to V8 */
  fh_md md[2];            /* the (inner) state and, for HMAC, the outer
                             one, each with a context of its own */
  fh_task *task;          /* its newest update on the addon's threads,
                             until that update is reported */
} fh_hasher;

/* A free slot, its states closed, and its token for JS. Returns NULL with
 * an exception pending. */
fh_hasher *fh_hasher_alloc(napi_env env, fh_state *st, int hmac,
                           int64_t *token);
/* Tells V8 of the memory h's states hold, once they are set up. */
void fh_hasher_account(napi_env env, fh_state *st, fh_hasher *h);
/* The live hasher a token names, or NULL (never issued, or released). */
fh_hasher *fh_hasher_find(fh_state *st, int64_t token);
/* The live hasher behind a token argument, with at most `queued` updates
 * on the addon's threads (0 for every call but hasherUpdateAsync). Returns
 * it, or NULL with an exception pending: ERR_CRYPTO_HASH_FINALIZED for a
 * token that names no live hasher (one whose state digest() has freed: the
 * shim never passes any other), ERR_INVALID_STATE for one with more
 * updates, or freed while they run. */
fh_hasher *fh_hasher_get(napi_env env, fh_state *st, napi_value value,
                         unsigned queued, int64_t *token);
/* Wipes and closes a hasher's states and frees its slot: its token is dead. */
void fh_hasher_release(napi_env env, fh_state *st, int64_t token);

/* ---- exported functions (hasher.c) --------------------------------------- */

napi_value fh_hasher_new(napi_env env, napi_callback_info info);
napi_value fh_hasher_update(napi_env env, napi_callback_info info);
napi_value fh_hasher_digest(napi_env env, napi_callback_info info);
napi_value fh_hasher_copy(napi_env env, napi_callback_info info);
napi_value fh_hmac_key_hasher(napi_env env, napi_callback_info info);
napi_value fh_hasher_free(napi_env env, napi_callback_info info);
napi_value fh_hasher_update_async(napi_env env, napi_callback_info info);
napi_value fh_hasher_store_stats(napi_env env, napi_callback_info info);
/* Wipes and frees every hasher state of the environment (at its teardown). */
void fh_hashers_free(fh_state *st);

/* ---- exported functions (many.c, async.c) --------------------------------- */

napi_value fh_hash_many(napi_env env, napi_callback_info info);
napi_value fh_hash_async(napi_env env, napi_callback_info info);
napi_value fh_hmac_async(napi_env env, napi_callback_info info);
napi_value fh_hash_file(napi_env env, napi_callback_info info);

/* ---- benchmarks only (benchmark/ceiling/bench.c) ------------------------- */

#ifdef FH_BENCH
napi_value fh_bench_ceiling(napi_env env, napi_callback_info info);
napi_value fh_bench_call(napi_env env, napi_callback_info info);
napi_value fh_bench_hmac(napi_env env, napi_callback_info info);
napi_value fh_bench_hmac_key(napi_env env, napi_callback_info info);
#endif

#endif /* FAST_HASH_H */
