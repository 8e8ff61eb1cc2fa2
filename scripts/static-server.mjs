// A small static file server for the browser demo and the browser tests: node:http only, bound to
// 127.0.0.1 by default, with the MIME types browsers insist on (.mjs as JavaScript, .wasm as
// application/wasm so WebAssembly.instantiateStreaming works) and no way out of `root`.
//
//   import { startStaticServer } from './static-server.mjs';
//   const server = await startStaticServer({ root: '/path/to/repo', port: 0 }); // 0: a free port
//   console.log(server.url); // http://127.0.0.1:<port>/
//   await server.close();
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';

export const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

/** The file under `root` that a URL path names, or null when it would leave `root`. */
export function resolveUnderRoot(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null; // malformed %-escape
  }
  if (decoded.includes('\0')) return null;
  const file = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
  return file === root || file.startsWith(root + path.sep) ? file : null;
}

function send(res, status, text, headers = {}) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(text);
}

async function handle(root, extraHeaders, req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method Not Allowed\n', { allow: 'GET, HEAD' });
  const { pathname, search } = new URL(req.url, 'http://localhost');
  let file = resolveUnderRoot(root, pathname);
  if (!file) return send(res, 403, 'Forbidden\n');
  let info = await stat(file).catch(() => null);
  if (info?.isDirectory()) {
    // /examples/web -> /examples/web/ so the page's relative URLs resolve inside the folder.
    if (!pathname.endsWith('/')) return send(res, 301, 'Moved\n', { location: `${pathname}/${search}` });
    file = path.join(file, 'index.html');
    info = await stat(file).catch(() => null);
  }
  if (!info?.isFile()) return send(res, 404, `Not Found: ${pathname}\n`);
  res.writeHead(200, {
    'content-type': MIME_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': info.size,
    'cache-control': 'no-store', // a rebuilt dist/ox.wasm is picked up on reload
    ...extraHeaders,
  });
  if (req.method === 'HEAD') return res.end();
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}

/**
 * Serves the files under `root`. Resolves once listening.
 * @param {{ root: string, port?: number, host?: string, headers?: Record<string, string> }} options
 *   port 0 (the default) picks a free port; `headers` are added to every file response
 *   (e.g. COOP/COEP for cross-origin isolation).
 * @returns {Promise<{ url: string, port: number, host: string, close: () => Promise<void> }>}
 */
export async function startStaticServer({ root, port = 0, host = '127.0.0.1', headers = {} }) {
  if (!root) throw new Error('startStaticServer: root is required');
  const absoluteRoot = path.resolve(root);
  const server = createServer((req, res) => {
    handle(absoluteRoot, headers, req, res).catch((error) => {
      if (!res.headersSent) send(res, 500, `Internal Server Error: ${error.message}\n`);
      else res.destroy();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = server.address().port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${actualPort}/`,
    port: actualPort,
    host,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // keep-alive sockets would otherwise hold close() open
      }),
  };
}
