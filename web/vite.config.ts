import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The gateway serves the built app and /api on :8080; dev and preview proxy to it.
const api = { '/api': 'http://localhost:8080' };

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    manifest: true,
    rollupOptions: {
      // Feature modules and the shared contracts only declare components, hooks, schemas and
      // pure functions. Marked side-effect free, a page that imports one component through a
      // feature's index (or one helper from @lockdrop/contracts) no longer drags in API
      // modules and zod (landing page: 148.7 → 117.0 KB gzip of initial JS, issue 11).
      treeshake: {
        moduleSideEffects: (id) =>
          !id.includes('/src/features/') && !id.includes('/libs/contracts/src/'),
      },
    },
  },
  // The server entry carries every dependency it imports: the gateway runs it to render product
  // pages (storefront/share-pages.ts), and the gateway's image has none of web's packages.
  ssr: { noExternal: true },
  server: { proxy: api },
  preview: { proxy: api },
});
