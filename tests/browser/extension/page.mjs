// An extension page, under the manifest's extension_pages policy: sets window.__result.
import * as ox from './onnx-extrema/js/index.mjs';
import { runChecks } from './checks.mjs';

try {
  await ox.init();
  window.__result = runChecks(ox);
} catch (error) {
  window.__result = { error: String(error?.stack ?? error) };
}
