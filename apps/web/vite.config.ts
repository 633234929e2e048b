import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // Installable app: a manifest, icons, and a service worker that precaches the shell and the hashed
    // assets. Nothing under /api is ever cached: balances and payment states must come from the server.
    VitePWA({
      registerType: 'autoUpdate',
      // An external registerSW.js: the CSP (script-src 'self') forbids an inline registration script.
      injectRegister: 'script-defer',
      includeAssets: ['favicon.svg', 'pwa/apple-touch-icon.png'],
      manifest: {
        name: 'USDT Stake',
        short_name: 'USDT Stake',
        description: 'Stake USDT on BSC, Polygon or Tron and earn daily rewards.',
        start_url: '/dashboard',
        scope: '/',
        display: 'standalone',
        background_color: '#0b1020',
        theme_color: '#0b1020',
        icons: [
          { src: '/pwa/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/pwa/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/pwa/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api/],
        // No runtimeCaching: an /api request always goes to the network.
        cleanupOutdatedCaches: true,
      },
    }),
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 512 }),
  ],
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000' } },
  build: { outDir: 'dist', sourcemap: false, manifest: true, chunkSizeWarningLimit: 600 },
});
