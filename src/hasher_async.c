/* hasherUpdateAsync: a hasher's update as a task of the executor (pool.c),
 * for the stream digests (lib/stream/), so long inputs are hashed while the
 * event loop goes on.
 *
 * The job reads the caller's view in place: the shim passes only batch
 * buffers of its own, which never reach user code and are neither changed
 * nor detached until the promise settles; a reference keeps the view alive
 * meanwhile. While jobs are queued or running the hasher is busy: every
 * call that would touch its states refuses it, but one more update, and
 * hasherFree defers the release to the last job's end. That second update
 * is queued once the first has finished (pool.c), so one hasher's updates
 * run in order and no thread waits for another's job. A job runs
 * FH_STEP_BYTES at a time, going to the back of the queue between two. */
#include <stdlib.h>

#include <openssl/err.h>

#include "fast_hash.h"

typedef struct {
  fh_task task;           /* first: the pool's view of the job */
  fh_state *st;
  fh_hasher *h;           /* its slot does not move while busy */
  int64_t token;
  const uint8_t *data;
  size_t len, at;         /* at: bytes hashed so far */
  int ok;
  unsigned long ossl_error;
  napi_ref keep;          /* the view being read */
  napi_deferred deferred;
} fh_update_job;

/* One step, on one of the addon's threads: only the hasher's inner (or
 * only) state, which has a context of its own. Returns 1 while bytes are
 * left. */
static int run(fh_task *t) {
  fh_update_job *job = (fh_update_job *)t;
  size_t n = job->len - job->at;

  if (n > FH_STEP_BYTES) n = FH_STEP_BYTES;
  job->ok = fh_md_update(&job->h->md[0], job->data + job->at, n);
  job->at += n;
  /* This thread's error queue is read by nothing else: leave it clean. */
  if (!job->ok) job->ossl_error = ERR_get_error();
  ERR_clear_error();
  return job->ok && job->at < job->len;
}

/* The rejection of a failed update, as async.c words OpenSSL's errors. */
static napi_value update_error(napi_env env, unsigned long e) {
  napi_value error = NULL, code, message;
  char text[256] = "Digest update failed";

  if (e != 0) ERR_error_string_n(e, text, sizeof(text));
  if (napi_create_string_utf8(env, "ERR_CRYPTO_OPERATION_FAILED",
                              NAPI_AUTO_LENGTH, &code) == napi_ok &&
      napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &message) == napi_ok)
    napi_create_error(env, code, message, &error);
  return error;
}

/* Back on the JS thread: the hasher is free again (or released, if it was
 * freed meanwhile), and the promise settles. With env NULL the environment
 * has ended: the job is only freed. */
static void done(napi_env env, fh_task *t) {
  fh_update_job *job = (fh_update_job *)t;
  napi_value value = NULL;

  if (env == NULL) goto out;
  if (job->h->task == t) job->h->task = NULL;
  /* A failed update leaves the state unusable: the next job's update of it
   * fails too, as the shim stops at the first failure. */
  if (--job->h->busy == 0 && job->h->doomed)
    fh_hasher_release(env, job->st, job->token);
  if (job->ok && napi_get_undefined(env, &value) == napi_ok)
    napi_resolve_deferred(env, job->deferred, value);
  else if (!job->ok && (value = update_error(env, job->ossl_error)) != NULL)
    napi_reject_deferred(env, job->deferred, value);
  napi_delete_reference(env, job->keep);
out:
  free(job);
}

/* The first n bytes of the Uint8Array `view` (nv: n), kept alive by a
 * reference. Returns 1, or 0 with an exception pending. */
static int keep_view(napi_env env, napi_value view, napi_value nv,
                     fh_update_job *job) {
  napi_typedarray_type type;
  size_t length, n;
  void *bytes;
  bool is_view = false;

  if (napi_is_typedarray(env, view, &is_view) != napi_ok || !is_view ||
      napi_get_typedarray_info(env, view, &type, &length, &bytes, NULL,
                               NULL) != napi_ok ||
      type != napi_uint8_array) {
    fh_throw(env, FH_TYPE_ERROR, "ERR_INVALID_ARG_TYPE",
             "The batch must be a Uint8Array");
    return 0;
  }
  if (!fh_get_size(env, nv, &n)) return 0;
  if (n > length) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
             "The length %zu is more than the batch's %zu bytes", n, length);
    return 0;
  }
  job->data = bytes;
  job->len = n;
  CALL(env, napi_create_reference(env, view, 1, &job->keep));
  return 1;
}

/* hasherUpdateAsync(token, batch, n) -> Promise<undefined>: absorbs the
 * Uint8Array batch's first n bytes on the executor, after the update sent
 * before it; the hasher is busy until the last promise settles. */
napi_value fh_hasher_update_async(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3], promise = NULL;
  void *self;
  fh_update_job *job;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  if ((job = calloc(1, sizeof(*job))) == NULL) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_MEMORY_ALLOCATION_FAILED",
             "Failed to allocate a job");
    return NULL;
  }
  job->st = self;
  job->task.run = run;
  job->task.done = done;
  if ((job->h = fh_hasher_get(env, self, argv[0], 1, &job->token)) == NULL ||
      !keep_view(env, argv[1], argv[2], job))
    goto fail;
  if (napi_create_promise(env, &job->deferred, &promise) != napi_ok) {
    fh_throw(env, FH_ERROR, "ERR_NAPI_CALL_FAILED", "Cannot make a promise");
    promise = NULL;
    goto fail;
  }
  if (!fh_pool_submit(env, self, &job->task, job->h->task)) {
    /* A promise made here is never settled: nothing refers to it. */
    promise = NULL;
    goto fail;
  }
  job->h->busy++;
  job->h->task = &job->task;
  return promise;
fail:
  if (job->keep != NULL) napi_delete_reference(env, job->keep);
  free(job);
  return promise;
}
