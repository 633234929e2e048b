import { Navigate, Outlet, useLocation } from 'react-router';
import type { SignedOutState } from '../lib/api-client';
import { storage } from '../lib/storage';

/** Signed-in pages: guests go to /login (remembering where they came from), admins to /admin/dashboard. */
export function ProtectedRoute() {
  const location = useLocation();
  if (!storage.getToken()) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  // The security mails link /security; an admin has the same screen inside the console.
  if (storage.isAdmin()) return <Navigate to={location.pathname === '/security' ? '/admin/security' : '/admin/dashboard'} replace />;
  return <Outlet />;
}

/** Guest-only pages (login, signup): signed-in users go to /dashboard, admins to /admin/dashboard. */
export function GuestOnlyRoute() {
  const location = useLocation();
  if (storage.getToken()) return <Navigate to={storage.isAdmin() ? '/admin/dashboard' : '/dashboard'} replace />;
  // Sent here because the session was ended from another device (lib/api-client.ts): say so.
  const signedOut = (location.state as Partial<SignedOutState> | null)?.signedOut === true;
  return (
    <>
      {signedOut ? (
        <p role="status" className="bg-amber-500/15 px-4 py-3 text-center text-sm font-medium text-amber-200 ring-1 ring-amber-500/30">
          You were signed out: this session was ended from another device.
        </p>
      ) : null}
      <Outlet />
    </>
  );
}

/** Admin pages: guests go to /login, signed-in non-admins to /dashboard. */
export function AdminRoute() {
  const location = useLocation();
  if (!storage.getToken()) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (!storage.isAdmin()) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
