// Builds the web page (web/src, TypeScript) into web/dist, which the gateway serves at / and /assets/.
// `npm ci` runs it through the package's `prepare` script; `npm run build:web` runs it by hand.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  logLevel: 'warn',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
  },
});
