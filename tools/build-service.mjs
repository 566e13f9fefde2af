// Bundles one service (run from its folder) into dist/main.js with esbuild. Our own libs
// (@lockdrop/*, TypeScript sources) are bundled in; every other package stays external and
// is loaded from node_modules at run time, so native addons (sharp, argon2) keep working.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';

const keepExternal = {
  name: 'external-packages',
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@lockdrop/') ? undefined : { path: args.path, external: true },
    );
  },
};

await rm('dist', { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [keepExternal],
});
