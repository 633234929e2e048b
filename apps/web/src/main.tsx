import { startEarlyRequest } from './lib/early-requests';
import './index.css';

// The entry is kept tiny so it runs as soon as it arrives: it starts the signed-in screen's first
// API read (early-requests.ts), and the app's code, which the page preloads beside it, follows.
startEarlyRequest(location.pathname);

// zod 4 probes `new Function` to compile fast parsers, which the CSP (script-src 'self') reports as
// an eval violation on every form page. Its documented global config turns the probe off; it must be
// set before the first schema is built, so before any chunk that builds one is evaluated.
const zodConfig = ((globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig ??= {});
zodConfig.jitless = true;

// A visit to / gets the landing page the build pre-rendered, and no React: three small moving parts
// need a few lines of script, not a framework (issue 32). Every other page starts the app.
if (location.pathname === '/' && document.querySelector('#root [data-testid="navbar"]'))
  void import('./features/landing/components/behaviour').then(({ enhanceLanding }) => enhanceLanding(document));
else void import('./app/start');
