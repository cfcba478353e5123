// Vite build of the signed-in web app: web/ -> web/dist, served by the backend under /app.
import path from 'node:path'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

const here = import.meta.dirname

export default defineConfig({
  root: here,
  base: '/app/',
  plugins: [react()],
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/sign-in': 'http://localhost:3000', '/sign-out': 'http://localhost:3000' },
  },
})
