/* Digests of files, read in native code in large chunks through libuv's
 * synchronous file calls (portable, and safe on any thread): no file byte
 * passes through JavaScript. Used by hashFileSync (hash.c) on the JS
 * thread and by hashFile as a task of the executor (async.c, pool.c), one
 * bounded step at a time.
 *
 * Nothing here is shared beyond one file: any number of them (executor
 * tasks, workers) run side by side. File bytes are the caller's data, not
 * key material: chunks are freed without a wipe, as message copies are. */
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

/* Chunks given back by ended files, kept for the next ones (at most
 * FH_CHUNKS_KEPT, process-wide): fresh memory is paid for in page faults
 * at its first touch, which on some machines costs as much as hashing it
 * (benchmark/README.md, question (m): one large file alone). File bytes are not key
 * material: chunks are kept and freed without a wipe. */
#define FH_CHUNKS_KEPT 8

static uv_once_t chunks_once = UV_ONCE_INIT;
static uv_mutex_t chunks_lock;
static int chunks_ready;
static uint8_t *chunks_kept[FH_CHUNKS_KEPT];
static unsigned chunks_count;

static void chunks_init(void) {
  chunks_ready = uv_mutex_init(&chunks_lock) == 0;
}

/* A chunk of FH_FILE_CHUNK bytes, kept or new; NULL when out of memory. */
static uint8_t *chunk_take(void) {
  uint8_t *chunk = NULL;

  uv_once(&chunks_once, chunks_init);
  if (chunks_ready) {
    uv_mutex_lock(&chunks_lock);
    if (chunks_count != 0) chunk = chunks_kept[--chunks_count];
    uv_mutex_unlock(&chunks_lock);
  }
  return chunk != NULL ? chunk : malloc(FH_FILE_CHUNK);
}

/* Keeps a chunk for the next file, or frees it (NULL: nothing). */
static void chunk_give(uint8_t *chunk) {
  if (chunk != NULL && chunks_ready) {
    uv_mutex_lock(&chunks_lock);
    if (chunks_count < FH_CHUNKS_KEPT) {
      chunks_kept[chunks_count++] = chunk;
      chunk = NULL;
    }
    uv_mutex_unlock(&chunks_lock);
  }
  free(chunk);
}

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

/* Reads stay on this thread: a step reads and hashes until it has read
 * FH_STEP_BYTES (one chunk from a regular file; a pipe's short reads add
 * up to it), until the end, or until a FIFO has had nothing to read for
 * FH_FILE_WAIT_NS. Many files at once use every core through the
 * executor's threads, one step each. */
static int step(fh_file *f) {
  uint64_t until = uv_hrtime() + FH_FILE_WAIT_NS;
  size_t got = 0;
  int64_t n;

  for (;;) {
    n = read_chunk(f, until);
    if (n <= 0) break;
    f->done += n;
    got += (size_t)n;
    if (!fh_md_update(&f->md, f->chunk, (size_t)n)) return FH_FILE_FAILED;
    if (got >= FH_STEP_BYTES || uv_hrtime() >= until) return FH_FILE_MORE;
  }
  if (n == 0) return FH_FILE_END;
  if (f->fifo && n == UV_ETIMEDOUT) return FH_FILE_MORE;
  f->err.code = (int)n;
  f->err.syscall = "read";
  return FH_FILE_FAILED;
}

/* ---- reading ahead -------------------------------------------------------
 * One large file alone: while one thread hashes a chunk, another copies the
 * next ones out of the file (the executor's spare thread, through the
 * job's companion task, async.c), so the copy costs no time of the hashing
 * thread's. The ring's chunks are filled and hashed in file order; one read
 * at a time, by either side: the hashing side reads for itself whenever
 * nothing is filled and no read is under way, so it never depends on the
 * other side being run. Either side waits only for a read already under
 * way on the other thread (one chunk of a regular file), never for a task
 * to be run. */
#define FH_AHEAD_CHUNKS 4

struct fh_ahead {
  uv_mutex_t lock;
  uv_cond_t read;                  /* a read under way ended */
  uint8_t *chunk[FH_AHEAD_CHUNKS]; /* FH_FILE_CHUNK bytes each */
  int64_t len[FH_AHEAD_CHUNKS];    /* bytes in a filled chunk */
  unsigned head, filled;           /* the next chunk to hash; filled ones */
  int reading;                     /* a read is under way */
  int end;                         /* no more reads: the last gave `code` */
  int64_t code;                    /* 0 at the end of the file, or an error */
  int stop;                        /* fh_file_ahead_stop was called */
};

static void ahead_free(fh_file *f) {
  fh_ahead *a = f->ahead;
  unsigned i;

  if (a == NULL) return;
  for (i = 0; i < FH_AHEAD_CHUNKS; i++) chunk_give(a->chunk[i]);
  uv_cond_destroy(&a->read);
  uv_mutex_destroy(&a->lock);
  free(a);
  f->ahead = NULL;
}

