// A double as JavaScript's String(x) prints it (the shortest digits that read back as the same
// double; plain for 1e-7 <= |x| < 1e21, else exponential; NaN, Infinity, -0 as 0), for error
// messages. Written out instead of printf("%.17g"), whose machinery was 9 KB of the wasm module.
#pragma once
#include <string>

namespace ox {

std::string number_text(double v);

}  // namespace ox
