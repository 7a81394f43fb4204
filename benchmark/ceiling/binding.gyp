# The benchmarks' own addon, fast_hash_bench.node: the production target of
# ../../binding.gyp, included as it is (gyp rebases its sources to this
# folder), plus ./bench.c and FH_BENCH, which add the ceilings
# (benchCeiling, benchCall, benchHmac, benchHmacKey) to its exports. So its
# sources, defines and flags are the shipped addon's, written once, and the
# shipped binary has no benchmark code. Built and loaded by index.js.
{
  "includes": ["../../binding.gyp"],
  # Merged under every target of the included file (it has one: fast_hash).
  "target_defaults": {
    "product_name": "fast_hash_bench",
    "sources": ["bench.c"],
    "include_dirs": ["../../src"],
    "defines": ["FH_BENCH"]
  }
}
