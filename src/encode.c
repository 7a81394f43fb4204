/* Output encodings made straight into a JS string from a stack buffer. At
 * digest sizes the encoder is a visible part of the call: hex uses a table of
 * the 256 two-character pairs rather than a nibble at a time. */
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__) || (defined(_MSC_VER) && defined(_M_X64))
#include <emmintrin.h>
#endif

#include "fast_hash.h"

const char *const fh_encoding_names[FH_ENC_COUNT] = {
  "hex",
  "base64",
  "base64url",
  "latin1",
};

static const char hex_pairs[513] =
  "000102030405060708090a0b0c0d0e0f"
  "101112131415161718191a1b1c1d1e1f"
  "202122232425262728292a2b2c2d2e2f"
  "303132333435363738393a3b3c3d3e3f"
  "404142434445464748494a4b4c4d4e4f"
  "505152535455565758595a5b5c5d5e5f"
  "606162636465666768696a6b6c6d6e6f"
  "707172737475767778797a7b7c7d7e7f"
  "808182838485868788898a8b8c8d8e8f"
  "909192939495969798999a9b9c9d9e9f"
  "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"
  "b0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
  "c0c1c2c3c4c5c6c7c8c9cacbcccdcecf"
  "d0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
  "e0e1e2e3e4e5e6e7e8e9eaebecedeeef"
  "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

static const char base64_std[65] =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char base64_url[65] =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* V8's limit on string length (v8::String::kMaxLength on 64-bit hosts). */
#define FH_MAX_STRING_LENGTH ((size_t)0x1fffffe8)

/* Enough for the hex of any fixed-size digest; longer XOF outputs use the heap. */
#define FH_TEXT_STACK (2 * EVP_MAX_MD_SIZE)

size_t fh_encoded_length(fh_encoding enc, size_t n) {
  switch (enc) {
    case FH_ENC_HEX: return 2 * n;
    case FH_ENC_BASE64: return (n + 2) / 3 * 4;
    case FH_ENC_BASE64URL: return n / 3 * 4 + (n % 3 ? n % 3 + 1 : 0);
    default: return n;
  }
}

/* encodedLength(encoding, n) -> the length of the text of n bytes in that
 * encoding (n for 'buffer'): hashMany's shim cuts its one string by it. */
napi_value fh_encoded_length_js(napi_env env, napi_callback_info info) {
  size_t argc = 2, n;
  napi_value argv[2], result;
  uint32_t enc;

  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (!fh_get_u32(env, argv[0], &enc) || !fh_get_size(env, argv[1], &n))
    return NULL;
  if (enc >= FH_ENC_COUNT && enc != FH_ENC_BUFFER) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
             "Unknown encoding id %u", (unsigned)enc);
    return NULL;
  }
  CALL(env, napi_create_double(
              env, (double)(enc == FH_ENC_BUFFER ? n : fh_encoded_length((fh_encoding)enc, n)),
              &result));
  return result;
}

/* restrict: without it every store may alias the next digest byte, and the
 * loop runs one byte at a time through memory. */
static void encode_hex_pairs(char *restrict dst, const uint8_t *restrict src,
                             size_t n) {
  size_t i;

  for (i = 0; i < n; i++) memcpy(dst + 2 * i, hex_pairs + 2 * src[i], 2);
}

#if defined(__SSE2__) || (defined(_MSC_VER) && defined(_M_X64))
/* SSE2 is part of every x86-64 CPU (gcc and clang say so with __SSE2__,
 * MSVC with _M_X64): 16 bytes become 32 digits in a dozen instructions
 * (nibbles interleaved, '0' added, 'a'-'0'-10 more where > 9), faster than
 * the table at digest sizes (see benchmark/README.md, Figures behind
 * design choices). */
static void encode_hex(char *restrict dst, const uint8_t *restrict src,
                       size_t n) {
  const __m128i low_nibble = _mm_set1_epi8(0x0f), nine = _mm_set1_epi8(9);
  const __m128i zero = _mm_set1_epi8('0'), gap = _mm_set1_epi8('a' - '0' - 10);
  size_t i = 0;

  for (; i + 16 <= n; i += 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(src + i));
    __m128i hi = _mm_and_si128(_mm_srli_epi16(v, 4), low_nibble);
    __m128i lo = _mm_and_si128(v, low_nibble);
    __m128i a = _mm_unpacklo_epi8(hi, lo), b = _mm_unpackhi_epi8(hi, lo);

    a = _mm_add_epi8(_mm_add_epi8(a, zero),
                     _mm_and_si128(_mm_cmpgt_epi8(a, nine), gap));
    b = _mm_add_epi8(_mm_add_epi8(b, zero),
                     _mm_and_si128(_mm_cmpgt_epi8(b, nine), gap));
    _mm_storeu_si128((__m128i *)(dst + 2 * i), a);
    _mm_storeu_si128((__m128i *)(dst + 2 * i + 16), b);
  }
  encode_hex_pairs(dst + 2 * i, src + i, n - i);
}
#else
#define encode_hex encode_hex_pairs
#endif

