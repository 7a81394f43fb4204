/* The store of one environment's hasher states.
 *
 * A hasher is a slot in chunks of FH_CHUNK_SLOTS, named in JS by a token
 * (a number: the slot's index and the generation it was handed out in), not
 * by a Node-API object: one with a finalizer costs more to make than a
 * whole short digest, and its finalizer runs only after a collection and a
 * turn of the event loop; a token costs a bit test to check. Slots are
 * handed out lowest first, so live hashers stay in the first chunks, and a
 * chunk left empty is freed (one is kept spare, so a count of live hashers
 * moving across a chunk edge does not malloc and free a chunk per hasher).
 * Chunks are reported to V8 as external memory, as is what the states hold
 * (their EVP contexts).
 *
 * A stale token (its slot released, maybe handed out again since) names no
 * hasher: the generation differs. Generations come round again after 2^29
 * hand-outs; only a direct call into the binding could keep a token that
 * long, and a wrong token only ever reaches a live slot of this store.
 * Generation 0 is never handed out, so neither is token 0 (what NaN and
 * other junk read as). */
#include <stdlib.h>
#include <string.h>

#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
#include <intrin.h>
#endif

#include "fast_hash.h"

#define FH_CHUNK_SLOTS 64
#define FH_INDEX_BITS 24
#define FH_GEN_BITS 29
#define FH_MAX_CHUNKS ((1u << FH_INDEX_BITS) / FH_CHUNK_SLOTS)

typedef struct {
  uint64_t used;  /* bit i: slot[i] is live */
  fh_hasher slot[FH_CHUNK_SLOTS];
} fh_chunk;

struct fh_hashers {
  fh_chunk **chunks;  /* NULL entries: freed chunks */
  uint32_t nchunks;   /* entries in chunks */
  uint32_t hint;      /* every chunk below it exists and is full */
  uint32_t empty;     /* chunks that exist with no live slot */
  uint32_t serial;    /* hand-outs so far: gives the next generation */
  uint32_t live;      /* slots in use */
  int64_t reported;   /* bytes told to V8, in all */
};

/* The index of a chunk with a free slot, made (or the table grown) when
 * none exists; -1 with an exception pending. */
static int64_t chunk_with_room(napi_env env, struct fh_hashers *s) {
  uint32_t c = s->hint, n;
  fh_chunk **grown;

  while (c < s->nchunks && s->chunks[c] != NULL && ~s->chunks[c]->used == 0) c++;
  if (c == FH_MAX_CHUNKS) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
             "Too many hashers in use at once (%u)", 1u << FH_INDEX_BITS);
    return -1;
  }
  if (c == s->nchunks) {
    n = s->nchunks == 0 ? 4 : 2 * s->nchunks;
    if (n > FH_MAX_CHUNKS) n = FH_MAX_CHUNKS;
    grown = realloc(s->chunks, n * sizeof(*grown));
    if (grown == NULL) goto oom;
    memset(grown + s->nchunks, 0, (n - s->nchunks) * sizeof(*grown));
    s->chunks = grown;
    s->nchunks = n;
  }
  if (s->chunks[c] == NULL) {
    if ((s->chunks[c] = calloc(1, sizeof(fh_chunk))) == NULL) goto oom;
    s->empty++;
    fh_tell_memory(env, &s->reported, sizeof(fh_chunk));
  }
  s->hint = c;
  return c;
oom:
  fh_throw(env, FH_RANGE_ERROR, "ERR_MEMORY_ALLOCATION_FAILED",
           "Failed to allocate memory for a hasher");
  return -1;
}

/* The index of the lowest set bit of x, which is not 0: the first free slot
 * of a chunk. One instruction through the compiler's builtin or intrinsic;
 * MSVC has no __builtin_ctzll, and its _BitScanForward64 exists only on
 * 64-bit targets, so other compilers and targets count in a loop. */
static int lowest_set_bit(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_ctzll(x);
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
  unsigned long i;
  _BitScanForward64(&i, x);
  return (int)i;
#else
  int i = 0;
  while (!(x & 1)) {
    x >>= 1;
    i++;
  }
  return i;
#endif
}

fh_hasher *fh_hasher_alloc(napi_env env, fh_state *st, int hmac,
                           int64_t *token) {
  struct fh_hashers *s = st->hashers;
  int64_t c;
  fh_chunk *chunk;
  fh_hasher *h;
  int i;

  if (s == NULL && (s = st->hashers = calloc(1, sizeof(*s))) == NULL) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_MEMORY_ALLOCATION_FAILED",
             "Failed to allocate memory for a hasher");
    return NULL;
  }
  if ((c = chunk_with_room(env, s)) < 0) return NULL;
  chunk = s->chunks[c];
  i = lowest_set_bit(~chunk->used);
  h = &chunk->slot[i];
  h->hmac = (uint8_t)hmac;
  h->busy = h->doomed = 0;
  h->task = NULL;
  h->heap = 0;
  h->md[0].open = h->md[1].open = 0;
  if (chunk->used == 0) s->empty--;
  chunk->used |= 1ull << i;
  s->live++;
  h->gen = s->serial++ % ((1u << FH_GEN_BITS) - 1) + 1;
  *token = (int64_t)h->gen << FH_INDEX_BITS | (c * FH_CHUNK_SLOTS + i);
  return h;
}

