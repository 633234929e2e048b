import type { TCreateTicketRequest, TTicketReplyRequest } from '@app/core';
import { support } from '@app/core/contracts/support';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/call';
import { contractQuery, keyOfAll } from '../../../lib/query-keys';

/** The support screen's page size (the server's default, like the other paginated lists). */
export const TICKETS_PER_PAGE = 10;

/** GET /api/support: one page of the user's tickets, newest first, with its pagination. */
export const ticketsQueryOptions = (page: number) =>
  queryOptions({
    ...contractQuery(support.list, { query: { page, per_page: TICKETS_PER_PAGE } }),
    placeholderData: keepPreviousData,
  });

/** POST /api/support/:id/reply; refreshes the ticket list on success. */
export function useReplyTicket() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: TTicketReplyRequest & { id: string }) => call(support.reply, { params: { id }, body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keyOfAll(support.list) }),
  });
}

/** POST /api/support; refreshes every page of the ticket list on success. */
export function useCreateTicket() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateTicketRequest) => call(support.create, { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keyOfAll(support.list) }),
  });
}
