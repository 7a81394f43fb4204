/* hashAsync, hmacAsync, hashFile: the same digests as tasks of the
 * executor (pool.c), a bounded step at a time.
 *
 * A job captures everything when the call is made: its own copy of the input
 * (strings encoded, buffers copied, so later changes to them do not matter),
 * of the key, of the path, and of the algorithm entry with its own EVP_MD
 * reference. Its steps touch no JS and nothing of the environment's: their
 * digest states have contexts of their own. Keys and digests are wiped when
 * the job ends.
 *
 * A file job may be given a cancel cell (hashFile's signal, lib/): an
 * Int32Array whose element 0 the JS thread sets to 1 to abort. The job
 * reads it (atomically: the executor's thread reads it while the JS thread
 * writes) before each step: once set, no more is read, the file is closed
 * and the promise rejects with an ABORT_ERR error. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>

#include "fast_hash.h"

typedef enum { FH_JOB_HASH,
               FH_JOB_HMAC,
               FH_JOB_FILE } fh_job_kind;

typedef struct {
  fh_task task;           /* first: the executor's view of the job */
  fh_job_kind kind;
  fh_alg alg;             /* a copy holding its own EVP_MD reference */
  uint32_t enc;           /* an fh_encoding, or FH_ENC_BUFFER */
  size_t outlen;
  uint8_t *data, *key;    /* owned copies, wiped at the end */
  size_t len, keylen;
  size_t at;              /* message bytes hashed so far */
  char *path;
  uint8_t *out;           /* outlen bytes */
  int ok;                 /* no step has failed */
  int started;            /* the first step has run */
  unsigned long ossl_error;
  fh_fs_error fs;
  fh_md md;               /* a hash job's state */
  fh_hmac_work w;         /* an HMAC job's key block, digests and state */
  fh_file file;           /* a file job's open file */
  int file_open;          /* closed when the job is freed, once its
                             companion can no longer read it */
  int file_state;         /* 0 before the first step, then fh_file_step's */
  fh_task ahead;          /* a file job's companion: reads ahead */
  int32_t *cancel;        /* the cancel cell's element 0, or NULL */
  napi_ref cancel_ref;    /* holds the cell while the job runs */
  int aborted;            /* ended by the cancel cell */
  napi_deferred deferred;
} fh_job;

/* Relaxed atomic reads of the cancel cell, as args.c's: GCC's and clang's
 * builtin; elsewhere a volatile read, atomic for an aligned int32. */
#if defined(__GNUC__) || defined(__clang__)
#define FH_CANCELLED(p) (__atomic_load_n((p), __ATOMIC_RELAXED) != 0)
#else
#define FH_CANCELLED(p) (*(volatile int32_t *)(p) != 0)
#endif

/* Whether the job's cancel cell has been set (any thread). */
static int cancelled(const fh_job *job) {
  return job->cancel != NULL && FH_CANCELLED(job->cancel);
}

/* Frees the job; with env (its JS thread) it also lets go of the cancel
 * cell; without, the environment is ending and frees its references. */
static void free_job(napi_env env, fh_job *job) {
  if (env != NULL && job->cancel_ref != NULL)
    napi_delete_reference(env, job->cancel_ref);
  if (job->file_open) fh_file_close(&job->file);
  if (job->kind == FH_JOB_HMAC && job->started) fh_hmac_wipe(&job->alg, &job->w);
  fh_md_close(&job->md);
  if (job->key != NULL) fh_wipe(job->key, job->keylen);
  if (job->out != NULL) fh_wipe(job->out, job->outlen);
  free(job->data);
  free(job->key);
  free(job->out);
  free(job->path);
  EVP_MD_free(job->alg.md);
  free(job);
}

/* The end of a step: a failure's reason is kept, and this thread's error
 * queue (not node:crypto's) left clean. Returns `more`, as run() does. */
static int step_end(fh_job *job, int more) {
  if (!job->ok && job->ossl_error == 0) job->ossl_error = ERR_get_error();
  ERR_clear_error();
  return more;
}

