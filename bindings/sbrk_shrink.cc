// Emscripten 3.1.6's sbrk() refuses every negative increment (it tests `increment > 0` on the
// increment already cast to unsigned: its overflow check), and emmalloc's malloc_trim() has
// rewritten its regions before it calls sbrk() to shrink: the trimmed block was lost for good
// instead of handed back. js/wasm-tensor.js trims after a dispose(): emmalloc grows the memory for
// a whole new block rather than extend a free one at the top, so without it 1 GiB freed and
// 1.5 GiB asked for grew the memory by 1.5 GiB, and after a 2 GiB tensor's dispose() nothing of
// 2.5 GiB could be had. The link wraps sbrk (--wrap=sbrk, CMakeLists.txt) to this, which moves the
// break down itself while ox_malloc_trim runs: only there, since in wasm32 a shrink and a growth
// past 4 GiB are the same increment (a growth that wraps must stay the failure it is).
#include <emscripten/heap.h>

#include <cstddef>
#include <cstdint>

extern "C" void* __real_sbrk(intptr_t increment);
extern "C" int malloc_trim(size_t pad);

namespace {
bool trimming = false;
}

extern "C" void* __wrap_sbrk(intptr_t increment) {
  if (!trimming) return __real_sbrk(increment);
  uintptr_t* brk = emscripten_get_sbrk_ptr();
  const uintptr_t old_brk = *brk;
  *brk = old_brk + static_cast<uintptr_t>(increment);  // emmalloc shrinks by whole words
  return reinterpret_cast<void*>(old_brk);
}

// emmalloc's malloc_trim(0): the free block at the top given back to the break. 1 if it was.
extern "C" int ox_malloc_trim() {
  trimming = true;
  const int trimmed = malloc_trim(0);
  trimming = false;
  return trimmed;
}
