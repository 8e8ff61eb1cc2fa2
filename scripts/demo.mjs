// `npm run demo`: serves the repository root on 127.0.0.1 so examples/web/ can import the
// package's own js/index.mjs and fetch dist/ox.wasm, exactly as a browser user of the package would.
// Builds the wasm first when dist/ is missing (fresh clone).
//   npm run demo                 http://127.0.0.1:8080/examples/web/ (or a free port if 8080 is taken)
//   npm run demo -- --port 9000
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from './static-server.mjs';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const DEMO_PATH = 'examples/web/';

function run(command, args) {
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`demo: \`${command} ${args.join(' ')}\` failed (${result.error?.message ?? `exit ${result.status}`})`);
    process.exit(1);
  }
}

function requestedPort() {
  const flag = process.argv.indexOf('--port');
  const text = flag >= 0 ? process.argv[flag + 1] : process.env.PORT;
  if (text === undefined) return { port: 8080, explicit: false };
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`demo: --port must be an integer between 0 and 65535, got ${JSON.stringify(text)}`);
    process.exit(1);
  }
  return { port, explicit: true };
}

if (!existsSync(new URL('../dist/ox.wasm', import.meta.url)) || !existsSync(new URL('../dist/ox.mjs', import.meta.url))) {
  console.log('demo: dist/ox.wasm is missing; building it first');
  run('bash', ['scripts/setup.sh']);
  run('bash', ['scripts/build.sh', 'wasm']);
}

const { port, explicit } = requestedPort();
let server;
try {
  server = await startStaticServer({ root: repoRoot, port });
} catch (error) {
  if (error.code !== 'EADDRINUSE') throw error;
  if (explicit) {
    console.error(`demo: port ${port} is in use on 127.0.0.1; pick another with --port, or --port 0 for any free one`);
    process.exit(1);
  }
  server = await startStaticServer({ root: repoRoot, port: 0 }); // 8080 is busy: any free port
}

console.log(`onnx-extrema demo: ${server.url}${DEMO_PATH}`);
console.log('(serving the repository root on 127.0.0.1 only; Ctrl-C to stop)');

for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    server.close().then(() => process.exit(0));
  });
