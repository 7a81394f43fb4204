/* The addon's own worker threads, for the stream digests' updates
 * (hasher_async.c). They are not libuv's pool: a stream digest keeps a
 * thread busy for as long as its source keeps giving bytes, and on libuv's
 * pool (four threads by default, shared with fs, dns.lookup and zlib) a few
 * such streams would make every other piece of pool work wait behind them.
 * Here the process has one pool, sized to the machine
 * (uv_available_parallelism), shared by every environment (the main thread
 * and each worker). Threads start as work arrives and then stay, idle on a
 * condition; a task is one bounded update, taken first in, first out. No
 * thread ever waits for another task: a hasher's next update, sent while
 * its last still runs, is not queued but hung after it, and the thread
 * that runs the last runs it next, so one hasher's updates run in order
 * and back to back, with no trip through the event loop between them.
 *
 * A task is reported back to the JS thread of its environment through that
 * environment's thread-safe function, which keeps the event loop alive
 * while any of its tasks is pending. When an environment ends
 * (worker.terminate(), the end of the process), its queued tasks are
 * dropped and its cleanup waits for the ones running, each one bounded
 * update, before its hasher states are freed. At process exit the same wait
 * comes before OpenSSL's own cleanup, which a running update must not
 * race. */
#define _XOPEN_SOURCE 700

#include <stdlib.h>

#include <uv.h>

#include "fast_hash.h"

/* One environment's side of the pool. */
struct fh_pool_env {
  napi_threadsafe_function tsfn;
  unsigned pending;   /* tasks submitted and not yet reported (JS thread) */
  unsigned running;   /* tasks of this environment on a thread (lock) */
  int closed;         /* tsfn may no longer be called (lock) */
  int owners;         /* the cleanup hook and the tsfn's finalizer (lock) */
};

static uv_once_t pool_once = UV_ONCE_INIT;
static struct {
  uv_mutex_t lock;
  uv_cond_t work;     /* a task was queued */
  uv_cond_t idle;     /* a task ended */
  fh_task *head, *tail;
  unsigned threads, waiting, max;
  int exiting;        /* the process is exiting: no more tasks run */
} pool;

#ifndef _WIN32
/* At process exit, before OpenSSL's own atexit cleanup (registered before
 * this one, so run after it): no task starts, and the running ones end.
 * (On Windows the other threads are gone by the time atexit handlers run.) */
static void pool_exit(void) {
  uv_mutex_lock(&pool.lock);
  pool.exiting = 1;
  while (pool.waiting != pool.threads) uv_cond_wait(&pool.idle, &pool.lock);
  uv_mutex_unlock(&pool.lock);
}
#endif

static void pool_init(void) {
  unsigned n = uv_available_parallelism();

  pool.max = n < 1 ? 1 : n;
  if (uv_mutex_init(&pool.lock) != 0 || uv_cond_init(&pool.work) != 0 ||
      uv_cond_init(&pool.idle) != 0)
    pool.max = 0;
#ifndef _WIN32
  else
    atexit(pool_exit);
#endif
}

/* Drops a pe reference (with the lock held); the last frees it. */
static void pool_env_unown(struct fh_pool_env *pe) {
  if (--pe->owners == 0) free(pe);
}

/* Frees t and the tasks hung after it, unrun (their environment has
 * ended, or the process is exiting). */
static void pool_drop(fh_task *t) {
  fh_task *after;

  for (; t != NULL; t = after) {
    after = t->after;
    t->done(NULL, t);
  }
}

/* A task ended on a thread (lock held): reported to its environment, or,
 * where that environment has ended, freed here. Returns the task hung
 * after it, for this thread to run next, or NULL. */
static fh_task *pool_report(fh_task *t) {
  struct fh_pool_env *pe = t->pe;
  fh_task *after = t->after;

  t->finished = 1;
  t->after = NULL;
  if (pe->closed || pool.exiting) {
    pool_drop(after);
    after = NULL;
  }
  if (after != NULL) pe->running++;
  if (--pe->running == 0) uv_cond_broadcast(&pool.idle);
  if (pe->closed ||
      napi_call_threadsafe_function(pe->tsfn, t, napi_tsfn_nonblocking) !=
        napi_ok)
    t->done(NULL, t);
  return after;
}

/* The next task from the queue, once there is one (lock held). */
static fh_task *pool_take(void) {
  fh_task *t;

  pool.waiting++;
  if (pool.exiting) uv_cond_broadcast(&pool.idle);
  while (pool.head == NULL || pool.exiting)
    uv_cond_wait(&pool.work, &pool.lock);
  pool.waiting--;
  t = pool.head;
  if ((pool.head = t->next) == NULL) pool.tail = NULL;
  t->pe->running++;
  return t;
}

/* A pool thread: takes tasks first in, first out, and runs each with the
 * tasks hung after it, for ever. */
static void pool_thread(void *arg) {
  fh_task *t = NULL;

  (void)arg;
  uv_mutex_lock(&pool.lock);
  for (;;) {
    if (t == NULL) t = pool_take();
    uv_mutex_unlock(&pool.lock);
    t->run(t);
    uv_mutex_lock(&pool.lock);
    t = pool_report(t);
  }
}