/* Absorbs the next FH_STEP_BYTES of the message into m. Returns 1 while
 * bytes are left, 0 after the last or a failure (job->ok). */
static int absorb(fh_job *job, fh_md *m) {
  size_t n = job->len - job->at;

  if (n > FH_STEP_BYTES) n = FH_STEP_BYTES;
  job->ok = n == 0 || fh_md_update(m, job->data + job->at, n);
  job->at += n;
  return job->ok && job->at < job->len;
}

/* A hash job's step: the state starts at the first, the digest is read
 * after the last. */
static int hash_step(fh_task *t) {
  fh_job *job = (fh_job *)t;
  int more = 0;

  if (!job->started) {
    job->started = 1;
    job->ok = fh_md_start(&job->md, &job->alg, NULL);
  }
  if (job->ok && !(more = absorb(job, &job->md)) && job->ok)
    job->ok = fh_md_final(&job->md, job->out, job->outlen);
  return step_end(job, more);
}

/* After an HMAC job's last message bytes: the inner digest, then the MAC
 * (RFC 2104, as fh_hmac_compute) into job->out. */
static int hmac_end(fh_job *job) {
  const fh_alg *alg = &job->alg;
  fh_hmac_work *w = &job->w;
  uint8_t *inner = FH_HMAC_INNER(w, alg);
  int ok = fh_md_final(&w->md, inner, alg->size);

  fh_hmac_to_opad(alg, w);
  ok = ok && fh_hmac_keyed(alg, w, &w->md, NULL) &&
       fh_md_finish(&w->md, inner, alg->size, FH_HMAC_MAC(w, alg), alg->size);
  if (ok) memcpy(job->out, FH_HMAC_MAC(w, alg), job->outlen);
  return ok;
}

/* An HMAC job's step: keyed at the first, the MAC made after the last. */
static int hmac_step(fh_task *t) {
  fh_job *job = (fh_job *)t;
  int more = 0;

  if (!job->started) {
    job->started = 1;
    fh_hmac_begin(&job->w);
    job->ok = fh_hmac_key_block(NULL, &job->alg, job->key, job->keylen,
                                &job->w) &&
              fh_hmac_keyed(&job->alg, &job->w, &job->w.md, NULL);
  }
  if (job->ok && !(more = absorb(job, &job->w.md)) && job->ok)
    job->ok = hmac_end(job);
  return step_end(job, more);
}

/* A file job's companion step: reads ahead while the job hashes. */
static int ahead_step(fh_task *t) {
  fh_job *job = (fh_job *)((char *)t - offsetof(fh_job, ahead));

  fh_file_read_ahead(&job->file);
  return 0;
}

/* Before a file job's step: where the pool has a spare thread, the
 * companion reads the next chunks while this step hashes. */
static void read_ahead(fh_job *job) {
  fh_file *f = &job->file;

  if (fh_file_ahead(f, fh_pool_spare) && fh_file_ahead_wanted(f))
    fh_pool_wake(&job->ahead);
}

/* A file job's step (opening the file first). At the end, or at once when
 * the job is cancelled, the file is closed, unless it has the ring that its
 * companion may still be reading into: that is only stopped, and closed
 * when the job is freed. */
static int file_step(fh_task *t) {
  fh_job *job = (fh_job *)t;
  fh_file *f = &job->file;

  if (cancelled(job)) {
    job->file_state = FH_FILE_FAILED;
    job->aborted = 1;
    job->ok = 0;
  } else if (job->file_state == 0 &&
             !fh_file_open(f, &job->alg, NULL, job->path)) {
    job->fs = f->err;
    job->ok = 0;
  } else {
    job->file_open = 1;
    read_ahead(job);
    job->file_state = fh_file_step(f, job->out, job->outlen);
    if (job->file_state == FH_FILE_MORE) return step_end(job, 1);
    job->fs = f->err;
    job->ok = job->file_state == FH_FILE_END;
  }
  if (f->ahead != NULL) {
    fh_file_ahead_stop(f);
  } else if (job->file_open) {
    fh_file_close(f);
    job->file_open = 0;
  }
  return step_end(job, 0);
}

