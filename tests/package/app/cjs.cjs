// Runs in the app that installed the packed tarball: `require` by package name.
const ox = require('onnx-extrema');

const exportsAtRequire = Object.keys(ox).sort();
ox.init().then(async () => {
  const { runChecks } = await import('./checks.mjs');
  let internal = 'resolved';
  try {
    require.resolve('onnx-extrema/js/engine.js');
  } catch (error) {
    internal = error.code;
  }
  console.log(JSON.stringify({
    exports: exportsAtRequire,
    version: require('onnx-extrema/package.json').version,
    wasm: require.resolve('onnx-extrema/ox.wasm'),
    internal,
    ...runChecks(ox),
  }));
});
