import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './app/router';
import './index.css';

// zod 4 probes `new Function` to compile fast parsers, which the CSP (script-src 'self') reports as
// an eval violation on every form page. Its documented global config turns the probe off; it must be
// set before the first schema is built, and every schema lives in a lazily loaded page chunk.
const zodConfig = ((globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig ??= {});
zodConfig.jitless = true;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  </StrictMode>,
);
