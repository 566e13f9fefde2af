// Writes dist/prerendered/<name>.html for each public page: the SPA shell with the page's HTML,
// title, description and Open Graph tags, plus modulepreload links for the page's code.
// The gateway serves these for their paths; every other path gets the plain dist/index.html.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const webRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(webRoot, 'dist');
const ssrEntry = join(webRoot, '.ssr', 'prerender.js');

// Route module of each prerendered page, to preload its chunk alongside the entry.
const pageModules = {
  index: 'landing',
  lockdrop: 'landing',
  home: 'landing',
  features: 'features',
  pricing: 'pricing',
  'lockdrop/pricing': 'brand-pricing',
  founder: 'founder',
  contact: 'contact',
  terms: 'terms',
  privacy: 'privacy',
  refund: 'refund',
};

const escapeAttr = (text) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const escapeText = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** Replaces the one occurrence of `pattern`; a template that lacks it is a build error. */
function replaceOnce(text, pattern, replacement) {
  const found = typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
  if (!found) throw new Error(`dist/index.html has no ${pattern}`);
  return text.replace(pattern, replacement);
}

function chunkFiles(manifest, key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return [];
  seen.add(key);
  return [chunk.file, ...(chunk.imports ?? []).flatMap((dep) => chunkFiles(manifest, dep, seen))];
}

function head({ meta, preload }, siteName) {
  const og = [
    ['og:type', 'website'],
    ['og:site_name', siteName],
    ['og:title', meta.title],
    ['og:description', meta.description],
  ];
  return [
    ...og.map(
      ([property, content]) => `<meta property="${property}" content="${escapeAttr(content)}" />`,
    ),
    '<meta name="twitter:card" content="summary" />',
    ...preload.map((file) => `<link rel="modulepreload" crossorigin href="/${file}" />`),
  ].join('\n    ');
}

const template = await readFile(join(dist, 'index.html'), 'utf8');
const manifest = JSON.parse(await readFile(join(dist, '.vite', 'manifest.json'), 'utf8'));
const entryFiles = new Set(chunkFiles(manifest, 'index.html'));
const { renderPage, prerenderedPages, site } = await import(pathToFileURL(ssrEntry).href);

for (const page of prerenderedPages) {
  const module = `src/app/routes/${pageModules[page.file]}.tsx`;
  if (!manifest[module]) throw new Error(`No built chunk for ${module} (page ${page.path})`);
  const preload = chunkFiles(manifest, module).filter((file) => !entryFiles.has(file));
  const body = await renderPage(page.path);
  let html = template;
  html = replaceOnce(
    html,
    /<title>[^<]*<\/title>/,
    () => `<title>${escapeText(page.meta.title)}</title>`,
  );
  html = replaceOnce(
    html,
    /<meta\s+name="description"\s+content="[^"]*"\s*\/>/,
    () => `<meta name="description" content="${escapeAttr(page.meta.description)}" />`,
  );
  html = replaceOnce(
    html,
    '</head>',
    () => `  ${head({ meta: page.meta, preload }, site.name)}\n  </head>`,
  );
  html = replaceOnce(html, '<div id="root"></div>', () => `<div id="root">${body}</div>`);
  const target = join(dist, 'prerendered', `${page.file}.html`);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, html);
  console.log(`prerendered ${page.path} → dist/prerendered/${page.file}.html`);
}

await rm(join(dist, '.vite'), { recursive: true, force: true });
