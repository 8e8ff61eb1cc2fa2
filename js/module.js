// The one loaded wasm module, shared by every entry point (ESM and CommonJS both import this file).
let instance = null;

export function setModule(M) {
  instance = M;
}

export function currentModule() {
  return instance;
}
