// A small static file server for the browser demo and the browser tests: node:http only, bound to
// 127.0.0.1 by default, with the MIME types browsers insist on (.mjs as JavaScript, .wasm as
// application/wasm so WebAssembly.instantiateStreaming works) and no way out of `root`.
//
//   import { startStaticServer } from './static-server.mjs';
//   const server = await startStaticServer({ root: '/path/to/repo', port: 0 }); // 0: a free port
//   console.log(server.url); // http://127.0.0.1:<port>/
//   await server.close();
//
// Tests can also mount several folders under URL prefixes, give fixed answers for some paths
// (a 404, an HTML page where a wasm is expected) and read the paths that were requested.
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

// A page's result POSTed back (a browser driven without a remote protocol: scripts/firefox.mjs, webkit.mjs):
// the body, up to 16 MiB, to onReport(key, text), key being the query string after '?'. A string
// onReport returns (or resolves to) is the answer, as JSON: the page's next instruction (the
// bench's runtime pages in Firefox and WebKit: bench/browser/post-host.mjs).
const MAX_REPORT_BYTES = 16 << 20;
async function takeReport(onReport, req, res, search) {
  const chunks = [];
  let bytes = 0;
  for await (const chunk of req) {
    bytes += chunk.length;
    if (bytes > MAX_REPORT_BYTES) return send(res, 413, 'Report too large\n');
    chunks.push(chunk);
  }
  // (decoded once whole: a UTF-8 sequence may straddle two chunks)
  const reply = await onReport(search.slice(1), Buffer.concat(chunks).toString('utf8'));
  if (typeof reply === 'string') send(res, 200, reply, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  else send(res, 204, '');
}

async function handle({ mounts, fixed, requests, headers: extraHeaders, onReport }, req, res) {
  const { pathname, search } = new URL(req.url, 'http://localhost');
  if (req.method === 'POST' && onReport && pathname === '/__report') return takeReport(onReport, req, res, search);
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method Not Allowed\n', { allow: 'GET, HEAD' });
  requests.push(pathname);
  const answer = fixed[pathname];
  if (answer) return send(res, answer.status, answer.body, { 'content-type': answer.type });
  const prefix = mounts.find(([p]) => pathname.startsWith(p));
  if (!prefix) return send(res, 404, `Not Found: ${pathname}\n`);
  let file = resolveUnderRoot(prefix[1], pathname.slice(prefix[0].length - 1));
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
 * Serves the files under `root` (or under several `mounts`). Resolves once listening.
 * @param {{ root?: string, mounts?: Record<string, string>, fixed?: Record<string, { status: number, type: string, body: string }>,
 *   port?: number, host?: string, headers?: Record<string, string>, onReport?: (key: string, text: string) => void }} options
 *   mounts: URL prefix ending in '/' -> folder ({ root } is { '/': root }); fixed: exact path ->
 *   answer; port 0 (the default) picks a free port; `headers` are added to every file response
 *   (e.g. COOP/COEP for cross-origin isolation); onReport: takes POST /__report?KEY (a page's
 *   result; a string it returns or resolves to is the answer).
 * @returns {Promise<{ url: string, origin: string, port: number, host: string, requests: string[], close: () => Promise<void> }>}
 *   requests: the path of every request, in order.
 */
export async function startStaticServer({ root, mounts, fixed = {}, port = 0, host = '127.0.0.1', headers = {}, onReport }) {
  const folders = mounts ?? (root ? { '/': root } : null);
  if (!folders) throw new Error('startStaticServer: root or mounts is required');
  const state = {
    // Longest prefix first, so '/dist/' wins over '/'.
    mounts: Object.entries(folders)
      .map(([prefix, dir]) => [prefix.endsWith('/') ? prefix : `${prefix}/`, path.resolve(dir)])
      .sort((a, b) => b[0].length - a[0].length),
    fixed,
    requests: [],
    headers,
    onReport,
  };
  const server = createServer((req, res) => {
    handle(state, req, res).catch((error) => {
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
  const origin = `http://${urlHost}:${actualPort}`;
  return {
    url: `${origin}/`,
    origin,
    requests: state.requests,
    port: actualPort,
    host,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // keep-alive sockets would otherwise hold close() open
      }),
  };
}
