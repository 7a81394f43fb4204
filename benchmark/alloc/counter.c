/* LD_PRELOAD allocation counter for benchmark/alloc/run.js.
 *
 * malloc, calloc, realloc and the aligned allocators are interposed and
 * forwarded to glibc's __libc_* entry points (no dlsym: dlsym itself may call
 * calloc, which would recurse before the real pointer is known). Each call bumps two counters:
 * one for every thread and one for the main thread only, since the call being
 * measured runs on the main thread while V8's compiler and GC helper threads
 * malloc at their own pace. The counters live in a file mapped MAP_SHARED
 * (path in $ALLOC_COUNTER_FILE), so the process can read them at any moment
 * with an ordinary file read, without any native code of its own. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

struct counts { uint64_t all, main; };

/* Allocations made before the constructor runs (by the loader, libc) land
 * here and are simply not reported. */
static struct counts early;
static struct counts *counts = &early;
static __thread int on_main __attribute__((tls_model("initial-exec")));

static inline void count(void) {
  __atomic_fetch_add(&counts->all, 1, __ATOMIC_RELAXED);
  if (on_main) counts->main++; /* one writer, no atomic needed */
}

void *malloc(size_t n) { count(); return __libc_malloc(n); }
void *calloc(size_t k, size_t n) { count(); return __libc_calloc(k, n); }
void *realloc(void *p, size_t n) { count(); return __libc_realloc(p, n); }
void *aligned_alloc(size_t a, size_t n) { count(); return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
  if (a < sizeof(void *) || (a & (a - 1))) return EINVAL;
  count();
  void *p = __libc_memalign(a, n);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}

/* Runs on the main thread before node's main(). Only system calls here
 * (getenv, open, ftruncate, mmap allocate nothing). */
__attribute__((constructor)) static void init(void) {
  on_main = 1;
  const char *path = getenv("ALLOC_COUNTER_FILE");
  if (!path) return;
  int fd = open(path, O_RDWR | O_CREAT, 0600);
  if (fd < 0) return;
  if (ftruncate(fd, sizeof(struct counts)) == 0) {
    void *m = mmap(NULL, sizeof(struct counts), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m != MAP_FAILED) counts = m;
  }
  close(fd);
}
