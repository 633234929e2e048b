import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TCreateWithdrawalRequest } from '@app/core';
import { withdrawals } from '@app/core/contracts/money';
import { call } from '../../../lib/call';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/withdraw/create; refreshes the wallet, user info and history. */
export function useCreateWithdrawal() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateWithdrawalRequest) => call(withdrawals.create, { body }),
    onSuccess: () => Promise.all([queryKeys.wallet, queryKeys.userInfo, queryKeys.historyAll].map((queryKey) => qc.invalidateQueries({ queryKey }))),
  });
}
