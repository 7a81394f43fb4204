/* Digests of files, read in native code in large chunks through libuv's
 * synchronous file calls (portable, and safe on any thread): no file byte
 * passes through JavaScript. Used by hashFileSync (hash.c) and by hashFile
 * on the thread pool (async.c).
 *
 * A file longer than a few chunks is read ahead: a reader thread fills a
 * ring of chunk buffers while the calling thread hashes the chunks already
 * read. On one thread the copy out of the page cache and the digest take
 * turns; on two they overlap. The reader is woken as seldom as possible:
 * once the ring is full it sleeps until half of it is free, then reads that
 * half in one go. Each wake-up can take the hashing thread's CPU for a
 * moment (on a busy machine, or where the two share a core), so one per
 * half ring costs less than one per chunk.
 *
 * Nothing here is shared beyond one call: the ring, its lock and its thread
 * belong to the caller, so any number of calls (thread-pool jobs, workers)
 * run side by side. File bytes are the caller's data, not key material:
 * chunks are freed without a wipe, as message copies are. */
/* uv.h needs the POSIX types (pthread_rwlock_t, addrinfo) that strict C99
 * hides. */
#define _XOPEN_SOURCE 700

#include <stdlib.h>
#include <string.h>

#ifndef _WIN32
#include <errno.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#endif

#include <uv.h>

#include "fast_hash.h"

/* A regular file gets a reader thread only with at least this much left
 * after its first chunk. */
#define FH_FILE_MIN_AHEAD ((int64_t)2 * FH_FILE_CHUNK)

/* One read of up to len bytes from fd at its current position, retried when
 * interrupted: the byte count, 0 at the end, or a negative libuv error. */
static int64_t file_read(int fd, uint8_t *buf, size_t len) {
  uv_fs_t req;
  uv_buf_t b = uv_buf_init((char *)buf, (unsigned)len);
  ssize_t n;

  /* Offset -1 reads on from the current position, so files past 4 GiB need
   * nothing special. */
  do {
    n = uv_fs_read(NULL, &req, fd, &b, 1, -1, NULL);
    uv_fs_req_cleanup(&req);
  } while (n == UV_EINTR);
  return n;
}

#ifndef _WIN32
/* Waits until the FIFO fd has data or a writer has come and gone, or until
 * uv_hrtime() passes `until`. Returns poll()'s revents, 0 when `until`
 * passes first, or a negative libuv error. */
static int wait_readable(int fd, uint64_t until) {
  struct pollfd p;
  uint64_t now;
  int r;

  p.fd = fd;
  p.events = POLLIN;
  do {
    now = uv_hrtime();
    if (now >= until) return 0;
    p.revents = 0;
    r = poll(&p, 1, (int)((until - now + 999999) / 1000000));
  } while (r < 0 && errno == EINTR);
  if (r < 0) return uv_translate_sys_error(errno);
  return r == 0 ? 0 : p.revents;
}

/* One read of up to a chunk from f's FIFO (open with O_NONBLOCK) into
 * f->chunk, waiting no later than `until`: the byte count; 0 at the end; a
 * negative libuv error; or UV_ETIMEDOUT when `until` passes with nothing to
 * read (no read or poll of a FIFO fails so). A FIFO reads 0 whenever it has
 * no writer, also before the first one: the end is a 0 once poll() reports
 * POLLHUP without POLLIN, i.e. a writer has been there and left, so a FIFO
 * whose writer is not yet there is waited on as a blocking open waits. */
static int64_t fifo_read(fh_file *f, uint64_t until) {
  int64_t n;
  int ev;

  for (;;) {
    n = file_read(f->fd, f->chunk, FH_FILE_CHUNK);
    if (n > 0 || (n < 0 && n != UV_EAGAIN)) return n;
    ev = wait_readable(f->fd, until);
    if (ev < 0) return ev;
    if (ev == 0) return UV_ETIMEDOUT;
    if (n == 0 && !(ev & POLLIN)) return 0;
  }
}
#endif

/* The next read of up to a chunk into f->chunk, as file_read; a FIFO's
 * waits no later than `until` (fifo_read). */
static int64_t read_chunk(fh_file *f, uint64_t until) {
#ifndef _WIN32
  if (f->fifo) return fifo_read(f, until);
#endif
  (void)until;
  return file_read(f->fd, f->chunk, FH_FILE_CHUNK);
}

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
    n = file_read(r->fd, r->slot[i], FH_FILE_CHUNK);
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
static int drain(fh_ring *r, fh_md *s, fh_fs_error *err) {
  int64_t n;

  for (; r->hashed != r->filled; r->hashed++) {
    n = r->len[r->hashed % FH_RING_SLOTS];
    if (n == 0) return FH_FILE_END;
    if (n < 0) {
      err->code = (int)n;
      err->syscall = "read";
      return FH_FILE_FAILED;
    }
    if (!fh_md_update(s, r->slot[r->hashed % FH_RING_SLOTS], (size_t)n))
      return FH_FILE_FAILED;
  }
  return FH_FILE_MORE;
}

/* Hashes the rest of a slice of the file fd into s, its first chunk
 * (FH_FILE_CHUNK bytes, not yet hashed) in `first`: a reader thread reads
 * ahead while this thread hashes until the end of the file or uv_hrtime()
 * passes `until`; the thread is joined and what it read is hashed before
 * the return. Returns FH_FILE_MORE, FH_FILE_END, or FH_FILE_FAILED with
 * err->code set on a read failure or with the reason on OpenSSL's queue; or
 * -1 with nothing read or hashed when the thread cannot start (the caller
 * reads on itself). */
