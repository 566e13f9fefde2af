import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Two rules for the shape of code inside a project (issue 26):
 * - `through-index`: a service split into `src/modules/<name>/` keeps each module's insides
 *   private; code outside a module (another module, the app, tests) imports it only through its
 *   `index.ts`.
 * - `no-cycle`: no file reaches itself again through its own imports. Type-only imports count too
 *   (unlike import-x/no-cycle): a circle of types still ties the modules into one knot.
 */
const MODULE_PATH = /^(.*\/src\/modules\/[^/]+)\/(.+)$/;
const IMPORT_SOURCE =
  /(?:^|[\s;])(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
const EXTENSIONS = ['.ts', '.tsx', '.mts'];

const toPosix = (file) => file.split(path.sep).join('/');

/** The file a specifier names, for relative and aliased specifiers; null for packages. */
function resolveSpecifier(importer, specifier, aliases) {
  let base = null;
  if (specifier.startsWith('.')) base = path.posix.join(path.posix.dirname(importer), specifier);
  else {
    const alias = Object.keys(aliases).find((prefix) => specifier.startsWith(prefix));
    if (!alias) return null;
    base = path.posix.join(toPosix(process.cwd()), aliases[alias], specifier.slice(alias.length));
  }
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  const candidates = [
    base,
    ...EXTENSIONS.map((ext) => stem + ext),
    ...EXTENSIONS.map((ext) => `${stem}/index${ext}`),
  ];
  return candidates.find((file) => /\.(m?ts|tsx)$/.test(file) && existsSync(file)) ?? null;
}

const importsOf = new Map();
function importedFiles(file, aliases) {
  let files = importsOf.get(file);
  if (files) return files;
  files = [];
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    /* a file that vanished mid-run imports nothing */
  }
  for (const match of text.matchAll(IMPORT_SOURCE)) {
    const resolved = resolveSpecifier(file, match[1] ?? match[2] ?? match[3], aliases);
    if (resolved) files.push(resolved);
  }
  importsOf.set(file, files);
  return files;
}

/** A path of imports from `start` back to `target`, or null. */
function pathBack(start, target, aliases) {
  const seen = new Set();
  const stack = [[start, [start]]];
  while (stack.length) {
    const [file, trail] = stack.pop();
    for (const next of importedFiles(file, aliases)) {
      if (next === target) return trail;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push([next, [...trail, next]]);
    }
  }
  return null;
}

const sourceOf = (node) => (typeof node.source?.value === 'string' ? node.source.value : null);

const throughIndex = {
  meta: {
    type: 'problem',
    docs: { description: 'Import another module only through its index.ts' },
    messages: {
      deepImport:
        "'{{source}}' reaches inside the {{module}} module; import it through '{{module}}/index.js'.",
    },
    schema: [],
  },
  create(context) {
    const importer = toPosix(context.filename);
    const importerModule = importer.match(MODULE_PATH)?.[1];
    const check = (node) => {
      const source = sourceOf(node);
      if (!source?.startsWith('.')) return;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(importer), source));
      const match = target.match(MODULE_PATH);
      if (!match) return;
      const [, targetModule, inside] = match;
      if (targetModule === importerModule || /^index\.(js|ts)$/.test(inside)) return;
      context.report({
        node: node.source,
        messageId: 'deepImport',
        data: { source, module: path.posix.basename(targetModule) },
      });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycles, type-only imports included' },
    messages: { cycle: 'Import cycle: {{cycle}}' },
    schema: [
      {
        type: 'object',
        properties: { aliases: { type: 'object', additionalProperties: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const aliases = context.options[0]?.aliases ?? {};
    const importer = toPosix(context.filename);
    const root = toPosix(process.cwd()) + '/';
    const check = (node) => {
      const source = sourceOf(node);
      if (!source) return;
      const target = resolveSpecifier(importer, source, aliases);
      if (!target) return;
      const trail = target === importer ? [] : pathBack(target, importer, aliases);
      if (!trail) return;
      const cycle = [importer, ...(target === importer ? [] : trail), importer]
        .map((file) => file.replace(root, ''))
        .join(' → ');
      context.report({ node: node.source, messageId: 'cycle', data: { cycle } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { rules: { 'through-index': throughIndex, 'no-cycle': noCycle } };
