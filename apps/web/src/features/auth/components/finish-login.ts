import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { storage } from '../../../lib/storage';
import { AUTH_TEXTS } from '../auth-texts';

/**
 * The one success path of every sign-in (password, second factor, social): keep the token, drop the
 * previous user's cached data, greet, and go to the admin console, the page the guard came from, or
 * the dashboard.
 */
export function useFinishLogin(): (data: { token: string; is_admin?: boolean }, from?: string) => void {
  const navigate = useNavigate();
  const qc = useQueryClient();
  return useCallback(
    (data, from) => {
      storage.setSession(data.token, data.is_admin ?? false);
      qc.clear();
      toast.success(AUTH_TEXTS.loginSuccess);
      void navigate(data.is_admin ? '/admin/dashboard' : from && from.startsWith('/') && !from.startsWith('//') ? from : '/dashboard', { replace: true });
    },
    [navigate, qc],
  );
}
