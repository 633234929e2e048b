import type { TCreateTicketRequest } from '@app/core';
import { support } from '@app/core/contracts/support';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/call';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/support */
export const ticketsQueryOptions = () => queryOptions({ queryKey: queryKeys.tickets, queryFn: async () => (await call(support.list)).data.data });

/** POST /api/support; refreshes the ticket list on success. */
export function useCreateTicket() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateTicketRequest) => call(support.create, { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.tickets }),
  });
}
