import type { TChangePasswordRequest } from '@app/core';
import { security } from '@app/core/contracts/security';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/call';
import { keyOfAll } from '../../../lib/query-keys';

/** The account-security endpoints of server.md section 9; each change refetches GET /api/user/security. */
function useRefetchSecurity() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: keyOfAll(security.info) });
}

/** POST /api/user/change-password (the other sessions are revoked, so the list changes). */
export function useChangePassword() {
  const refetch = useRefetchSecurity();
  return useMutation({ mutationFn: (body: TChangePasswordRequest) => call(security.changePassword, { body }), onSuccess: refetch });
}

/** POST /api/user/2fa/setup: a new secret; nothing is enabled until a code confirms it. */
export function useTwoFactorSetup() {
  return useMutation({ mutationFn: async () => (await call(security.setup2fa)).data });
}

/** POST /api/user/2fa/enable → the recovery codes, shown once (not held back by the refetch). */
export function useEnableTwoFactor() {
  const refetch = useRefetchSecurity();
  return useMutation({
    mutationFn: async (code: string) => (await call(security.enable2fa, { body: { code } })).data,
    onSuccess: () => void refetch(),
  });
}

/** POST /api/user/2fa/disable with a TOTP or a recovery code. */
export function useDisableTwoFactor() {
  const refetch = useRefetchSecurity();
  return useMutation({ mutationFn: (code: string) => call(security.disable2fa, { body: { code } }), onSuccess: refetch });
}

/** DELETE /api/user/sessions/:id */
export function useRevokeSession() {
  const refetch = useRefetchSecurity();
  return useMutation({ mutationFn: (id: string) => call(security.revokeSession, { params: { id } }), onSuccess: refetch });
}
