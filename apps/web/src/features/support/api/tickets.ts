import type { TCreateTicketRequest, TTicket } from '@app/core';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/support */
export const ticketsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.tickets,
    queryFn: async () => (await api.get<{ data: TTicket[] }>('/api/support')).data?.data ?? [],
  });

/** POST /api/support; refreshes the ticket list on success. */
export function useCreateTicket() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateTicketRequest) => api.post<TTicket>('/api/support', body),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.tickets }),
  });
}
