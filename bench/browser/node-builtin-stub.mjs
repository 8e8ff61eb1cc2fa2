// Stands in for the Node built-ins tfjs-backend-wasm's flat ESM build imports (fs, os, path,
// perf_hooks): its Emscripten glue touches them only when it runs under Node.
export default {};
