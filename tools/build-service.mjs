// Bundles one service (run from its folder) into dist/main.js with esbuild. Our own libs
// (@lockdrop/*, TypeScript sources) are bundled in; every other package stays external and
// is loaded from node_modules at run time, so native addons (sharp, argon2) keep working.
import { build } from 'esbuild';
import { readdir, rm } from 'node:fs/promises';

const keepExternal = {
  name: 'external-packages',
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@lockdrop/') ? undefined : { path: args.path, external: true },
    );
  },
};

// A `*-child.ts` module is the entry of a process the service starts itself (delivery renders
// untrusted files in one): bundled beside main.js under its own name.
const childEntries = (await readdir('src', { recursive: true }))
  .filter((file) => file.endsWith('-child.ts'))
  .map((file) => `src/${file}`);

await rm('dist', { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts', ...childEntries],
  outdir: 'dist',
  entryNames: '[name]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [keepExternal],
});
