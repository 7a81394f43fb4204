/* Digests of files, read in native code in large chunks through libuv's
 * synchronous file calls (portable, and safe on any thread): no file byte
 * passes through JavaScript. Files longer than a chunk are read ahead on a
 * thread of their own (file_reader.c). Used by hashFileSync here and by
 * hashFile on the thread pool (async.c). */
/* uv.h needs the POSIX types (pthread_rwlock_t, addrinfo) that strict C99
 * hides. */
#define _XOPEN_SOURCE 700

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <uv.h>

#include "fast_hash.h"

/* A regular file gets a reader thread only with at least this much left
 * after its first chunk. */
#define FH_FILE_MIN_AHEAD ((int64_t)2 * FH_FILE_CHUNK)

int64_t fh_file_read(int fd, uint8_t *buf, size_t len) {
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
 * reader thread, unless the file ends soon (FH_FILE_MIN_AHEAD) or the thread
 * cannot start: then -1, with the chunk not yet hashed. */
static int read_ahead(fh_file *f, uint64_t until) {
  if (!worth_reading_ahead(f->fd, f->done)) return -1;
  return fh_file_hash_rest(&f->s, f->fd, f->chunk, until, &f->err);
}

/* Reads stay on this thread while they come short (small files, pipes: no
 * thread to start and join); the first full chunk of a slice means the file
 * may go on, and the rest of the slice is read ahead (read_ahead). */
int fh_file_slice(fh_file *f) {
  uint64_t until = uv_hrtime() + FH_FILE_SLICE_NS;
  int64_t n;
  int rest;

  for (;;) {
    n = fh_file_read(f->fd, f->chunk, FH_FILE_CHUNK);
    if (n <= 0) break;
    f->done += n;
    if (n == FH_FILE_CHUNK && (rest = read_ahead(f, until)) >= 0) return rest;
    if (!fh_stream_update(&f->s, f->chunk, (size_t)n)) return FH_FILE_FAILED;
    if (uv_hrtime() >= until) return FH_FILE_MORE;
  }
  if (n == 0) return FH_FILE_END;
  f->err.code = (int)n;
  f->err.syscall = "read";
  return FH_FILE_FAILED;
}

int fh_file_open(fh_file *f, const fh_alg *alg, EVP_MD_CTX *evp,
                 const char *path) {
  uv_fs_t req;

  memset(f, 0, sizeof(*f));
  f->s.alg = alg;
  f->fd = uv_fs_open(NULL, &req, path, UV_FS_O_RDONLY, 0, NULL);
  uv_fs_req_cleanup(&req);
  if (f->fd < 0) {
    f->err.code = f->fd;
    f->err.syscall = "open";
    return 0;
  }
  if ((f->chunk = malloc(FH_FILE_CHUNK)) == NULL) {
    f->err.code = UV_ENOMEM;
    f->err.syscall = "read";
  } else if (fh_stream_init(&f->s, alg, evp)) {
    return 1;
  }
  fh_file_close(f);
  return 0;
}

void fh_file_close(fh_file *f) {
  uv_fs_t req;

  fh_stream_wipe(&f->s);
  free(f->chunk);
  f->chunk = NULL;
  if (f->fd >= 0) {
    uv_fs_close(NULL, &req, f->fd, NULL);
    uv_fs_req_cleanup(&req);
  }
  f->fd = -1;
}

void fh_throw_fs(napi_env env, const fh_fs_error *err, const char *path) {
  napi_value error;

  if (fh_fs_error_value(env, err, path, &error)) napi_throw(env, error);
}

int fh_fs_error_value(napi_env env, const fh_fs_error *err, const char *path,
                      napi_value *result) {
  char message[1024];
  napi_value code, text, value;
  const char *name = uv_err_name(err->code);

  /* As fs words it: "ENOENT: no such file or directory, open '/x'". */
  snprintf(message, sizeof(message), "%s: %s, %s '%s'", name,
           uv_strerror(err->code), err->syscall, path);
  CALL(env, napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &code));
  CALL(env, napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &text));
  CALL(env, napi_create_error(env, code, text, result));
  CALL(env, napi_create_int32(env, err->code, &value));
  CALL(env, napi_set_named_property(env, *result, "errno", value));
  CALL(env, napi_create_string_utf8(env, err->syscall, NAPI_AUTO_LENGTH, &value));
  CALL(env, napi_set_named_property(env, *result, "syscall", value));
  CALL(env, napi_create_string_utf8(env, path, NAPI_AUTO_LENGTH, &value));
  CALL(env, napi_set_named_property(env, *result, "path", value));
  return 1;
}

