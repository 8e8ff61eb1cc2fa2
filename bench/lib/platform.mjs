// Where the bench's runtime code runs: a Node process (bench/run.mjs's default) or a browser page
// (run.mjs --browser, bench/browser/). The runtimes read their files through here.
export const IN_NODE = typeof process === 'object' && typeof process.versions?.node === 'string';

/** The bytes of a file next to the bench's sources (a file: URL in Node, fetched in a browser). */
export async function readBytes(url) {
  if (IN_NODE) return new Uint8Array(await (await import('node:fs/promises')).readFile(url));
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}
