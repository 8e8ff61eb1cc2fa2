// The same classic-script bundle calling init() with no options: the package cannot find the wasm
// without import.meta.url, and says so in an Error (it threw 'Invalid URL' as the bundle loaded).
import * as ox from 'onnx-extrema';

ox.init().then(
  () => (window.__result = { error: 'init() resolved without a wasm location' }),
  (error) => (window.__result = { failure: { isError: error instanceof Error, message: error.message } }),
);
