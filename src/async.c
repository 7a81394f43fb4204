/* hashAsync, hmacAsync, hashFile: the same digests on the libuv thread pool.
 *
 * A job captures everything when the call is made: its own copy of the input
 * (strings encoded, buffers copied, so later changes to them do not matter),
 * of the key, of the path, and of the algorithm entry with its own EVP_MD
 * reference. The thread-pool side touches no JS and nothing of the
 * environment's: its digest states have contexts of their own. Keys and
 * digests are wiped when the job ends.
 *
 * A file job may be given a cancel cell (hashFile's signal, lib/): an
 * Int32Array whose element 0 the JS thread sets to 1 to abort. The job
 * reads it (atomically: the pool thread reads it too) before each slice and
 * on the JS thread after each: once set, no slice more is read, the file is
 * closed and the promise rejects with an ABORT_ERR error. */
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>

#include "fast_hash.h"

typedef enum { FH_JOB_HASH,
               FH_JOB_HMAC,
               FH_JOB_FILE } fh_job_kind;

typedef struct {
  fh_job_kind kind;
  fh_alg alg;             /* a copy holding its own EVP_MD reference */
  uint32_t enc;           /* an fh_encoding, or FH_ENC_BUFFER */
  size_t outlen;
  uint8_t *data, *key;    /* owned copies, wiped at the end */
  size_t len, keylen;
  char *path;
  uint8_t *out;           /* outlen bytes */
  int ok;
  unsigned long ossl_error;
  fh_fs_error fs;
  /* A file job runs as a chain of pool jobs, one slice each (file.c): the
   * open file lives here between them. */
  fh_file file;
  int file_state;         /* 0 before the first slice, then fh_file_slice's */
  int32_t *cancel;        /* the cancel cell's element 0, or NULL */
  napi_ref cancel_ref;    /* holds the cell while the job runs */
  int aborted;            /* ended by the cancel cell */
  napi_deferred deferred;
  napi_async_work work;
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

/* Frees the job (on the JS thread: it lets go of the cancel cell). */
static void free_job(napi_env env, fh_job *job) {
  if (job->cancel_ref != NULL) napi_delete_reference(env, job->cancel_ref);
  if (job->file_state == FH_FILE_MORE) fh_file_close(&job->file);
  if (job->key != NULL) fh_wipe(job->key, job->keylen);
  if (job->out != NULL) fh_wipe(job->out, job->outlen);
  free(job->data);
  free(job->key);
  free(job->out);
  free(job->path);
  EVP_MD_free(job->alg.md);
  free(job);
}

/* On a thread-pool thread: the next slice of a file job (opening the file
 * first), closing it at the end, or at once when the job is cancelled. */
static int file_slice(fh_job *job) {
  fh_file *f = &job->file;

  if (cancelled(job)) {
    if (job->file_state == FH_FILE_MORE) fh_file_close(f);
    job->file_state = FH_FILE_FAILED;
    job->aborted = 1;
    return 0;
  }
  if (job->file_state == 0 && !fh_file_open(f, &job->alg, NULL, job->path)) {
    job->fs = f->err;
    return 0;
  }
  job->file_state = fh_file_slice(f, job->out, job->outlen);
  if (job->file_state == FH_FILE_MORE) return 1;
  job->fs = f->err;
  fh_file_close(f);
  return job->file_state == FH_FILE_END;
}

/* On a thread-pool thread: no JS, no environment state. */
static void execute(napi_env env, void *data) {
  fh_job *job = data;
  fh_hmac_work w;

  (void)env;
  switch (job->kind) {
    case FH_JOB_FILE:
      job->ok = file_slice(job);
      break;
    case FH_JOB_HASH:
      job->ok = fh_digest(NULL, NULL, &job->alg, job->data, job->len, job->out,
                          job->outlen);
      break;
    default:
      job->ok = fh_hmac_compute(NULL, &job->alg, job->key, job->keylen,
                                job->data, job->len, &w);
      if (job->ok) memcpy(job->out, FH_HMAC_MAC(&w, &job->alg), job->outlen);
      fh_hmac_wipe(&job->alg, &w);
      break;
  }
  /* This thread's error queue is not node:crypto's, but leave it clean. */
  if (!job->ok) job->ossl_error = ERR_get_error();
  ERR_clear_error();
}

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

static int queue(napi_env env, fh_job *job);

/* Back on the JS thread after a file job's slice, with more to read: queues
 * the next slice, unless the environment is ending (a worker's terminate()
 * waits for this job: another slice would make it wait for ever). Returns 1
 * when the job goes on. */
static int next_slice(napi_env env, fh_job *job) {
  void *st;
  napi_value error;

  napi_delete_async_work(env, job->work);
  job->work = NULL;
  if (napi_get_instance_data(env, &st) != napi_ok ||
      !fh_env_running(env, st))
    return 0;
  if (queue(env, job)) return 1;
  if (napi_get_and_clear_last_exception(env, &error) == napi_ok)
    napi_reject_deferred(env, job->deferred, error);
  return 0;
}

/* Back on the JS thread: settle the promise and free the job. */
static void complete(napi_env env, napi_status status, void *data) {
  fh_job *job = data;
  napi_value value = NULL;
  void *copy;

  if (status == napi_ok && job->ok && job->file_state == FH_FILE_MORE) {
    if (!cancelled(job)) {
      if (!next_slice(env, job)) free_job(env, job);
      return;
    }
    job->ok = 0; /* free_job closes the file */
    job->aborted = 1;
  }
  /* Cancelled, or the environment is going away: nothing to settle. */
  if (status == napi_ok) {
    if (!job->ok) {
      value = job_error(env, job);
      if (value != NULL) napi_reject_deferred(env, job->deferred, value);
    } else if (job->enc == FH_ENC_BUFFER) {
      if (napi_create_buffer_copy(env, job->outlen, job->out, &copy, &value) ==
          napi_ok)
        napi_resolve_deferred(env, job->deferred, value);
    } else if (fh_make_string(env, (fh_encoding)job->enc, job->out,
                              job->outlen, &value)) {
      napi_resolve_deferred(env, job->deferred, value);
    }
    /* A failure above left an exception pending: it rejects the promise. */
    if (value == NULL) {
      napi_value exception;
      if (napi_get_and_clear_last_exception(env, &exception) == napi_ok)
        napi_reject_deferred(env, job->deferred, exception);
    }
  }
  napi_delete_async_work(env, job->work);
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
  job->alg = *spec.alg;
  job->enc = spec.enc;
  job->outlen = spec.length;
  return job;
}

/* Queues the job (or its next slice) on the thread pool. Returns 1, or 0
 * with an exception pending and job->work NULL. */
static int queue(napi_env env, fh_job *job) {
  napi_value name;

  if (napi_create_string_utf8(env, "fast-hash", NAPI_AUTO_LENGTH, &name) !=
        napi_ok ||
      napi_create_async_work(env, NULL, name, execute, complete, job,
                             &job->work) != napi_ok) {
    job->work = NULL;
    fh_throw(env, FH_ERROR, "ERR_NAPI_CALL_FAILED", "Cannot start the job");
    return 0;
  }
  if (napi_queue_async_work(env, job->work) == napi_ok) return 1;
  napi_delete_async_work(env, job->work);
  job->work = NULL;
  fh_throw(env, FH_ERROR, "ERR_NAPI_CALL_FAILED", "Cannot queue the job");
  return 0;
}

/* Queues the job and returns its promise; frees it on failure. */
static napi_value start(napi_env env, fh_job *job) {
  napi_value promise;

  if (napi_create_promise(env, &job->deferred, &promise) != napi_ok) {
    free_job(env, job);
    fh_throw(env, FH_ERROR, "ERR_NAPI_CALL_FAILED", "Cannot start the job");
    return NULL;
  }
  if (!queue(env, job)) {
    free_job(env, job);
    return NULL;
  }
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
  return start(env, job);
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