fh_hasher *fh_hasher_find(fh_state *st, int64_t token) {
  struct fh_hashers *s = st->hashers;
  uint64_t index = (uint64_t)token & ((1u << FH_INDEX_BITS) - 1);
  uint64_t c = index / FH_CHUNK_SLOTS, i = index % FH_CHUNK_SLOTS;
  fh_chunk *chunk;

  if (s == NULL || token < 0 || token >> (FH_INDEX_BITS + FH_GEN_BITS) != 0 ||
      c >= s->nchunks || (chunk = s->chunks[c]) == NULL ||
      !(chunk->used >> i & 1) ||
      chunk->slot[i].gen != (uint64_t)token >> FH_INDEX_BITS)
    return NULL;
  return &chunk->slot[i];
}

void fh_hasher_account(napi_env env, fh_state *st, fh_hasher *h) {
  h->heap = fh_md_heap(&h->md[0]) + fh_md_heap(&h->md[1]);
  if (h->heap != 0) fh_tell_memory(env, &st->hashers->reported, (int64_t)h->heap);
}

/* Wipes what h holds and frees its contexts. */
static void wipe_hasher(napi_env env, struct fh_hashers *s, fh_hasher *h) {
  if (h->heap != 0) fh_tell_memory(env, &s->reported, -(int64_t)h->heap);
  h->heap = 0;
  fh_md_close(&h->md[0]);
  fh_md_close(&h->md[1]);
}

void fh_hasher_release(napi_env env, fh_state *st, int64_t token) {
  struct fh_hashers *s = st->hashers;
  fh_hasher *h = fh_hasher_find(st, token);
  uint32_t index = (uint32_t)(token & ((1u << FH_INDEX_BITS) - 1));
  uint32_t c = index / FH_CHUNK_SLOTS;
  fh_chunk *chunk;

  if (h == NULL) return;
  wipe_hasher(env, s, h);
  s->live--;
  chunk = s->chunks[c];
  chunk->used &= ~(1ull << (index % FH_CHUNK_SLOTS));
  if (c < s->hint) s->hint = c;
  if (chunk->used != 0) return;
  /* Empty: kept if it is the only empty one, else freed. */
  if (s->empty++ == 0) return;
  s->empty--;
  free(chunk);
  s->chunks[c] = NULL;
  fh_tell_memory(env, &s->reported, -(int64_t)sizeof(fh_chunk));
}

void fh_hashers_free(fh_state *st) {
  struct fh_hashers *s = st->hashers;
  uint32_t c;
  int i;

  if (s == NULL) return;
  for (c = 0; c < s->nchunks; c++) {
    if (s->chunks[c] == NULL) continue;
    for (i = 0; i < FH_CHUNK_SLOTS; i++)
      if (s->chunks[c]->used >> i & 1) wipe_hasher(NULL, s, &s->chunks[c]->slot[i]);
    free(s->chunks[c]);
  }
  free(s->chunks);
  free(s);
  st->hashers = NULL;
}

/* Digest states left open in the store's slots, live or free: a free slot
 * with one open was released without being wiped and closed. */
static uint32_t open_states(const struct fh_hashers *s) {
  uint32_t c, n = 0;
  int i;

  for (c = 0; s != NULL && c < s->nchunks; c++) {
    if (s->chunks[c] == NULL) continue;
    for (i = 0; i < FH_CHUNK_SLOTS; i++)
      n += s->chunks[c]->slot[i].md[0].open + s->chunks[c]->slot[i].md[1].open;
  }
  return n;
}

/* hasherStoreStats() -> { live, chunks, reported, open }: hashers in use,
 * chunks allocated, bytes reported to V8, digest states open (for tests). */
napi_value fh_hasher_store_stats(napi_env env, napi_callback_info info) {
  void *self;
  const struct fh_hashers *s;
  uint32_t c, chunks = 0;
  napi_value result, value;

  CALL(env, napi_get_cb_info(env, info, NULL, NULL, NULL, &self));
  s = ((fh_state *)self)->hashers;
  for (c = 0; s != NULL && c < s->nchunks; c++) chunks += s->chunks[c] != NULL;
  CALL(env, napi_create_object(env, &result));
  CALL(env, napi_create_uint32(env, s == NULL ? 0 : s->live, &value));
  CALL(env, napi_set_named_property(env, result, "live", value));
  CALL(env, napi_create_uint32(env, chunks, &value));
  CALL(env, napi_set_named_property(env, result, "chunks", value));
  CALL(env, napi_create_int64(env, s == NULL ? 0 : s->reported, &value));
  CALL(env, napi_set_named_property(env, result, "reported", value));
  CALL(env, napi_create_uint32(env, open_states(s), &value));
  CALL(env, napi_set_named_property(env, result, "open", value));
  return result;
}
