import Beasties from 'beasties';
import type { OutputAsset, OutputChunk } from 'rolldown';
import { createServer, type Plugin } from 'vite';

/** What src/prerender.tsx gives the build. */
interface Prerender {
  renderPage: (location: string, signedIn?: boolean) => Promise<string>;
  SIGNED_IN_PAGE_MODULES: Readonly<Record<string, string>>;
  titleFor: (pathname: string) => string;
  earlyFormScripts: () => { login: string; signup: string };
}

/** The pre-rendered body of a page, split into the preloads React found (they belong in <head>) and the root's HTML. */
function splitBody(page: string, body: string): { preloads: string; root: string } {
  if (/<script|<!--\$[?!]/.test(body)) throw new Error(`the pre-rendered ${page} has an inline script or an unfinished boundary`);
  const preloads = /^(?:<link [^>]*\/>)*/.exec(body)![0];
  return { preloads, root: body.slice(preloads.length) };
}

/** The HTML file of a signed-in path: '/staking/history' → 'staking/history.html' (the server and the service worker look it up by path). */
export const pageFile = (path: string) => `${path.slice(1)}.html`;

/**
 * Pre-renders pages at build time so their first paint needs no JavaScript (issues 12 and 32):
 * - index.html: the landing page, for '/';
 * - login.html and signup.html: the login and sign-up forms, for '/login' and '/signup', each
 *   with the inline script that makes it usable before the app's code arrives;
 * - one HTML file per signed-in page (dashboard.html, wallet.html, ...): the signed-in shell, the
 *   navigation and the page's loading skeleton, with the CSS it needs inlined (beasties) and the
 *   page's code preloaded beside the entry, so a cold load on a slow network paints at once and
 *   fetches every chunk in one round trip;
 * - app.html, for every other path: the same page with a splash in the root, so a deep link never
 *   flashes another page.
 * The server sends each file for its own path (apps/server/src/plugins/web.ts); main.tsx takes over.
 */