int fh_file_ahead(fh_file *f, int (*spare)(void)) {
  fh_ahead *a;
  unsigned i;

  if (f->ahead != NULL) return 1;
  if (f->size - f->done < 2 * (int64_t)FH_FILE_CHUNK || !spare()) return 0;
  if ((a = calloc(1, sizeof(*a))) == NULL) return 0;
  for (i = 0; i < FH_AHEAD_CHUNKS; i++)
    if ((a->chunk[i] = chunk_take()) == NULL) break;
  if (i == FH_AHEAD_CHUNKS && uv_mutex_init(&a->lock) == 0) {
    if (uv_cond_init(&a->read) == 0) {
      /* Every read goes to the ring from now on. */
      chunk_give(f->chunk);
      f->chunk = NULL;
      f->ahead = a;
      return 1;
    }
    uv_mutex_destroy(&a->lock);
  }
  while (i-- > 0) chunk_give(a->chunk[i]);
  free(a);
  return 0;
}

/* Reads the next chunk into the ring (lock held on entry and return; the
 * read itself runs without it). The caller has checked that no read is
 * under way, none has ended the file and a chunk is free. */
static void ahead_read(fh_file *f, fh_ahead *a) {
  unsigned i = (a->head + a->filled) % FH_AHEAD_CHUNKS;
  int64_t n;

  a->reading = 1;
  uv_mutex_unlock(&a->lock);
  n = file_read(f->fd, a->chunk[i], FH_FILE_CHUNK);
  uv_mutex_lock(&a->lock);
  a->reading = 0;
  if (n > 0) {
    a->len[i] = n;
    a->filled++;
  } else {
    a->end = 1;
    a->code = n;
  }
  uv_cond_broadcast(&a->read);
}

int fh_file_ahead_wanted(fh_file *f) {
  fh_ahead *a = f->ahead;
  int wanted;

  uv_mutex_lock(&a->lock);
  wanted = !a->end && !a->stop && a->filled < FH_AHEAD_CHUNKS;
  uv_mutex_unlock(&a->lock);
  return wanted;
}

void fh_file_read_ahead(fh_file *f) {
  fh_ahead *a = f->ahead;

  uv_mutex_lock(&a->lock);
  while (!a->stop && !a->end && a->filled < FH_AHEAD_CHUNKS) {
    if (a->reading)
      uv_cond_wait(&a->read, &a->lock);
    else
      ahead_read(f, a);
  }
  uv_mutex_unlock(&a->lock);
}

void fh_file_ahead_stop(fh_file *f) {
  if (f->ahead == NULL) return;
  uv_mutex_lock(&f->ahead->lock);
  f->ahead->stop = 1;
  uv_cond_broadcast(&f->ahead->read);
  uv_mutex_unlock(&f->ahead->lock);
}

/* fh_file_step's step with a ring: hashes the next chunk, read by either
 * side. Returns as step() does. */
static int ring_step(fh_file *f) {
  fh_ahead *a = f->ahead;
  unsigned i;
  int64_t n;
  int ok;

  uv_mutex_lock(&a->lock);
  while (a->filled == 0 && a->reading) uv_cond_wait(&a->read, &a->lock);
  if (a->filled == 0 && !a->end) ahead_read(f, a);
  i = a->head;
  n = a->filled != 0 ? a->len[i] : a->code;
  uv_mutex_unlock(&a->lock);
  if (n == 0) return FH_FILE_END;
  if (n < 0) {
    f->err.code = (int)n;
    f->err.syscall = "read";
    return FH_FILE_FAILED;
  }
  f->done += n;
  ok = fh_md_update(&f->md, a->chunk[i], (size_t)n);
  uv_mutex_lock(&a->lock);
  a->head = (i + 1) % FH_AHEAD_CHUNKS;
  a->filled--;
  uv_mutex_unlock(&a->lock);
  return ok ? FH_FILE_MORE : FH_FILE_FAILED;
}

int fh_file_step(fh_file *f, uint8_t *out, size_t outlen) {
  int r = f->ahead != NULL ? ring_step(f) : step(f);

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
 * reads blocking again, as it always has (a device's reads). libuv's fstat and ioctl(FIONBIO), not fstat() and fcntl():
 * glibc gave those new symbol versions (2.33, 2.28), which the prebuilt
 * binary's glibc floor does not allow. Returns 1, or 0 with f->err set. */
static int set_reads(fh_file *f) {
#ifndef _WIN32
  uv_fs_t req;
  int code, off = 0;

  code = uv_fs_fstat(NULL, &req, f->fd, NULL);
  f->fifo = code == 0 && (req.statbuf.st_mode & S_IFMT) == S_IFIFO;
  if (code == 0 && (req.statbuf.st_mode & S_IFMT) == S_IFREG)
    f->size = (int64_t)req.statbuf.st_size;
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
  f->size = -1;
  if (!open_file(f, path)) return 0;
  if (!set_reads(f)) {
    /* f->err is set */
  } else if ((f->chunk = chunk_take()) == NULL) {
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

  ahead_free(f);
  fh_md_close(&f->md);
  chunk_give(f->chunk);
  f->chunk = NULL;
  if (f->fd >= 0) {
    uv_fs_close(NULL, &req, f->fd, NULL);
    uv_fs_req_cleanup(&req);
  }
  f->fd = -1;
}
