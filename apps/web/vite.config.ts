import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { createServer, defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';

/** The pre-rendered body of a page, split into the preloads React found (they belong in <head>) and the root's HTML. */
function splitBody(page: string, body: string): { preloads: string; root: string } {
  if (/<script|<!--\$[?!]/.test(body)) throw new Error(`the pre-rendered ${page} has an inline script or an unfinished boundary`);
  const preloads = /^(?:<link [^>]*\/>)*/.exec(body)![0];
  return { preloads, root: body.slice(preloads.length) };
}

/**
 * Pre-renders the landing page into index.html and /login into login.html at build time (issue 12:
 * their first paint must not wait for JavaScript); main.tsx hydrates them. The server sends
 * index.html for '/' only and login.html for '/login' only: every other path gets app.html, the same
 * page with a splash in the root, so a deep link never flashes another page.
 */
function prerenderPages(): Plugin {
  let shell = '';
  let login: { preloads: string; root: string } | null = null;
  return {
    name: 'prerender-pages',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        shell = html;
        const server = await createServer({
          configFile: false,
          root: import.meta.dirname,
          logLevel: 'error',
          appType: 'custom',
          server: { middlewareMode: true, hmr: false, ws: false },
        });
        try {
          const { renderPage } = (await server.ssrLoadModule('/src/prerender.tsx')) as { renderPage: (location: string) => Promise<string> };
          const landing = splitBody('landing page', await renderPage('/'));
          login = splitBody('login page', await renderPage('/login'));
          if (!login.root.includes('autoComplete="current-password"') && !login.root.includes('autocomplete="current-password"'))
            throw new Error('the pre-rendered /login has no login form');
          if (!html.includes('<div id="root"></div>')) throw new Error('index.html has no empty #root to pre-render into');
          return html.replace('</head>', () => `${landing.preloads}</head>`).replace('<div id="root"></div>', () => `<div id="root">${landing.root}</div>`);
        } finally {
          await server.close();
        }
      },
    },
    generateBundle(_, bundle) {
      if (!shell || !login) throw new Error('prerender-pages: index.html was not transformed');
      // Every path but '/' runs inside the providers, and /login is the most visited of them: their
      // chunks are preloaded beside the entry instead of waiting for it (entry → providers → page).
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const preloadLinks = (pages: string[]) => {
        const preload = new Set<string>();
        const visit = (file: string) => {
          const c = byFile.get(file);
          if (!c || c.isEntry || preload.has(file)) return;
          preload.add(file);
          c.imports.forEach(visit);
        };
        for (const page of pages) {
          const c = chunks.find((x) => x.facadeModuleId?.endsWith(page));
          if (!c) throw new Error(`prerender-pages: no chunk for ${page}`);
          visit(c.fileName);
        }
        return [...preload].map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join('');
      };
      const links = preloadLinks(['src/app/app-providers.tsx', 'src/features/auth/pages/login-page.tsx']);
      // A branded splash in the empty root: the first paint of a deep link needs no JavaScript either.
      const splash =
        '<div class="flex min-h-dvh items-center justify-center" role="status"><span class="text-xl font-bold text-white">USDT<span class="text-brand-400">Stake</span></span><span class="sr-only">Loading...</span></div>';
      this.emitFile({
        type: 'asset',
        fileName: 'app.html',
        source: shell.replace('</head>', () => `${links}</head>`).replace('<div id="root"></div>', () => `<div id="root">${splash}</div>`),
      });
      // /login painted by the build, with its own title (the same as RootRoute sets). No modulepreload:
      // the form is painted without them, and on slow 4G two dozen high-priority fetches beside the CSS
      // delayed that paint (Lighthouse FCP 2.4 s with them, docs/benchmarks.md); hydration can wait.
      const { preloads, root } = login;
      this.emitFile({
        type: 'asset',
        fileName: 'login.html',
        source: shell
          .replace(/<title>[^<]*<\/title>/, '<title>Log in · USDT Stake</title>')
          .replace('</head>', () => `${preloads}</head>`)
          .replace('<div id="root"></div>', () => `<div id="root">${root}</div>`),
      });
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    prerenderPages(),
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
        // The empty shell: the installed app must not show the pre-rendered landing page on /login.
        navigateFallback: '/app.html',
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
