// OX_SMALL_CODE: code that runs once per call or per slice, never per element (the narrow path's
// merge, a plan-cache miss), compiled for size where the compiler can (clang, the wasm build).
// narrow_merge's 40-odd instantiations took 1.4 KB of the gzipped module less this way, a
// plan-cache miss 0.7 KB, at the same speed.
#pragma once

#if defined(__clang__)
#define OX_SMALL_CODE __attribute__((minsize))
#else
#define OX_SMALL_CODE
#endif
