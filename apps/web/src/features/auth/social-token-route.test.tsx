// @vitest-environment happy-dom
import { user } from '@app/core/contracts/user';
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, fail, PROFILE, requestsTo } from '../../test/handlers';
import { renderApp, screen, toastsRaised } from '../../test/render-app';

/*
 * The social sign-in token on /signup?token=…&provider=… at route level (issue 50): the token is a
 * claim the server must accept before the app greets anyone. Moved down from e2e/social-token.e2e.ts.
 */
describe('/signup?token=…&provider=…', () => {
  it('a bogus token never shows "Login successful!": the session is refused and the user goes to /', async () => {
    const app = await renderApp('/signup?token=bogus&provider=google', {
      server: [fail(user.profile, 'UNAUTHENTICATED', 'Invalid or expired token')],
    });
    await waitFor(() => expect(app.path()).toBe('/'), { timeout: 3000 });
    await waitFor(() => expect(toastsRaised('error')).toContain('Invalid or expired token'));
    await new Promise((r) => setTimeout(r, 300));
    expect(toastsRaised()).not.toContain('Login successful!');
    expect(screen.queryByText('Login successful!')).toBeNull();
    expect(localStorage.getItem('auth_token')).toBeNull();
    // The claim was checked with the token it carried.
    expect(requestsTo(user.profile)).toHaveLength(1);
  });

  it('a valid token shows "Login successful!" once and lands on /dashboard', async () => {
    const app = await renderApp('/signup?token=good-token&provider=google', { server: [answer(user.profile, PROFILE)] });
    await waitFor(() => expect(app.path()).toBe('/dashboard'), { timeout: 3000 });
    await screen.findByText('Login successful!', {}, { timeout: 3000 });
    await new Promise((r) => setTimeout(r, 300));
    expect(toastsRaised().filter((t) => t === 'Login successful!')).toHaveLength(1);
    expect(localStorage.getItem('auth_token')).toBe('good-token');
  });
});
