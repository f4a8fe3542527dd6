import toolprep from '@toolprep/build/vite';
import { defineConfig } from 'vite';

// The server is built for Node with the toolprep plugin: it regenerates the manifest and
// src/toolprep.gen.ts, and each tool file becomes a chunk loaded on the tool's first call.
export default defineConfig({
  root: import.meta.dirname,
  logLevel: 'warn',
  plugins: [toolprep()],
  ssr: { external: true },
  build: {
    ssr: 'src/server.ts',
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: { output: { entryFileNames: 'server.js' } },
  },
});
