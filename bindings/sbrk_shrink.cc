// Emscripten 3.1.6's sbrk() refuses every negative increment (it tests `increment > 0` on the
// increment already cast to unsigned), and emmalloc's malloc_trim() has rewritten its regions
// before it calls sbrk() to shrink: the trimmed block was lost for good instead of handed back.
// The link wraps sbrk (--wrap=sbrk, CMakeLists.txt) to this, which moves the break down itself.
// js/wasm-tensor.js trims after a dispose(): emmalloc grows the memory for a whole new block
// rather than extend a free one at the top, so without it 1 GiB freed and 1.5 GiB asked for grew
// the memory by 1.5 GiB, and after a 2 GiB tensor's dispose() nothing of 2.5 GiB could be had.
#include <emscripten/heap.h>

#include <cstdint>

extern "C" void* __real_sbrk(intptr_t increment);

// wasm32's intptr_t is 32 bits, so an increment of 2 GiB or more reads negative too (3.1.6's sbrk
// takes it, unsigned): a shrink is told apart as the increment that wraps the break, as it does.
extern "C" void* __wrap_sbrk(intptr_t increment) {
  uintptr_t* brk = emscripten_get_sbrk_ptr();
  const uintptr_t old_brk = *brk;
  const uintptr_t new_brk = old_brk + ((static_cast<uintptr_t>(increment) + 3) & ~uintptr_t{3});  // as sbrk rounds
  if (increment == 0 || new_brk > old_brk) return __real_sbrk(increment);
  *brk = new_brk;
  return reinterpret_cast<void*>(old_brk);
}