/* The step of each kind of job, by fh_job_kind. */
static int (*const job_steps[])(fh_task *) = { hash_step, hmac_step,
                                               file_step };

static napi_value job_error(napi_env env, fh_job *job) {
  napi_value error = NULL, code, message;
  char text[256];

  if (job->fs.code != 0) {
    fh_fs_error_value(env, &job->fs, job->path, &error);
    return error;
  }
  if (job->aborted)
    snprintf(text, sizeof(text), "The operation was aborted");
  else if (job->ossl_error != 0)
    ERR_error_string_n(job->ossl_error, text, sizeof(text));
  else
    snprintf(text, sizeof(text), "out of memory");
  if (napi_create_string_utf8(
        env, job->aborted ? "ABORT_ERR" : "ERR_CRYPTO_OPERATION_FAILED",
        NAPI_AUTO_LENGTH, &code) == napi_ok &&
      napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &message) == napi_ok)
    napi_create_error(env, code, message, &error);
  return error;
}

/* The result as JS: the digest as a Buffer or a string. Returns it, or
 * NULL with an exception pending. */
static napi_value job_result(napi_env env, fh_job *job) {
  napi_value value = NULL;
  void *copy;

  if (job->enc == FH_ENC_BUFFER) {
    if (napi_create_buffer_copy(env, job->outlen, job->out, &copy, &value) !=
        napi_ok)
      fh_throw(env, FH_ERROR, "ERR_NAPI_CALL_FAILED", "Cannot make a Buffer");
  } else if (!fh_make_string(env, (fh_encoding)job->enc, job->out,
                             job->outlen, &value)) {
    value = NULL;
  }
  return value;
}

/* Back on the JS thread: settles the promise and frees the job. With env
 * NULL the environment is ending: the job is only freed. */
static void done(napi_env env, fh_task *t) {
  fh_job *job = (fh_job *)t;
  napi_value value = NULL, exception;

  if (env == NULL) goto out;
  if (job->ok && (value = job_result(env, job)) != NULL) {
    napi_resolve_deferred(env, job->deferred, value);
  } else if (!job->ok && (value = job_error(env, job)) != NULL) {
    napi_reject_deferred(env, job->deferred, value);
  } else if (napi_get_and_clear_last_exception(env, &exception) == napi_ok) {
    napi_reject_deferred(env, job->deferred, exception);
  }
out:
  free_job(env, job);
}

/* Copies an input (string as UTF-8, or a view's bytes) into an owned
 * buffer; a key's transient copies are wiped. */
static int copy_input(napi_env env, napi_value value, int secret,
                      uint8_t **out, size_t *len) {
  fh_input in;
  int ok;

  if (!(secret ? fh_get_key : fh_get_input)(env, value, &in)) return 0;
  *len = in.len;
  *out = malloc(in.len ? in.len : 1);
  ok = *out != NULL;
  if (ok && in.len) memcpy(*out, in.data, in.len);
  fh_input_release(&in);
  if (!ok)
    fh_throw(env, FH_RANGE_ERROR, "ERR_MEMORY_ALLOCATION_FAILED",
             "Failed to allocate %zu bytes for an input copy", *len);
  return ok;
}

/* A job for an algorithm and encoding ID (FH_ENC_BUFFER for a Buffer
 * result) and the requested output length (lenv; NULL for HMAC). */
static fh_job *new_job(napi_env env, fh_state *st, fh_job_kind kind,
                       napi_value *ids, napi_value lenv) {
  fh_spec spec;
  fh_job *job;
  int flags = FH_SPEC_FRESH | (kind == FH_JOB_HMAC ? FH_SPEC_HMAC : 0);

  if (!fh_get_spec(env, st, ids[0], ids[1], lenv, flags, &spec)) return NULL;
  job = calloc(1, sizeof(*job));
  if (job == NULL || (job->out = malloc(spec.length ? spec.length : 1)) == NULL ||
      !EVP_MD_up_ref(spec.alg->md)) {
    if (job != NULL) free(job->out);
    free(job);
    fh_throw(env, FH_RANGE_ERROR, "ERR_MEMORY_ALLOCATION_FAILED",
             "Failed to allocate a job");
    return NULL;
  }
  job->kind = kind;
  job->task.run = job_steps[kind];
  job->task.done = done;
  if (kind == FH_JOB_FILE) {
    job->task.companion = &job->ahead;
    job->ahead.run = ahead_step;
  }
  job->ok = 1;
  job->alg = *spec.alg;
  job->enc = spec.enc;
  job->outlen = spec.length;
  return job;
}