export function prerenderPages(root: string): Plugin {
  let shell = '';
  let login: { preloads: string; root: string; title: string } | null = null;
  let signup: { preloads: string; root: string; title: string } | null = null;
  let scripts = { login: '', signup: '' };
  let signedIn: { path: string; module: string; title: string; root: string }[] = [];
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
          root,
          logLevel: 'error',
          appType: 'custom',
          server: { middlewareMode: true, hmr: false, ws: false },
        });
        try {
          const { renderPage, SIGNED_IN_PAGE_MODULES, titleFor, earlyFormScripts } = (await server.ssrLoadModule('/src/prerender.tsx')) as Prerender;
          scripts = earlyFormScripts();
          if (Object.values(scripts).some((s) => s.includes('</script'))) throw new Error('an early form script would close its own element');
          const landing = splitBody('landing page', await renderPage('/'));
          login = { ...splitBody('login page', await renderPage('/login')), title: titleFor('/login') };
          if (!login.root.includes('autoComplete="current-password"') && !login.root.includes('autocomplete="current-password"'))
            throw new Error('the pre-rendered /login has no login form');
          if (!login.root.includes('data-early-form="login"')) throw new Error('the pre-rendered /login form has no data-early-form for its early script');
          signup = { ...splitBody('sign-up page', await renderPage('/signup')), title: titleFor('/signup') };
          if (!signup.root.includes('data-early-form="signup"') || !signup.root.includes('name="confirmPassword"'))
            throw new Error('the pre-rendered /signup has no sign-up form with data-early-form for its early script');
          signedIn = [];
          for (const [path, module] of Object.entries(SIGNED_IN_PAGE_MODULES)) {
            const page = splitBody(path, await renderPage(path, true));
            if (!page.root.includes('aria-label="Main"')) throw new Error(`the pre-rendered ${path} has no signed-in navigation`);
            signedIn.push({ path, module: `src/features/${module}.tsx`, title: titleFor(path), root: page.root });
          }
          if (!html.includes('<div id="root"></div>')) throw new Error('index.html has no empty #root to pre-render into');
          return html.replace('</head>', () => `${landing.preloads}</head>`).replace('<div id="root"></div>', () => `<div id="root">${landing.root}</div>`);
        } finally {
          await server.close();
        }
      },
    },
    async generateBundle(_, bundle) {
      if (!shell || !login || !signup) throw new Error('prerender-pages: index.html was not transformed');
      // The manifest link and the service worker's registration that vite-plugin-pwa put in
      // index.html: every page gets them, so the app installs and works offline from /dashboard too.
      const index = bundle['index.html'] as OutputAsset | undefined;
      const indexHtml = String(index?.source ?? '');
      const pwa = [/<link rel="manifest"[^>]*>/, /<script id="vite-plugin-pwa:register-sw"[^>]*><\/script>/].map((re) => {
        const tag = re.exec(indexHtml)?.[0];
        if (!tag) throw new Error(`prerender-pages: index.html has no ${re.source}`);
        return tag;
      });
      const head = (extra: string) => (html: string) => html.replace('</head>', () => `${extra}${pwa.join('')}</head>`);
      // A visit to / runs the landing page's script and nothing else (main.tsx): fetched beside the entry.
      const behaviour = Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('features/landing/components/behaviour.ts'));
      if (!index || !behaviour) throw new Error('prerender-pages: no index.html or no landing behaviour chunk');
      index.source = indexHtml.replace('</head>', () => `<link rel="modulepreload" crossorigin href="/${behaviour.fileName}"></head>`);

      const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      /** modulepreload links for the chunks holding these modules and everything they import statically (not the entry, already a <script>). */
      const preloadLinks = (modules: string[]) => {
        const preload = new Set<string>();
        const visit = (file: string) => {
          const c = byFile.get(file);
          if (!c || c.isEntry || preload.has(file)) return;
          preload.add(file);
          c.imports.forEach(visit);
        };
        for (const m of modules) {
          // The chunk that holds the module and, when it was merged into a bigger chunk, the small
          // facade chunk its dynamic import() goes through: both, or the facade costs a round trip.
          const holders = chunks.filter((x) => x.facadeModuleId?.endsWith(m) || x.moduleIds.some((id) => id.endsWith(m)));
          if (holders.length === 0) throw new Error(`prerender-pages: no chunk holds ${m}`);
          holders.forEach((c) => visit(c.fileName));
        }
        return [...preload].map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join('');
      };
      const asset = (fileName: string, source: string) => this.emitFile({ type: 'asset', fileName, source });

      // Every path but '/' runs inside the providers, and /login is the most visited of them: their
      // chunks are preloaded beside the entry instead of waiting for it (entry → providers → page).
      const splash =
        '<div class="flex min-h-dvh items-center justify-center" role="status"><span class="text-xl font-bold text-white">USDT<span class="text-brand-400">Stake</span></span><span class="sr-only">Loading...</span></div>';
      asset(
        'app.html',
        head(preloadLinks(['src/app/start.tsx', 'src/app/app-providers.tsx', 'src/features/auth/pages/login-page.tsx']))(shell).replace(
          '<div id="root"></div>',
          () => `<div id="root">${splash}</div>`,
        ),
      );

      // The signed-in pages: the CSS their shell uses goes inline and the stylesheet moves to the end
      // of <body>, so the shell paints with the HTML alone (no render-blocking round trip for the CSS).
      const css = new Map(
        Object.values(bundle)
          .filter((a): a is OutputAsset => a.type === 'asset' && a.fileName.endsWith('.css'))
          .map((a) => [`/${a.fileName}`, String(a.source)]),
      );
      const beasties = new (class extends Beasties {
        override readFile(filename: string) {
          const source = css.get(filename.slice(filename.lastIndexOf('/assets/')));
          if (source === undefined) throw new Error(`prerender-pages: no stylesheet ${filename}`);
          return source;
        }
      })({
        path: '/',
        publicPath: '/',
        preload: 'body',
        noscriptFallback: false,
        pruneSource: false,
        // beasties cannot match Tailwind's :where(.space-y-4>:not(:last-child)) to the page and
        // dropped it: the shell painted without the gaps, which came with the stylesheet (a shift).
        allowRules: [/:where\(/],
        logLevel: 'warn',
      });
      // /login painted by the build, with its own title (the same as RootRoute sets). No modulepreload:
      // the form is painted without them, and on slow 4G two dozen high-priority fetches beside the CSS
      // delayed that paint (Lighthouse FCP 2.4 s with them, docs/benchmarks.md); hydration can wait.
      // The form works meanwhile: its early script (features/auth/early-login.ts), inline right
      // after the form, sends a press itself (issue 51: Login did nothing for ten seconds). Its CSS
      // inline too (beasties, as the signed-in pages): a stylesheet in <head> held both the paint
      // and that script (an inline script waits for the stylesheets before it) for a round trip.
      // signup.html the same way, for the sign-up form (its early script holds a press for the app,
      // features/auth/early-signup.ts).
      // The page is not painted before its whole form is parsed (`rel=expect … blocking=render`,
      // on the script right after the root): the card is centred, and a first paint of half a form,
      // which a throttled link gave, moved it as the rest arrived (CLS 0.06 on /login, 0.22 on /signup).
      const guestForm = async (file: string, page: { preloads: string; root: string; title: string }, script: string) =>
        asset(
          file,
          await beasties.process(
            head(`${page.preloads}<link rel="expect" href="#early-form" blocking="render">`)(
              shell.replace(/<title>[^<]*<\/title>/, () => `<title>${page.title}</title>`),
            ).replace('<div id="root"></div>', () => `<div id="root">${page.root}</div><script id="early-form">${script}</script>`),
          ),
        );
      await guestForm('login.html', login, scripts.login);
      await guestForm('signup.html', signup, scripts.signup);
      for (const page of signedIn) {
        const html = head(preloadLinks(['src/app/start.tsx', 'src/app/app-providers.tsx', 'src/app/layouts/signed-in-layout.tsx', page.module]))(
          shell.replace(/<title>[^<]*<\/title>/, () => `<title>${page.title}</title>`),
        ).replace('<div id="root"></div>', () => `<div id="root">${page.root}</div>`);
        asset(pageFile(page.path), await beasties.process(html));
      }
    },
  };
}