/* On the JS thread, for each task reported (env NULL: the environment is
 * ending, and the task is only freed). */
static void pool_call_js(napi_env env, napi_value fn, void *context,
                         void *data) {
  struct fh_pool_env *pe = context;
  fh_task *t = data;
  napi_handle_scope scope;

  (void)fn;
  if (env == NULL || napi_open_handle_scope(env, &scope) != napi_ok) {
    t->done(NULL, t);
    return;
  }
  t->done(env, t);
  if (--pe->pending == 0) napi_unref_threadsafe_function(env, pe->tsfn);
  napi_close_handle_scope(env, scope);
}

static void pool_tsfn_finalize(napi_env env, void *data, void *hint) {
  struct fh_pool_env *pe = data;

  (void)env;
  (void)hint;
  uv_mutex_lock(&pool.lock);
  pe->closed = 1;
  pool_env_unown(pe);
  uv_mutex_unlock(&pool.lock);
}

/* The environment's cleanup: its queued tasks are dropped, and those
 * running are waited for (each is one bounded update), before the hasher
 * states they update are freed. */
static void pool_env_cleanup(void *arg) {
  struct fh_pool_env *pe = arg;
  fh_task **at, *dropped = NULL, *t;

  uv_mutex_lock(&pool.lock);
  pe->closed = 1;
  for (at = &pool.head; *at != NULL;) {
    t = *at;
    if (t->pe != pe) {
      pool.tail = t;
      at = &t->next;
      continue;
    }
    *at = t->next;
    t->next = dropped;
    dropped = t;
  }
  if (pool.head == NULL) pool.tail = NULL;
  while (pe->running != 0) uv_cond_wait(&pool.idle, &pool.lock);
  pool_env_unown(pe);
  uv_mutex_unlock(&pool.lock);
  for (; dropped != NULL; dropped = t) {
    t = dropped->next;
    pool_drop(dropped);
  }
}

/* This environment's side of the pool, made at its first task. Returns it,
 * or NULL with an exception pending. */
static struct fh_pool_env *pool_env(napi_env env, fh_state *st) {
  struct fh_pool_env *pe = st->pool;
  napi_value name;

  if (pe != NULL) return pe;
  uv_once(&pool_once, pool_init);
  if (pool.max == 0 || (pe = calloc(1, sizeof(*pe))) == NULL) goto fail;
  if (napi_create_string_utf8(env, "fast-hash stream", NAPI_AUTO_LENGTH,
                              &name) != napi_ok ||
      napi_create_threadsafe_function(env, NULL, NULL, name, 0, 1, pe,
                                      pool_tsfn_finalize, pe, pool_call_js,
                                      &pe->tsfn) != napi_ok) {
    free(pe);
    goto fail;
  }
  pe->owners = 2;
  napi_unref_threadsafe_function(env, pe->tsfn);
  if (napi_add_env_cleanup_hook(env, pool_env_cleanup, pe) != napi_ok) {
    /* Without the hook the environment cannot wait for its tasks. */
    pe->owners = 1;
    napi_release_threadsafe_function(pe->tsfn, napi_tsfn_abort);
    goto fail;
  }
  return st->pool = pe;
fail:
  fh_throw(env, FH_ERROR, "ERR_NAPI_CALL_FAILED",
           "Cannot set up the threads for stream updates");
  return NULL;
}

/* Starts one more thread when none is idle and the pool is not full (lock
 * held). A pool that cannot grow still runs its tasks on the threads it
 * has; one with none fails the submission. */
static int pool_grow(void) {
  uv_thread_t tid;

  if (pool.waiting != 0 || pool.threads == pool.max) return 1;
  if (uv_thread_create(&tid, pool_thread, NULL) != 0) return pool.threads != 0;
  pool.threads++;
  return 1;
}

/* Queues t, or hangs it after `before` while that has not finished (lock
 * held). Returns 0 when no thread can run it. */
static int pool_put(fh_task *t, fh_task *before) {
  if (before != NULL && !before->finished) {
    before->after = t;
    return 1;
  }
  if (!pool_grow()) return 0;
  if (pool.tail != NULL)
    pool.tail->next = t;
  else
    pool.head = t;
  pool.tail = t;
  uv_cond_signal(&pool.work);
  return 1;
}

int fh_pool_submit(napi_env env, fh_state *st, fh_task *t, fh_task *before) {
  struct fh_pool_env *pe = pool_env(env, st);
  int ok;

  if (pe == NULL) return 0;
  t->pe = pe;
  t->next = t->after = NULL;
  t->finished = 0;
  uv_mutex_lock(&pool.lock);
  ok = pool_put(t, before);
  uv_mutex_unlock(&pool.lock);
  if (!ok) {
    fh_throw(env, FH_ERROR, "ERR_NAPI_CALL_FAILED",
             "Cannot start a thread for stream updates");
    return 0;
  }
  if (pe->pending++ == 0) napi_ref_threadsafe_function(env, pe->tsfn);
  return 1;
}
