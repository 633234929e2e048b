import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TCreateWithdrawalRequest } from '@app/core';
import { history, withdrawals } from '@app/core/contracts/money';
import { user } from '@app/core/contracts/user';
import { call } from '../../../lib/call';
import { keyOfAll } from '../../../lib/query-keys';

/** POST /api/withdraw/create; refreshes the wallet, user info and history. */
export function useCreateWithdrawal() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateWithdrawalRequest) => call(withdrawals.create, { body }),
    onSuccess: () => Promise.all([user.wallet, user.info, history.list].map((c) => qc.invalidateQueries({ queryKey: keyOfAll(c) }))),
  });
}
