/* The rest of a long file, read and hashed at once: a reader thread fills a
 * ring of chunk buffers while the calling thread hashes the chunks already
 * read. On one thread the copy out of the page cache and the digest take
 * turns; on two they overlap.
 *
 * The reader is woken as seldom as possible: once the ring is full it sleeps
 * until half of it is free, then reads that half in one go. Each wake-up
 * can take the hashing thread's CPU for a moment (on a busy machine, or
 * where the two share a core), so one per half ring costs less than one per
 * chunk.
 *
 * Nothing here is shared beyond one call: the ring, its lock and its thread
 * belong to the caller, so any number of calls (thread-pool jobs, workers)
 * run side by side. File bytes are the caller's data, not key material:
 * chunks are freed without a wipe, as message copies are. */
/* uv.h needs the POSIX types (pthread_rwlock_t, addrinfo) that strict C99
 * hides. */
#define _XOPEN_SOURCE 700

#include <stdlib.h>

#include <uv.h>

#include "fast_hash.h"

/* Chunks in flight, the caller's first one included: the reader sleeps and
 * wakes once per half ring. */
#define FH_RING_SLOTS 8

typedef struct {
  uv_file fd;
  uint8_t *slot[FH_RING_SLOTS];
  uint8_t *block;               /* slots 1.. in one allocation */
  int64_t len[FH_RING_SLOTS];   /* bytes read; 0 at the end; a libuv error */
  unsigned filled, hashed;      /* chunks read and hashed so far (both wrap
                                   alike: only their difference is used) */
  int sleeping;                 /* the reader waits for half a ring */
  int stop;                     /* the hasher is done: the reader ends */
  uv_mutex_t lock;
  uv_cond_t can_read, can_hash;
} fh_ring;

/* Under the lock, on the reader thread: when the ring is full, sleeps until
 * half of it is free or the hasher stops. Returns 0 on stop. */
static int wait_for_room(fh_ring *r) {
  if (r->filled - r->hashed == FH_RING_SLOTS) {
    r->sleeping = 1;
    while (r->filled - r->hashed > FH_RING_SLOTS / 2 && !r->stop)
      uv_cond_wait(&r->can_read, &r->lock);
    r->sleeping = 0;
  }
  return !r->stop;
}

/* On the reader thread: reads chunk after chunk into the free slots until
 * the end of the file, a read error (both passed on in a slot) or stop. */
static void reader_main(void *arg) {
  fh_ring *r = arg;
  int64_t n = 1;
  unsigned i;

  uv_mutex_lock(&r->lock);
  while (n > 0 && wait_for_room(r)) {
    i = r->filled % FH_RING_SLOTS;
    uv_mutex_unlock(&r->lock);
    n = fh_file_read(r->fd, r->slot[i], FH_FILE_CHUNK);
    uv_mutex_lock(&r->lock);
    r->len[i] = n;
    r->filled++;
    uv_cond_signal(&r->can_hash);
  }
  uv_mutex_unlock(&r->lock);
}

/* Sets up a ring whose slot 0 is `first`, a full chunk already read. Returns
 * 1, or 0 with nothing left to release. */
static int ring_open(fh_ring *r, uv_file fd, uint8_t *first) {
  unsigned i;

  memset(r, 0, sizeof(*r));
  r->fd = fd;
  r->block = malloc((size_t)(FH_RING_SLOTS - 1) * FH_FILE_CHUNK);
  if (r->block == NULL) return 0;
  r->slot[0] = first;
  for (i = 1; i < FH_RING_SLOTS; i++)
    r->slot[i] = r->block + (size_t)(i - 1) * FH_FILE_CHUNK;
  r->len[0] = FH_FILE_CHUNK;
  r->filled = 1;
  if (uv_mutex_init(&r->lock) != 0) goto no_lock;
  if (uv_cond_init(&r->can_read) != 0) goto no_read_cond;
  if (uv_cond_init(&r->can_hash) != 0) goto no_hash_cond;
  return 1;
no_hash_cond:
  uv_cond_destroy(&r->can_read);
no_read_cond:
  uv_mutex_destroy(&r->lock);
no_lock:
  free(r->block);
  return 0;
}

/* Releases what ring_open made (the reader has been joined). */
static void ring_close(fh_ring *r) {
  uv_cond_destroy(&r->can_hash);
  uv_cond_destroy(&r->can_read);
  uv_mutex_destroy(&r->lock);
  free(r->block);
}

/* On the hashing thread: gives the previous slot back (when `done`), waits
 * for the next one and returns its length, its index in *i. The reader is
 * woken after the lock is let go, so that it does not wake only to wait for
 * the lock. */
static int64_t next_slot(fh_ring *r, int done, unsigned *i) {
  int64_t n;
  int wake = 0;

  uv_mutex_lock(&r->lock);
  if (done) {
    r->hashed++;
    wake = r->sleeping && r->filled - r->hashed == FH_RING_SLOTS / 2;
  }
  while (r->filled == r->hashed) uv_cond_wait(&r->can_hash, &r->lock);
  *i = r->hashed % FH_RING_SLOTS;
  n = r->len[*i];
  uv_mutex_unlock(&r->lock);
  if (wake) uv_cond_signal(&r->can_read);
  return n;
}

/* Tells the reader to end and waits for it: a read under way finishes
 * first. */
static void stop_reader(fh_ring *r, uv_thread_t *thread) {
  uv_mutex_lock(&r->lock);
  r->stop = 1;
  uv_mutex_unlock(&r->lock);
  uv_cond_signal(&r->can_read);
  uv_thread_join(thread);
}

/* After stop_reader: hashes what the reader had read and the hasher had not
 * yet taken (those bytes are gone from the file). Returns FH_FILE_MORE,
 * FH_FILE_END when one of them is the end of the file, or FH_FILE_FAILED
 * with err->code set on a read failure or the reason on OpenSSL's queue. */
static int drain(fh_ring *r, fh_stream *s, fh_fs_error *err) {
  int64_t n;

  for (; r->hashed != r->filled; r->hashed++) {
    n = r->len[r->hashed % FH_RING_SLOTS];
    if (n == 0) return FH_FILE_END;
    if (n < 0) {
      err->code = (int)n;
      err->syscall = "read";
      return FH_FILE_FAILED;
    }
    if (!fh_stream_update(s, r->slot[r->hashed % FH_RING_SLOTS], (size_t)n))
      return FH_FILE_FAILED;
  }
  return FH_FILE_MORE;
}

int fh_file_hash_rest(fh_stream *s, int fd, uint8_t *first, uint64_t until,
                      fh_fs_error *err) {
  fh_ring r;
  uv_thread_t thread;
  int64_t n;
  unsigned i;
  int ok = 1;

  if (!ring_open(&r, fd, first)) return -1;
  if (uv_thread_create(&thread, reader_main, &r) != 0) {
    ring_close(&r);
    return -1;
  }
  n = next_slot(&r, 0, &i);
  while (n > 0 && (ok = fh_stream_update(s, r.slot[i], (size_t)n)) &&
         uv_hrtime() < until)
    n = next_slot(&r, 1, &i);
  stop_reader(&r, &thread);
  if (n > 0 && ok) {
    r.hashed++; /* slot i is hashed */
    ok = drain(&r, s, err);
  } else if (n < 0) {
    err->code = (int)n;
    err->syscall = "read";
    ok = FH_FILE_FAILED;
  } else {
    ok = ok ? FH_FILE_END : FH_FILE_FAILED;
  }
  ring_close(&r);
  return ok;
}
