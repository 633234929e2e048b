import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { prerenderPages } from './build/prerender-pages';

const FRAMEWORK = /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser|clsx|lucide-react)[\\/]/;
/** The entry's own modules and the constants: small, loaded by every page (the landing page's script too), never pulled into a bigger chunk. */
const BOOT = /src[\\/]lib[\\/](storage|early-requests)\.ts$|vite[\\/]preload-helper|packages[\\/]core[\\/]src[\\/]constants\.ts$/;
/** The app's start (router, guards, root route) that every screen runs: none of it may land in the signed-in chunk, which the landing page does not load. */
const START = /src[\\/]app[\\/](start|router|root-route|guards|lazy-page|toaster-gate)\.tsx?$/;
/** What a signed-in screen needs before its data shows: the providers, the layout and the dashboard (the manifest's start_url), with all they import. */
const SIGNED_IN = /src[\\/](app[\\/]app-providers|app[\\/]layouts[\\/]signed-in-layout|features[\\/]dashboard[\\/]pages[\\/]dashboard-page)\.tsx$/;
/** The dashboard's parts that load beside the balance (recent activities, what is in flight), with what they import: one chunk, not eight. */
const DASHBOARD_MORE = /src[\\/]features[\\/]dashboard[\\/]components[\\/](activity-rows|in-flight)\.tsx$/;

export default defineConfig({
  plugins: [
    react(),
    prerenderPages(import.meta.dirname),
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
        // A signed-in page comes from its own pre-rendered HTML (workbox finds /dashboard.html for
        // /dashboard); any other path gets the splash page, never the pre-rendered landing page. A
        // path with a query (but utm_*/fbclid) matches no precached page and gets the splash too,
        // as the server sends /signup?ref=… (plugins/web.ts QUERY_READERS): the app renders it afresh.
        navigateFallback: '/app.html',
        navigateFallbackDenylist: [/^\/api/],
        // No runtimeCaching: an /api request always goes to the network.
        cleanupOutdatedCaches: true,
        // The first visit's page is served by the worker as soon as it is installed, so the app
        // works offline after one visit without a reload first (issue 32), and an update takes over at once.
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 512 }),
  ],
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000' } },
  build: {
    outDir: 'dist',
    sourcemap: false,
    manifest: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // A page that lives in a merged chunk is imported from it directly, not through a facade chunk of its own.
      preserveEntrySignatures: false,
      output: {
        // A few chunks instead of 120 (issue 32: the dashboard fetched 46 scripts, most under 2 KB,
        // each a round trip on a slow network). Modules not named here are split per page as before.
        codeSplitting: {
          groups: [
            // What every screen runs on, the landing page included.
            { name: 'framework', test: FRAMEWORK, priority: 50 },
            { name: 'boot', test: BOOT, priority: 40 },
            { name: 'start', test: START, priority: 35 },
            { name: 'signed-in', test: SIGNED_IN, priority: 20 },
            { name: 'dashboard-more', test: DASHBOARD_MORE, priority: 15 },
          ],
        },
      },
    },
  },
});
