/**
 * The path of a raw request URL as the router reads it: without the query, percent-decoded once
 * (`/%61pi/…` is `/api/…` to the router too) and without the scheme and host of an absolute-form
 * request line. Header sets and the JSON 404 decide on it, so no spelling of an /api path gets a
 * page's headers on an API answer (server design, section 9).
 */
export function routedPath(rawUrl: string): string {
  const q = rawUrl.indexOf('?');
  let path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  if (path[0] !== '/') path = path.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path; // malformed escapes: the router refuses it; judge the text as it came
  }
}

export const isApiPath = (path: string): boolean => path === '/api' || path.startsWith('/api/');
