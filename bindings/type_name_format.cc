// embind built without RTTI (CMakeLists.txt: -fno-rtti drops libc++abi's dynamic_cast machinery,
// which the type_info vtables of the types embind registers kept: 1.4 KB of the gzipped module)
// names a type by its address, `siprintf(buffer, "%p", type)` in its library, which links the
// whole of musl's printf. The link wraps siprintf (--wrap=siprintf) to this formatter of that one
// conversion: nothing else in the module formats with printf. Any other format fails (-1, "").
#include <cstdarg>
#include <cstdint>

extern "C" int __wrap_siprintf(char* out, const char* format, ...) {
  out[0] = '\0';
  if (format[0] != '%' || format[1] != 'p' || format[2] != '\0') return -1;
  va_list args;
  va_start(args, format);
  const uintptr_t address = reinterpret_cast<uintptr_t>(va_arg(args, void*));
  va_end(args);
  char digits[2 * sizeof(uintptr_t)];
  int n = 0;
  for (uintptr_t a = address; n == 0 || a != 0; a >>= 4) digits[n++] = "0123456789abcdef"[a & 15];
  int length = 0;
  out[length++] = '0', out[length++] = 'x';
  while (n > 0) out[length++] = digits[--n];
  out[length] = '\0';
  return length;
}
