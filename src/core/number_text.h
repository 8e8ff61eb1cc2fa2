// A double as JavaScript's String(x) prints it (the shortest digits that read back as the same
// double; plain for 1e-7 <= |x| < 1e21, else exponential; NaN, Infinity, -0 as 0), for error
// messages. Written out instead of printf("%.17g"), whose machinery was 9 KB of the wasm module.
#pragma once
#include <cstdint>
#include <string>

namespace ox {

std::string number_text(double v);

// An integer in decimal, for error messages. Written out instead of std::to_string, whose libc++
// digit-pair table and overloads cost the module about 0.1 KB (gzipped).
std::string integer_text(int64_t v);

}  // namespace ox
