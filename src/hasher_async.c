/* hasherUpdateAsync: a hasher's update on the libuv thread pool, for the
 * stream digests (lib/stream.js), so long inputs are hashed while the event
 * loop goes on.
 *
 * The job reads the caller's view in place: the shim passes only batch
 * buffers of its own, which never reach user code and are neither changed
 * nor detached until the promise settles; a reference keeps the view alive
 * meanwhile. While jobs are queued the hasher is busy: every call that would
 * touch its states refuses it, and hasherFree defers the release to the
 * last job's end. Each job is one bounded update (the shim sends at most a
 * batch), so no job holds a pool thread for long, and an environment that
 * ends (worker.terminate(), process exit) waits for no more than two.
 *
 * Two jobs of one hasher may be queued at once, so the second batch is
 * hashed as soon as the first is done, not after a round trip through the
 * event loop (a hand-over each way: tens of microseconds on a busy machine,
 * as much as hashing 64 KiB). The hasher's lane orders them by ticket: a
 * job whose turn has not come waits on the lane's condition. It never waits
 * for long or for ever: the pool takes jobs first in, first out, so the job
 * before it was taken first and is running, and runs one bounded update. */
/* uv.h needs the POSIX types (pthread_rwlock_t, addrinfo) that strict C99
 * hides. */
#define _XOPEN_SOURCE 700

#include <stdlib.h>

#include <openssl/err.h>
#include <uv.h>

#include "fast_hash.h"

/* Updates queued on one hasher at most: the one running, and the next. */
#define FH_LANE_DEPTH 2

struct fh_lane {
  uv_mutex_t lock;
  uv_cond_t turn;      /* served moved on */
  uint32_t issued;     /* tickets handed out (on the JS thread) */
  uint32_t served;     /* updates done: the ticket whose turn it is */
};

typedef struct {
  fh_state *st;
  fh_hasher *h;           /* its slot does not move while busy */
  struct fh_lane *lane;   /* h's, which lives as long as h */
  uint32_t ticket;
  int64_t token;
  const uint8_t *data;
  size_t len;
  int ok;
  unsigned long ossl_error;
  napi_ref keep;          /* the view being read */
  napi_deferred deferred;
  napi_async_work work;
} fh_update_job;

void fh_lane_free(struct fh_lane *lane) {
  if (lane == NULL) return;
  uv_cond_destroy(&lane->turn);
  uv_mutex_destroy(&lane->lock);
  free(lane);
}

/* h's lane, made at its first update. Returns it, or NULL with an
 * exception pending. */
static struct fh_lane *lane_of(napi_env env, fh_hasher *h) {
  struct fh_lane *lane = h->lane;

  if (lane != NULL) return lane;
  if ((lane = calloc(1, sizeof(*lane))) == NULL) goto fail;
  if (uv_mutex_init(&lane->lock) != 0) {
    free(lane);
    goto fail;
  }
  if (uv_cond_init(&lane->turn) != 0) {
    uv_mutex_destroy(&lane->lock);
    free(lane);
    goto fail;
  }
  return h->lane = lane;
fail:
  fh_throw(env, FH_RANGE_ERROR, "ERR_MEMORY_ALLOCATION_FAILED",
           "Failed to set up a hasher's updates");
  return NULL;
}

/* On a thread-pool thread, once the job's turn has come: only the hasher's
 * inner (or only) state, which has a context of its own. */
static void execute(napi_env env, void *data) {
  fh_update_job *job = data;
  struct fh_lane *lane = job->lane;

  (void)env;
  uv_mutex_lock(&lane->lock);
  while (lane->served != job->ticket) uv_cond_wait(&lane->turn, &lane->lock);
  uv_mutex_unlock(&lane->lock);
  job->ok = fh_md_update(&job->h->md[0], job->data, job->len);
  /* This thread's error queue is not node:crypto's: leave it clean. */
  if (!job->ok) job->ossl_error = ERR_get_error();
  ERR_clear_error();
  uv_mutex_lock(&lane->lock);
  lane->served++;
  uv_cond_broadcast(&lane->turn);
  uv_mutex_unlock(&lane->lock);
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
 * freed meanwhile), and the promise settles unless the environment is
 * going away (status not napi_ok). */
static void complete(napi_env env, napi_status status, void *data) {
  fh_update_job *job = data;
  napi_value value = NULL;

  /* A failed update leaves the state unusable: the next job's update of it
   * fails too, as the shim stops at the first failure. */
  if (--job->h->busy == 0 && job->h->doomed)
    fh_hasher_release(env, job->st, job->token);
  if (status == napi_ok) {
    if (job->ok && napi_get_undefined(env, &value) == napi_ok)
      napi_resolve_deferred(env, job->deferred, value);
    else if (!job->ok && (value = update_error(env, job->ossl_error)) != NULL)
      napi_reject_deferred(env, job->deferred, value);
  }
  napi_delete_reference(env, job->keep);
  napi_delete_async_work(env, job->work);
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

/* Queues the job and makes its promise. Returns the promise, or NULL with
 * an exception pending and the job's work and promise not made. */
static napi_value queue(napi_env env, fh_update_job *job) {
  napi_value name, promise;

  CALL(env, napi_create_string_utf8(env, "fast-hash stream", NAPI_AUTO_LENGTH,
                                    &name));
  CALL(env, napi_create_async_work(env, NULL, name, execute, complete, job,
                                   &job->work));
  if (napi_create_promise(env, &job->deferred, &promise) != napi_ok ||
      napi_queue_async_work(env, job->work) != napi_ok) {
    /* A promise made here is never settled: nothing refers to it. */
    napi_delete_async_work(env, job->work);
    fh_throw(env, FH_ERROR, "ERR_NAPI_CALL_FAILED", "Cannot queue the update");
    return NULL;
  }
  return promise;
}

/* hasherUpdateAsync(token, batch, n) -> Promise<undefined>: absorbs the
 * Uint8Array batch's first n bytes on the thread pool, after the updates
 * queued before it; the hasher is busy until the last promise settles. */
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
  if ((job->h = fh_hasher_get(env, self, argv[0], FH_LANE_DEPTH - 1, &job->token)) != NULL &&
      (job->lane = lane_of(env, job->h)) != NULL &&
      keep_view(env, argv[1], argv[2], job)) {
    job->ticket = job->lane->issued;
    if ((promise = queue(env, job)) != NULL) {
      job->lane->issued++;
      job->h->busy++;
    }
  }
  if (promise == NULL) {
    if (job->keep != NULL) napi_delete_reference(env, job->keep);
    free(job);
  }
  return promise;
}
