/*
 * The page a 503 took the person away from. Noted by app-providers.tsx on every move (a module of
 * its own without imports: it rides in the signed-in chunk), read by the maintenance page.
 */
let lastPage: string | null = null;

/** Notes the page the person is on (app-providers.tsx), so the end of maintenance goes back there. */
export function notePage(path: string): void {
  if (path !== '/maintenance') lastPage = path;
}

/** Where to go when maintenance ends: the page the 503 came from, else the dashboard (signed in) or home. */
export function returnPath(signedIn: boolean): string {
  return lastPage ?? (signedIn ? '/dashboard' : '/');
}
