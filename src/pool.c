/* The addon's executor: the one way off the JS thread. Every job that
 * leaves it (stream updates, hashAsync, hmacAsync, hashFile) runs here as
 * a task of bounded steps; none goes to libuv's pool, which stays free for
 * fs, dns.lookup and zlib, and no thread is started per job.
 *
 * The process has one pool, shared by every environment (the main thread
 * and each worker): one thread per core (uv_available_parallelism), or
 * FAST_HASH_THREADS. Threads start as work arrives and then stay, idle on a
 * condition.
 *
 * Fair: tasks are taken first in, first out, one step at a time. A step is
 * bounded (FH_STEP_BYTES of input, or a short wait on a FIFO): a task with
 * more to do goes to the back of the queue, so a task waits for at most
 * (steps ahead / threads) steps, however long the others are. One
 * hasher's updates still run in order: an update sent while its previous
 * one is queued or running is hung after it, and goes to the back of the
 * queue when that one ends. No thread ever waits for another's task.
 *
 * A task may have a companion (a file job's read-ahead): steps that help
 * it, queued only when a thread would otherwise be idle (fh_pool_wake),
 * so they never delay another task. The task's report waits until its
 * companion is neither queued nor running, so the companion may use the
 * task's memory; an ending environment's queued companions are only taken
 * out of the queue.
 *
 * Safe to unload: the threads never end, so the addon's code must stay
 * mapped as long as the process lives. Node unloads an addon that only
 * workers loaded once the last of them ends; the addon is pinned instead:
 * linked -z nodelete where the linker has it (binding.gyp, prebuild.js),
 * pinned at the first task on Windows and macOS (pool_pin).
 *
 * A task is reported back to the JS thread of its environment through that
 * environment's thread-safe function, which keeps the event loop alive
 * while any of its tasks is pending. When an environment ends
 * (worker.terminate(), a worker's own end, the process's), its queued tasks
 * are dropped and its cleanup waits for its running steps before the
 * states they touch are freed. At process exit the same wait comes before
 * OpenSSL's own cleanup, which a running step must not race. */
#define _XOPEN_SOURCE 700

#include <stdlib.h>

#include <uv.h>

#if defined(__APPLE__)
#include <dlfcn.h>
#endif
#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include "fast_hash.h"

/* One environment's side of the pool. */
struct fh_pool_env {
  napi_threadsafe_function tsfn;
  unsigned pending;   /* tasks submitted and not yet reported (JS thread) */
  unsigned running;   /* steps of this environment on a thread (lock) */
  int closed;         /* tsfn may no longer be called (lock) */
  int owners;         /* the cleanup hook and the tsfn's finalizer (lock) */
};

/* The most threads FAST_HASH_THREADS may ask for. */
#define FH_POOL_MAX_THREADS 1024

static uv_once_t pool_once = UV_ONCE_INIT;
static struct {
  uv_mutex_t lock;
  uv_cond_t work;     /* a task was queued */
  uv_cond_t idle;     /* an environment's last running step ended */
  uv_cond_t drained;  /* the last running step ended at exit */
  fh_task *head, *tail;
  unsigned threads, waiting, max;
  unsigned running;   /* steps on a thread, of every environment */
  int exiting;        /* the process is exiting: no more steps run */
} pool;

#ifndef _WIN32
/* At process exit, before OpenSSL's own atexit cleanup (registered before
 * this one, so run after it): no step starts, and the running ones end.
 * (On Windows the other threads are gone by the time atexit handlers run.) */
static void pool_exit(void) {
  uv_mutex_lock(&pool.lock);
  pool.exiting = 1;
  while (pool.running != 0) uv_cond_wait(&pool.drained, &pool.lock);
  uv_mutex_unlock(&pool.lock);
}
#endif

/* Keeps the addon mapped for the life of the process (see above). Returns
 * 1, or 0 when it cannot be pinned: then no thread may start. */