/* Node's base64 pads with '='; its base64url does not pad. */
static void encode_base64(char *dst, const uint8_t *src, size_t n,
                          const char *alphabet, int pad) {
  size_t i = 0;
  uint32_t v;

  for (; i + 3 <= n; i += 3) {
    v = (uint32_t)src[i] << 16 | (uint32_t)src[i + 1] << 8 | src[i + 2];
    *dst++ = alphabet[v >> 18];
    *dst++ = alphabet[(v >> 12) & 63];
    *dst++ = alphabet[(v >> 6) & 63];
    *dst++ = alphabet[v & 63];
  }
  if (i == n) return;
  v = (uint32_t)src[i] << 16 | (i + 1 < n ? (uint32_t)src[i + 1] << 8 : 0);
  *dst++ = alphabet[v >> 18];
  *dst++ = alphabet[(v >> 12) & 63];
  if (i + 1 < n)
    *dst++ = alphabet[(v >> 6) & 63];
  else if (pad)
    *dst++ = '=';
  if (pad) *dst = '=';
}

void fh_encode(char *dst, fh_encoding enc, const uint8_t *src, size_t n) {
  switch (enc) {
    case FH_ENC_HEX:
      encode_hex(dst, src, n);
      break;
    case FH_ENC_BASE64:
    case FH_ENC_BASE64URL:
      encode_base64(dst, src, n, enc == FH_ENC_BASE64 ? base64_std : base64_url,
                    enc == FH_ENC_BASE64);
      break;
    default:
      memcpy(dst, src, n);
      break;
  }
}

int fh_make_string(napi_env env, fh_encoding enc, const uint8_t *src,
                   size_t n, napi_value *result) {
  char stack[FH_TEXT_STACK];
  char *text = stack;
  size_t len = fh_encoded_length(enc, n);
  napi_status status;

  if (enc >= FH_ENC_COUNT) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
             "Unknown output encoding id %d", (int)enc);
    return 0;
  }
  if (len > FH_MAX_STRING_LENGTH) {
    fh_throw(env, FH_ERROR, "ERR_STRING_TOO_LONG",
             "Cannot create a string longer than 0x%zx characters",
             FH_MAX_STRING_LENGTH);
    return 0;
  }
  if (enc == FH_ENC_LATIN1) {
    CALL(env, napi_create_string_latin1(env, (const char *)src, n, result));
    return 1;
  }
  if (len > sizeof(stack)) {
    text = malloc(len);
    if (text == NULL) {
      fh_throw(env, FH_RANGE_ERROR, "ERR_MEMORY_ALLOCATION_FAILED",
               "Failed to allocate %zu bytes for the encoded digest", len);
      return 0;
    }
  }
  fh_encode(text, enc, src, n);
  status = napi_create_string_latin1(env, text, len, result);
  fh_wipe(text, len);
  if (text != stack) free(text);
  if (status != napi_ok) {
    fh_throw_napi(env, status);
    return 0;
  }
  return 1;
}

int fh_emit(napi_env env, napi_value into, const uint8_t *bytes, size_t n,
            fh_encoding enc, napi_value *result) {
  uint8_t *out;

  *result = NULL;
  if (into == NULL) return fh_make_string(env, enc, bytes, n, result);
  if (!fh_get_output_of(env, into, n, &out)) return 0;
  /* An empty Buffer's data may be NULL, and memcpy(NULL, .., 0) is UB. */
  if (n != 0) memcpy(out, bytes, n);
  return 1;
}

int fh_out_open(napi_env env, fh_out *o, napi_value into, size_t n) {
  o->n = n;
  o->into = into;
  o->bytes = o->stack;
  if (into != NULL) return fh_get_output_of(env, into, n, &o->bytes);
  if (n <= sizeof(o->stack)) return 1;
  o->bytes = malloc(n);
  if (o->bytes != NULL) return 1;
  fh_throw(env, FH_RANGE_ERROR, "ERR_MEMORY_ALLOCATION_FAILED",
           "Failed to allocate %zu bytes for the digest", n);
  return 0;
}

napi_value fh_out_close(napi_env env, fh_out *o, int ok, fh_encoding enc) {
  napi_value result = NULL;

  if (o->into != NULL) return NULL;
  if (ok) fh_make_string(env, enc, o->bytes, o->n, &result);
  fh_wipe(o->bytes, o->n);
  if (o->bytes != o->stack) free(o->bytes);
  return result;
}

