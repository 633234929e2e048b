import { Navigate, Outlet, useLocation } from 'react-router';
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
  if (storage.getToken()) return <Navigate to={storage.isAdmin() ? '/admin/dashboard' : '/dashboard'} replace />;
  return <Outlet />;
}

/** Admin pages: guests go to /login, signed-in non-admins to /dashboard. */
export function AdminRoute() {
  const location = useLocation();
  if (!storage.getToken()) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (!storage.isAdmin()) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
