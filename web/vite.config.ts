import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The gateway serves the built app and /api on :8080; dev and preview proxy to it.
const api = { '/api': 'http://localhost:8080' };

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: { manifest: true },
  // Workspace libs ship TypeScript sources, so the prerender bundle must compile them in.
  ssr: { noExternal: ['@lockdrop/money', '@lockdrop/plans'] },
  server: { proxy: api },
  preview: { proxy: api },
});