/* ---- comparing with a MAC given as text -------------------------------------
 * Strict: a string that is not exactly the MAC in the encoding (wrong length,
 * a character outside the alphabet, misplaced padding, stray bits) is simply
 * not equal to it. The string is the caller's, not secret: its length and
 * alphabet may steer branches; the MAC may not, so every comparison with it
 * runs over all its bytes. */

/* Longest text of an EVP_MAX_MD_SIZE MAC: hex. */
#define FH_MAX_MAC_TEXT (2 * EVP_MAX_MD_SIZE)

static int base64_value(uint16_t c, int url) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == (url ? '-' : '+')) return 62;
  if (c == (url ? '_' : '/')) return 63;
  return -1;
}

/* The lower-case hex digit of a secret nibble, by arithmetic: no branch and
 * no table index depends on it. */
static unsigned hex_digit(unsigned v) {
  return v + '0' + ((9u - v) >> 8 & ('a' - '0' - 10));
}

/* c with 'A'-'F' lowered; every other unit unchanged. */
static unsigned hex_fold(uint16_t c) {
  return c | (unsigned)((uint16_t)(c - 'A') < 6) << 5;
}

/* Hex is compared as text: each given character against the MAC's digit,
 * either case, which is one pass that the compiler vectorizes, where decoding
 * first costs a branch per character and a second pass. */
static int hex_equals(const uint16_t *s, size_t n, const uint8_t *mac,
                      size_t want) {
  unsigned diff = 0;
  size_t i;

  if (n != 2 * want) return 0;
  for (i = 0; i < want; i++) {
    diff |= hex_fold(s[2 * i]) ^ hex_digit(mac[i] >> 4);
    diff |= hex_fold(s[2 * i + 1]) ^ hex_digit(mac[i] & 15u);
  }
  return diff == 0;
}

/* Canonical base64 of `want` bytes, with its padding or without it. */
static int decode_base64(const uint16_t *s, size_t n, uint8_t *out,
                         size_t want, int url) {
  size_t bare = want / 3 * 4 + (want % 3 ? want % 3 + 1 : 0), i, o = 0;
  uint32_t acc = 0;
  int bits = 0, v;

  if (n != bare && n != (want + 2) / 3 * 4) return 0;
  for (i = bare; i < n; i++)
    if (s[i] != '=') return 0;
  for (i = 0; i < bare; i++) {
    if ((v = base64_value(s[i], url)) < 0) return 0;
    acc = acc << 6 | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (uint8_t)(acc >> bits);
    }
  }
  /* The bits past the last byte must be zero in canonical text. */
  return (acc & ((1u << bits) - 1)) == 0;
}

static int decode_latin1(const uint16_t *s, size_t n, uint8_t *out,
                         size_t want) {
  size_t i;

  if (n != want) return 0;
  for (i = 0; i < n; i++) {
    if (s[i] > 0xff) return 0;
    out[i] = (uint8_t)s[i];
  }
  return 1;
}

/* Other encodings: decoded (the text is not secret), then the bytes compared
 * in constant time. */
static int decoded_equals(const uint16_t *s, size_t n, fh_encoding enc,
                          const uint8_t *mac, size_t want) {
  uint8_t bytes[EVP_MAX_MD_SIZE];
  int valid = enc == FH_ENC_LATIN1
                ? decode_latin1(s, n, bytes, want)
                : decode_base64(s, n, bytes, want, enc == FH_ENC_BASE64URL);
  int same = valid && CRYPTO_memcmp(mac, bytes, want) == 0;

  fh_wipe(bytes, want);
  return same;
}

int fh_mac_text_equals(napi_env env, napi_value value, fh_encoding enc,
                       const uint8_t *mac, size_t want, int *same) {
  /* Room for one unit past the longest MAC text: one call reads the text,
   * and a longer string shows as one unit too long (it is cut there). */
  uint16_t text[FH_MAX_MAC_TEXT + 2];
  size_t n;
  napi_status status;

  *same = 0;
  if (enc >= FH_ENC_COUNT) {
    fh_throw(env, FH_RANGE_ERROR, "ERR_OUT_OF_RANGE",
             "Unknown MAC encoding id %d", (int)enc);
    return 0;
  }
  /* The read is the type check: no napi_typeof first. */
  status = napi_get_value_string_utf16(env, value, text, sizeof(text) / 2, &n);
  if (status == napi_string_expected) return -1;
  CALL(env, status);
  if (n > FH_MAX_MAC_TEXT) return 1;
  *same = enc == FH_ENC_HEX ? hex_equals(text, n, mac, want)
                            : decoded_equals(text, n, enc, mac, want);
  return 1;
}
