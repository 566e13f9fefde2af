// Writes dist/prerendered/<name>.html for each public page: the SPA shell with the page's HTML,
// title, description and Open Graph tags, plus modulepreload links for the page's code.
// The gateway serves these for their paths; every other path gets the plain dist/index.html.
import { createHash } from 'node:crypto';
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

/**
 * Starts the app's code after the first frame. The page is complete HTML and CSS; fetching and
 * running the scripts first held the first paint back behind every module (Lighthouse mobile
 * put FCP at 2.5 s on the landing page). Constant text, so the gateway's CSP allows it by hash
 * (dist/csp-hashes.json); the entry and its modules come from the tag's data attributes.
 */
const BOOT_SCRIPT =
  "(function(t){requestAnimationFrame(function(){setTimeout(function(){var h=document.head;t.dataset.preload.split(' ').forEach(function(f){if(!f)return;var l=document.createElement('link');l.rel='modulepreload';l.href=f;h.appendChild(l)});var s=document.createElement('script');s.type='module';s.src=t.dataset.entry;h.appendChild(s)})})})(document.currentScript)";

function bootTag({ preload, entry }) {
  return `<script data-entry="${escapeAttr(entry)}" data-preload="${escapeAttr(preload.map((file) => `/${file}`).join(' '))}">${BOOT_SCRIPT}</script>`;
}

function head({ meta, preload, entry }, siteName) {
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
    bootTag({ preload, entry }),
  ].join('\n    ');
}

/**
 * The app's one stylesheet, inlined: a prerendered page then paints from its first response
 * instead of waiting for a render-blocking CSS request (Lighthouse mobile FCP/LCP, issue 11).
 * The whole sheet, not a critical subset, so client-side navigation finds every rule.
 */
async function inlineStylesheet(html) {
  const link = /<link rel="stylesheet"(?: crossorigin)? href="\/(assets\/[^"]+\.css)">/;
  const found = link.exec(html);
  if (!found) throw new Error('dist/index.html links no stylesheet');
  const css = await readFile(join(dist, found[1]), 'utf8');
  return html.replace(link, () => `<style>${css.replaceAll('</style', '<\\/style')}</style>`);
}

/** The shell without its entry script and preloads: the boot script starts them after paint. */
function withoutScripts(html) {
  const entry = /<script type="module" crossorigin src="\/(assets\/[^"]+\.js)"><\/script>\s*/.exec(
    html,
  );
  if (!entry) throw new Error('dist/index.html has no entry script');
  const preloads = [
    ...html.matchAll(/<link rel="modulepreload" crossorigin href="\/(assets\/[^"]+\.js)">\s*/g),
  ];
  let shell = html.replace(entry[0], '');
  for (const preload of preloads) shell = shell.replace(preload[0], '');
  return { shell, entry: `/${entry[1]}`, preloads: preloads.map((preload) => preload[1]) };
}

const {
  shell: template,
  entry,
  preloads: entryPreloads,
} = withoutScripts(await inlineStylesheet(await readFile(join(dist, 'index.html'), 'utf8')));
const manifest = JSON.parse(await readFile(join(dist, '.vite', 'manifest.json'), 'utf8'));
const entryFiles = new Set(chunkFiles(manifest, 'index.html'));
const { renderPage, prerenderedPages, site, PRODUCT_OUTLET, routePatterns } = await import(
  pathToFileURL(ssrEntry).href
);

/** What to preload for a page: the entry's modules and the page's own chunks. */
function preloadFor(module) {
  if (!manifest[module]) throw new Error(`No built chunk for ${module}`);
  return [
    ...entryPreloads,
    ...chunkFiles(manifest, module).filter((file) => !entryFiles.has(file)),
  ];
}

for (const page of prerenderedPages) {
  const preload = preloadFor(`src/app/routes/${pageModules[page.file]}.tsx`);
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
    () => `  ${head({ meta: page.meta, preload, entry }, site.name)}\n  </head>`,
  );
  html = replaceOnce(html, '<div id="root"></div>', () => `<div id="root">${body}</div>`);
  const target = join(dist, 'prerendered', `${page.file}.html`);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, html);
  console.log(`prerendered ${page.path} → dist/prerendered/${page.file}.html`);
}

// The product page's frame: the gateway renders each product into it (storefront/share-pages.ts)
// and adds the product's title and link-preview tags.
await writeFile(
  // The underscore keeps it from ever being served as the page of a path (routes/spa.ts).
  join(dist, 'prerendered', '_product.html'),
  replaceOnce(
    replaceOnce(
      template,
      '</head>',
      () => `  ${bootTag({ preload: preloadFor('src/app/routes/product.tsx'), entry })}\n  </head>`,
    ),
    '<div id="root"></div>',
    () => `<div id="root">${PRODUCT_OUTLET}</div>`,
  ),
);
console.log('product page frame → dist/prerendered/_product.html');

// The app's path patterns: the gateway answers 404 for any other path (routes/spa.ts).
await writeFile(join(dist, 'routes.json'), `${JSON.stringify(routePatterns(), null, 2)}\n`);

// Inline scripts the gateway's Content-Security-Policy allows, by hash.
const bootHash = createHash('sha256').update(BOOT_SCRIPT).digest('base64');
await writeFile(
  join(dist, 'csp-hashes.json'),
  `${JSON.stringify({ scriptSrc: [`'sha256-${bootHash}'`] }, null, 2)}\n`,
);

await rm(join(dist, '.vite'), { recursive: true, force: true });
