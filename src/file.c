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

/* Hashes the open file fd into s up to its end. Reads stay on this thread
 * while they come short (small files, pipes: no thread to start and join);
 * the first full chunk means the file may go on, and unless it ends soon
 * the rest is read on a reader thread while this one hashes
 * (fh_file_hash_rest), or here if that thread cannot start. */
static int hash_fd(fh_stream *s, uv_file fd, uint8_t *chunk, fh_fs_error *err) {
  int64_t n, done = 0;
  int rest, tried = 0;

  for (;;) {
    n = fh_file_read(fd, chunk, FH_FILE_CHUNK);
    if (n <= 0) break;
    done += n;
    if (n == FH_FILE_CHUNK && !tried++ && worth_reading_ahead(fd, done) &&
        (rest = fh_file_hash_rest(s, fd, chunk, err)) >= 0)
      return rest;
    if (!fh_stream_update(s, chunk, (size_t)n)) return 0;
  }
  if (n == 0) return 1;
  err->code = (int)n;
  err->syscall = "read";
  return 0;
}

int fh_file_digest(const fh_alg *alg, EVP_MD_CTX *evp, const char *path,
                   uint8_t *out, size_t outlen, fh_fs_error *err) {
  uv_fs_t req;
  uv_file fd;
  fh_stream s;
  uint8_t *chunk;
  int ok;

  err->code = 0;
  err->syscall = NULL;
  fd = uv_fs_open(NULL, &req, path, UV_FS_O_RDONLY, 0, NULL);
  uv_fs_req_cleanup(&req);
  if (fd < 0) {
    err->code = fd;
    err->syscall = "open";
    return 0;
  }
  chunk = malloc(FH_FILE_CHUNK);
  if (chunk == NULL) {
    err->code = UV_ENOMEM;
    err->syscall = "read";
    ok = 0;
  } else {
    ok = fh_stream_init(&s, alg, evp) && hash_fd(&s, fd, chunk, err) &&
         fh_stream_final(&s, out, outlen);
    fh_stream_wipe(&s);
  }
  free(chunk);
  uv_fs_close(NULL, &req, fd, NULL);
  uv_fs_req_cleanup(&req);
  return ok;
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
  fh_fs_error err;
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
    free(path);
    fh_throw(env, FH_RANGE_ERROR, "ERR_MEMORY_ALLOCATION_FAILED",
             "Failed to allocate %zu bytes for the digest", outlen);
    return NULL;
  }
  if (fh_file_digest(alg, st->ctx, path, md, outlen, &err)) {
    fh_emit(env, FH_OPTIONAL_ARG(argc, argv, 4), md, outlen, enc, &result);
  } else if (err.code != 0) {
    ERR_clear_error();
    fh_throw_fs(env, &err, path);
  } else {
    fh_throw_openssl(env, "Digest");
  }
  free(path);
  fh_wipe(md, outlen);
  if (md != stack_md) free(md);
  return result;
}
