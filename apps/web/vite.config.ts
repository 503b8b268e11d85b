import { defineConfig } from 'vite';

// A static single-page app: `vite build` writes dist/ with relative asset paths, so the console
// can be served from any path (or opened from any static server).
export default defineConfig({
  base: './',
  build: { outDir: 'dist', target: 'es2022', sourcemap: true },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
