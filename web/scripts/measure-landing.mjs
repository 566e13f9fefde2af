// Prints the gzip size of the JavaScript prerendered/index.html loads up front (entry script and
// modulepreloads). Budget: 120 KB (issue 6).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const page = process.argv[2] ?? 'index';
const html = readFileSync(join(dist, 'prerendered', `${page}.html`), 'utf8');
// The boot script's data-entry and data-preload name what the page loads up front.
const files = [...html.matchAll(/\/(assets\/[^"\s]+\.js)/g)].map((m) => m[1]);
let total = 0;
for (const file of new Set(files)) {
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
console.log(
  `${(total / 1024).toFixed(1).padStart(7)} KB  total gzip JS for prerendered/${page}.html (budget 120 KB)`,
);
process.exitCode = total > 120 * 1024 ? 1 : 0;