static int pool_pin(void) {
#if defined(_WIN32)
  HMODULE self;

  return GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                              GET_MODULE_HANDLE_EX_FLAG_PIN,
                            (LPCWSTR)(void *)pool_pin, &self) != 0;
#elif defined(__APPLE__)
  Dl_info info;

  return dladdr((void *)pool_pin, &info) != 0 && info.dli_fname != NULL &&
         dlopen(info.dli_fname, RTLD_LAZY | RTLD_NODELETE) != NULL;
#else
  return 1; /* linked -z nodelete */
#endif
}

/* FAST_HASH_THREADS when it is a whole number from 1 to
 * FH_POOL_MAX_THREADS, else one thread per core. */
static unsigned pool_size(void) {
  const char *s = getenv("FAST_HASH_THREADS");
  unsigned long n = 0;

  for (; s != NULL && *s >= '0' && *s <= '9' && n <= FH_POOL_MAX_THREADS; s++)
    n = n * 10 + (unsigned long)(*s - '0');
  if (s != NULL && *s == '\0' && n >= 1 && n <= FH_POOL_MAX_THREADS)
    return (unsigned)n;
  n = uv_available_parallelism();
  return n < 1 ? 1 : (unsigned)n;
}

static void pool_init(void) {
  pool.max = pool_size();
  if (!pool_pin() || uv_mutex_init(&pool.lock) != 0 ||
      uv_cond_init(&pool.work) != 0 || uv_cond_init(&pool.idle) != 0 ||
      uv_cond_init(&pool.drained) != 0)
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

/* Frees t and the tasks hung after it, unrun or unfinished (their
 * environment has ended, or the process is exiting). */
static void pool_drop(fh_task *t) {
  fh_task *after;

  for (; t != NULL; t = after) {
    after = t->after;
    t->done(NULL, t);
  }
}

/* Puts t at the back of the queue and wakes an idle thread (lock held). */
static void pool_queue(fh_task *t) {
  t->next = NULL;
  if (pool.tail != NULL)
    pool.tail->next = t;
  else
    pool.head = t;
  pool.tail = t;
  uv_cond_signal(&pool.work);
}

/* t has run its last step (lock held): the update hung after it goes to
 * the back of the queue, and t is reported to its environment, or, where
 * that has ended, freed here. */
static void pool_finish(fh_task *t) {
  struct fh_pool_env *pe = t->pe;
  fh_task *after = t->after;

  t->finished = 1;
  t->after = NULL;
  if (after != NULL && (pe->closed || pool.exiting))
    pool_drop(after);
  else if (after != NULL)
    pool_queue(after);
  if (pe->closed ||
      napi_call_threadsafe_function(pe->tsfn, t, napi_tsfn_nonblocking) !=
        napi_ok)
    t->done(NULL, t);
}

/* A step of t ended (lock held): t goes to the back of the queue when it
 * has `more` to do and may go on, else it ends, once its companion is
 * neither queued nor running (the companion's own step end finishes it
 * otherwise). The environment's cleanup is woken when its last running
 * step ends, the exit when the process's last one does. */
static void pool_step_ended(fh_task *t, int more) {
  struct fh_pool_env *pe = t->pe;

  if (t->parent != NULL) {
    t->busy = 0;
    if (t->parent->finishing) pool_finish(t->parent);
  } else if (more && !pe->closed && !pool.exiting) {
    pool_queue(t);
  } else if (t->companion != NULL && t->companion->busy) {
    t->finishing = 1;
  } else {
    pool_finish(t);
  }
  if (--pe->running == 0) uv_cond_broadcast(&pool.idle);
  if (--pool.running == 0 && pool.exiting) uv_cond_signal(&pool.drained);
}

/* The next task from the queue, once there is one (lock held). */
static fh_task *pool_take(void) {
  fh_task *t;

  pool.waiting++;
  while (pool.head == NULL || pool.exiting)
    uv_cond_wait(&pool.work, &pool.lock);
  pool.waiting--;
  t = pool.head;
  if ((pool.head = t->next) == NULL) pool.tail = NULL;
  t->pe->running++;
  pool.running++;
  return t;
}

/* A pool thread: runs one step of the task at the head of the queue, for
 * ever. Named, so that tests can count the threads (Linux). */
static void pool_thread(void *arg) {
  fh_task *t;
  int more;

  (void)arg;
#if defined(__linux__)
  prctl(PR_SET_NAME, "fast-hash", 0, 0, 0);
#endif
  uv_mutex_lock(&pool.lock);
  for (;;) {
    t = pool_take();
    uv_mutex_unlock(&pool.lock);
    more = t->run(t);
    uv_mutex_lock(&pool.lock);
    pool_step_ended(t, more);
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

/* Takes pe's tasks out of the queue (lock held), the others kept in
 * order. Returns those to drop, linked through `next`: a companion is not
 * one (its memory is its task's), but a task that waited for it is. */
static fh_task *pool_unqueue(struct fh_pool_env *pe) {
  fh_task *t, *next, *kept = NULL, *dropped = NULL;

  for (t = pool.head, pool.head = NULL; t != NULL; t = next) {
    next = t->next;
    if (t->pe == pe && t->parent != NULL) {
      t->busy = 0;
      if (!t->parent->finishing) continue;
      t = t->parent;
    }
    if (t->pe == pe) {
      t->next = dropped;
      dropped = t;
      continue;
    }
    if (kept != NULL)
      kept->next = t;
    else
      pool.head = t;
    kept = t;
  }
  if (kept != NULL) kept->next = NULL;
  pool.tail = kept;
  return dropped;
}

/* The environment's cleanup: its queued tasks are dropped, and its running
 * steps are waited for (each is bounded), before the states they touch are
 * freed. */
static void pool_env_cleanup(void *arg) {
  struct fh_pool_env *pe = arg;
  fh_task *dropped, *t;

  uv_mutex_lock(&pool.lock);
  pe->closed = 1;
  dropped = pool_unqueue(pe);
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
  if (napi_create_string_utf8(env, "fast-hash", NAPI_AUTO_LENGTH, &name) !=
        napi_ok ||
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
           "Cannot set up the threads of fast-hash");
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
  pool_queue(t);
  return 1;
}

int fh_pool_submit(napi_env env, fh_state *st, fh_task *t, fh_task *before) {
  struct fh_pool_env *pe = pool_env(env, st);
  int ok;

  if (pe == NULL) return 0;
  t->pe = pe;
  t->next = t->after = t->parent = NULL;
  t->finished = t->finishing = 0;
  if (t->companion != NULL) {
    t->companion->pe = pe;
    t->companion->parent = t;
    t->companion->companion = NULL;
    t->companion->busy = 0;
  }
  uv_mutex_lock(&pool.lock);
  ok = pool_put(t, before);
  uv_mutex_unlock(&pool.lock);
  if (!ok) {
    fh_throw(env, FH_ERROR, "ERR_NAPI_CALL_FAILED",
             "Cannot start a thread of fast-hash");
    return 0;
  }
  if (pe->pending++ == 0) napi_ref_threadsafe_function(env, pe->tsfn);
  return 1;
}

/* Whether nothing is queued and a thread is idle or may start (lock
 * held). */
static int pool_has_spare(void) {
  return pool.head == NULL && !pool.exiting &&
         (pool.waiting != 0 || pool.threads < pool.max);
}

int fh_pool_spare(void) {
  int spare;

  uv_mutex_lock(&pool.lock);
  spare = pool_has_spare();
  uv_mutex_unlock(&pool.lock);
  return spare;
}

int fh_pool_wake(fh_task *c) {
  int woken;

  uv_mutex_lock(&pool.lock);
  woken = !c->busy && pool_has_spare() && !c->pe->closed && pool_grow();
  if (woken) {
    c->busy = 1;
    pool_queue(c);
  }
  uv_mutex_unlock(&pool.lock);
  return woken;
}
