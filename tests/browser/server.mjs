// A small static server on 127.0.0.1 for the browser tests: serves directories under URL prefixes
// with the right MIME types (text/javascript for .mjs, application/wasm for .wasm), plus fixed
// answers (a 404, an HTML page where a wasm is expected), and logs each request path.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

/**
 * @param {{ dirs: Record<string, string>, fixed?: Record<string, { status: number, type: string, body: string }> }} routes
 *   dirs: URL prefix ('/pages/') -> directory; fixed: exact path -> answer.
 * @returns {Promise<{ origin: string, requests: string[], close: () => Promise<void> }>}
 */
export async function startServer({ dirs, fixed = {} }) {
  const requests = [];
  const server = createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    requests.push(pathname);
    const answer = fixed[pathname];
    if (answer) {
      res.writeHead(answer.status, { 'content-type': answer.type });
      res.end(answer.body);
      return;
    }
    const prefix = Object.keys(dirs).find((p) => pathname.startsWith(p));
    const file = prefix && path.join(dirs[prefix], pathname.slice(prefix.length));
    if (!file || !file.startsWith(dirs[prefix]) || !(await stat(file).catch(() => null))?.isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`not found: ${pathname}`);
      return;
    }
    res.writeHead(200, { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections(); // the browser may keep idle connections open
      }),
  };
}
