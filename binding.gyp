{
  "variables": {
    # 1 for AddressSanitizer + UBSan (npm run test:sanitize)
    "sanitize%": 0
  },
  "targets": [
    {
      "target_name": "fast_hash",
      "sources": [
        "src/module.c",
        "src/env.c",
        "src/error.c",
        "src/args.c",
        "src/algs.c",
        "src/digest.c",
        "src/hash.c",
        "src/encode.c",
        "src/hmac.c",
        "src/hmac_key.c",
        "src/hasher.c",
        "src/hasher_store.c",
        "src/hasher_async.c",
        "src/pool.c",
        "src/many.c",
        "src/file.c",
        "src/async.c"
      ],
      "defines": [
        # The low-level digest structs are deprecated in OpenSSL 3 but still
        # exported by Node's OpenSSL: they are the fast path on purpose.
        "OPENSSL_SUPPRESS_DEPRECATED",
        "NAPI_VERSION=8",
        "NAPI_DISABLE_CPP_EXCEPTIONS"
      ],
      "cflags_c": [
        "-std=c99",
        "-Wall",
        "-Wextra",
        "-fvisibility=hidden"
      ],
      "xcode_settings": {
        "GCC_C_LANGUAGE_STANDARD": "c99",
        "WARNING_CFLAGS": ["-Wall", "-Wextra"]
      },
      "conditions": [
        ["sanitize==1", {
          "cflags_c": [
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=undefined",
            "-fno-omit-frame-pointer",
            "-g"
          ],
          "ldflags": ["-fsanitize=address,undefined"]
        }],
        # Every OpenSSL symbol is bound when the addon is loaded: in a
        # runtime without Node's OpenSSL (Bun, Deno, Electron) dlopen then
        # fails with an error JavaScript can catch, instead of the dynamic
        # loader ending the process at the first call. -z now is a GNU and
        # BSD linker flag; Apple's ld and MSVC's link have other ways.
        # -z nodelete: the executor's threads (src/pool.c) live as long as
        # the process, so the addon is never unloaded, also when only
        # workers loaded it (macOS and Windows pin it at run time).
        ["OS!='mac' and OS!='win'", {
          "ldflags": ["-Wl,-z,now", "-Wl,-z,nodelete"]
        }],
        ["OS=='mac'", {
          "xcode_settings": {
            "OTHER_LDFLAGS": ["-undefined", "dynamic_lookup"]
          }
        }]
      ]
    }
  ]
}