/* Submits the job to the executor and returns its promise; frees it on
 * failure (NULL, with an exception pending). */
static napi_value start(napi_env env, fh_state *st, fh_job *job) {
  napi_value promise;

  if (napi_create_promise(env, &job->deferred, &promise) != napi_ok) {
    fh_throw(env, FH_ERROR, "ERR_NAPI_CALL_FAILED", "Cannot start the job");
    promise = NULL;
  } else if (!fh_pool_submit(env, st, &job->task, NULL)) {
    /* A promise made here is never settled: nothing refers to it. */
    promise = NULL;
  }
  if (promise == NULL) free_job(env, job);
  return promise;
}

/* A file job's cancel cell (undefined: none): an Int32Array of one element
 * or more, held by a reference until the job ends. 0 with an exception
 * pending. */
static int capture_cancel(napi_env env, fh_job *job, napi_value cell) {
  napi_valuetype type;
  napi_typedarray_type kind;
  size_t length = 0;
  void *data = NULL;
  bool is_typed = false;

  CALL(env, napi_typeof(env, cell, &type));
  if (type == napi_undefined) return 1;
  CALL(env, napi_is_typedarray(env, cell, &is_typed));
  if (is_typed)
    CALL(env, napi_get_typedarray_info(env, cell, &kind, &length, &data, NULL,
                                       NULL));
  if (!is_typed || kind != napi_int32_array || length < 1 || data == NULL) {
    fh_throw(env, FH_TYPE_ERROR, "ERR_INVALID_ARG_TYPE",
             "The cancel cell must be an Int32Array");
    return 0;
  }
  CALL(env, napi_create_reference(env, cell, 1, &job->cancel_ref));
  job->cancel = data;
  return 1;
}

/* Reads a job's inputs, captured now: hash (data), HMAC (key, data), or a
 * file (path, and the cancel cell). 0 with an exception pending. */
static int capture(napi_env env, fh_job *job, napi_value *argv) {
  switch (job->kind) {
    case FH_JOB_HASH:
      return copy_input(env, argv[2], 0, &job->data, &job->len);
    case FH_JOB_HMAC:
      return copy_input(env, argv[2], 1, &job->key, &job->keylen) &&
             copy_input(env, argv[3], 0, &job->data, &job->len);
    default:
      return (job->path = fh_get_path(env, argv[2])) != NULL &&
             capture_cancel(env, job, argv[4]);
  }
}

/* The three entry points: (algId, encodingId, data, outputLength), (algId,
 * encodingId, key, data) and (algId, encodingId, path, outputLength[,
 * cancel]), each returning the job's promise. */
static napi_value start_job(napi_env env, napi_callback_info info,
                            fh_job_kind kind) {
  size_t argc = 5;
  napi_value argv[5];
  void *self;
  fh_job *job;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  job = new_job(env, self, kind, argv, kind == FH_JOB_HMAC ? NULL : argv[3]);
  if (job == NULL) return NULL;
  if (!capture(env, job, argv)) {
    free_job(env, job);
    return NULL;
  }
  return start(env, self, job);
}

napi_value fh_hash_async(napi_env env, napi_callback_info info) {
  return start_job(env, info, FH_JOB_HASH);
}

napi_value fh_hmac_async(napi_env env, napi_callback_info info) {
  return start_job(env, info, FH_JOB_HMAC);
}

napi_value fh_hash_file(napi_env env, napi_callback_info info) {
  return start_job(env, info, FH_JOB_FILE);
}
