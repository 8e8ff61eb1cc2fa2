// init({ wasmModule }) under the DOM lib (tsconfig.dom.json): a compiled WebAssembly.Module is
// taken; bytes, a buffer or a string are type errors, although lib.dom's Module is an empty
// interface that any object would fit.
import { init } from 'onnx-extrema';

export async function load(bytes: ArrayBuffer): Promise<void> {
  const wasmModule = await WebAssembly.compile(bytes);
  await init({ wasmModule });
}

export function misuses(bytes: ArrayBuffer): void {
  // @ts-expect-error bytes go to wasmBinary, not wasmModule
  void init({ wasmModule: new Uint8Array(bytes) });
  // @ts-expect-error a buffer is no compiled module either
  void init({ wasmModule: bytes });
  // @ts-expect-error a URL string goes to wasmUrl
  void init({ wasmModule: 'ox.wasm' });
}