static int hash_rest(fh_md *s, int fd, uint8_t *first, uint64_t until,
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
  while (n > 0 && (ok = fh_md_update(s, r.slot[i], (size_t)n)) &&
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

/* Whether the rest of the file is worth a reader thread: not for a regular
 * file that ends within FH_FILE_MIN_AHEAD bytes past `done`, where starting
 * and joining the thread costs more than the overlap saves. Other files
 * (and a failed fstat) get one. */
static int worth_reading_ahead(uv_file fd, int64_t done) {
  uv_fs_t req;
  int regular_and_short;

  if (uv_fs_fstat(NULL, &req, fd, NULL) != 0) {
    uv_fs_req_cleanup(&req);
    return 1;
  }
  regular_and_short = (req.statbuf.st_mode & S_IFMT) == S_IFREG &&
                      req.statbuf.st_size < (uint64_t)done + FH_FILE_MIN_AHEAD;
  uv_fs_req_cleanup(&req);
  return !regular_and_short;
}

/* Hashes one full chunk already in f->chunk and the rest of the slice on a
 * reader thread, unless the file ends soon (FH_FILE_MIN_AHEAD), is a FIFO
 * (whose reads wait on this thread, fifo_read) or the thread cannot start:
 * then -1, with the chunk not yet hashed. */
static int read_ahead(fh_file *f, uint64_t until) {
  if (f->fifo || !worth_reading_ahead(f->fd, f->done)) return -1;
  return hash_rest(&f->md, f->fd, f->chunk, until, &f->err);
}

/* Reads stay on this thread while they come short (small files, pipes: no
 * thread to start and join); the first full chunk of a slice means the file
 * may go on, and the rest of the slice is read ahead (read_ahead). A slice
 * ends on time however short its reads, and when a FIFO has nothing to read
 * by then. */
static int slice(fh_file *f) {
  uint64_t until = uv_hrtime() + FH_FILE_SLICE_NS;
  int64_t n;
  int rest;

  for (;;) {
    n = read_chunk(f, until);
    if (n <= 0) break;
    f->done += n;
    if (n == FH_FILE_CHUNK && (rest = read_ahead(f, until)) >= 0) return rest;
    if (!fh_md_update(&f->md, f->chunk, (size_t)n)) return FH_FILE_FAILED;
    if (uv_hrtime() >= until) return FH_FILE_MORE;
  }
  if (n == 0) return FH_FILE_END;
  if (f->fifo && n == UV_ETIMEDOUT) return FH_FILE_MORE;
  f->err.code = (int)n;
  f->err.syscall = "read";
  return FH_FILE_FAILED;
}

int fh_file_slice(fh_file *f, uint8_t *out, size_t outlen) {
  int r = slice(f);

  return r == FH_FILE_END && !fh_md_final(&f->md, out, outlen) ? FH_FILE_FAILED
                                                               : r;
}

/* Opens `path` for reading into f->fd. On POSIX the open does not wait for
 * a FIFO's writer (O_NONBLOCK: a FIFO without one opens at once, and its
 * reads wait in bounded steps, fifo_read); only an EAGAIN from that open (a
 * lease whose holder is asked to let go) gets the plain open, which waits.
 * Returns 1, or 0 with f->err set and nothing open. */
static int open_file(fh_file *f, const char *path) {
  uv_fs_t req;

  f->fd = uv_fs_open(NULL, &req, path, UV_FS_O_RDONLY | UV_FS_O_NONBLOCK, 0,
                     NULL);
  uv_fs_req_cleanup(&req);
  if (f->fd == UV_EAGAIN) {
    f->fd = uv_fs_open(NULL, &req, path, UV_FS_O_RDONLY, 0, NULL);
    uv_fs_req_cleanup(&req);
  }
  if (f->fd >= 0) return 1;
  f->err.code = f->fd;
  f->err.syscall = "open";
  return 0;
}

/* After open_file: a FIFO keeps O_NONBLOCK (f->fifo set); any other file
 * reads blocking again, as it always has (a device's reads, the reader
 * thread's). libuv's fstat and ioctl(FIONBIO), not fstat() and fcntl():
 * glibc gave those new symbol versions (2.33, 2.28), which the prebuilt
 * binary's glibc floor does not allow. Returns 1, or 0 with f->err set. */
static int set_reads(fh_file *f) {
#ifndef _WIN32
  uv_fs_t req;
  int code, off = 0;

  code = uv_fs_fstat(NULL, &req, f->fd, NULL);
  f->fifo = code == 0 && (req.statbuf.st_mode & S_IFMT) == S_IFIFO;
  uv_fs_req_cleanup(&req);
  if (code != 0) {
    f->err.syscall = "fstat";
    f->err.code = code;
    return 0;
  }
  if (f->fifo || ioctl(f->fd, FIONBIO, &off) == 0) return 1;
  f->err.syscall = "ioctl";
  f->err.code = uv_translate_sys_error(errno);
  return 0;
#else
  (void)f;
  return 1;
#endif
}

int fh_file_open(fh_file *f, const fh_alg *alg, EVP_MD_CTX *lent,
                 const char *path) {
  memset(f, 0, sizeof(*f));
  if (!open_file(f, path)) return 0;
  if (!set_reads(f)) {
    /* f->err is set */
  } else if ((f->chunk = malloc(FH_FILE_CHUNK)) == NULL) {
    f->err.code = UV_ENOMEM;
    f->err.syscall = "read";
  } else if (fh_md_start(&f->md, alg, lent)) {
    return 1;
  }
  fh_file_close(f);
  return 0;
}

void fh_file_close(fh_file *f) {
  uv_fs_t req;

  fh_md_close(&f->md);
  free(f->chunk);
  f->chunk = NULL;
  if (f->fd >= 0) {
    uv_fs_close(NULL, &req, f->fd, NULL);
    uv_fs_req_cleanup(&req);
  }
  f->fd = -1;
}