/* A path from JS (a string, or a Buffer of raw bytes) as a C string on the
 * heap. The shim refuses NUL bytes; they are refused here again. */
char *fh_get_path(napi_env env, napi_value value) {
  napi_valuetype type;
  size_t len;
  void *bytes;
  char *path;

  if (napi_typeof(env, value, &type) != napi_ok) return NULL;
  if (type == napi_string) {
    if (napi_get_value_string_utf8(env, value, NULL, 0, &len) != napi_ok ||
        (path = malloc(len + 1)) == NULL)
      goto oom;
    napi_get_value_string_utf8(env, value, path, len + 1, &len);
  } else {
    if (fh_get_output(env, value, &bytes, &len) == 0) return NULL;
    if ((path = malloc(len + 1)) == NULL) goto oom;
    if (len != 0) memcpy(path, bytes, len); /* an empty Buffer's data may be NULL */
    path[len] = '\0';
  }
  if (strlen(path) == len) return path;
  free(path);
  fh_throw(env, FH_TYPE_ERROR, "ERR_INVALID_ARG_VALUE",
           "The path must not contain NUL bytes");
  return NULL;
oom:
  fh_throw(env, FH_RANGE_ERROR, "ERR_MEMORY_ALLOCATION_FAILED",
           "Failed to allocate memory for a path");
  return NULL;
}

/* Digests the file at `path` into md on this (the JS) thread, slice by
 * slice, asking between two whether the environment still runs JS: a
 * worker's terminate() stops the digest there. Returns 1; or 0 with an
 * exception pending. */
static int digest_here(napi_env env, fh_state *st, const fh_alg *alg,
                       const char *path, uint8_t *md, size_t outlen) {
  fh_file f;
  int r = FH_FILE_FAILED;

  if (fh_file_open(&f, alg, st->ctx, path)) {
    while ((r = fh_file_slice(&f)) == FH_FILE_MORE && fh_env_running(env, st))
      continue;
    if (r == FH_FILE_END && !fh_stream_final(&f.s, md, outlen))
      r = FH_FILE_FAILED;
    fh_file_close(&f);
  }
  if (r == FH_FILE_END) return 1;
  if (r == FH_FILE_MORE) {
    fh_throw(env, FH_ERROR, "ERR_CRYPTO_OPERATION_FAILED",
             "The digest of '%s' was stopped: the environment is ending", path);
  } else if (f.err.code != 0) {
    ERR_clear_error();
    fh_throw_fs(env, &f.err, path);
  } else {
    fh_throw_openssl(env, "Digest");
  }
  return 0;
}

/* hashFileSync(algId, encodingId, path, outputLength[, buffer]) -> string,
 * or fills buffer. */
napi_value fh_hash_file_sync(napi_env env, napi_callback_info info) {
  size_t argc = 5, outlen;
  napi_value argv[5], result = NULL;
  void *self;
  fh_state *st;
  const fh_alg *alg;
  fh_encoding enc;
  uint8_t stack_md[EVP_MAX_MD_SIZE], *md = stack_md;
  char *path;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, &self));
  st = self;
  fh_state_follow_fips(st);
  if (!fh_get_alg(env, st, argv[0], &alg) || !fh_get_encoding(env, argv[1], &enc))
    return NULL;
  outlen = alg->size;
  if (alg->xof && !fh_get_size(env, argv[3], &outlen)) return NULL;
  if ((path = fh_get_path(env, argv[2])) == NULL) return NULL;
  if (outlen > sizeof(stack_md) && (md = malloc(outlen)) == NULL) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_MEMORY_ALLOCATION_FAILED",
             "Failed to allocate %zu bytes for the digest", outlen);
    goto done;
  }
  if (digest_here(env, st, alg, path, md, outlen))
    fh_emit(env, FH_OPTIONAL_ARG(argc, argv, 4), md, outlen, enc, &result);
  fh_wipe(md, outlen);
done:
  free(path);
  if (md != stack_md) free(md);
  return result;
}
