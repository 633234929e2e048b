import type { TPagination } from '@app/core';

/** Success envelope (server design, section 2). */
export function ok<T>(data?: T, message?: string) {
  return { success: true as const, ...(message !== undefined ? { message } : {}), ...(data !== undefined ? { data } : {}) };
}

export function paginated<T>(rows: T[], total: number | bigint, page: number, perPage: number): { data: T[]; pagination: TPagination } {
  return { data: rows, pagination: { total: Number(total), page, perPage } };
}

export function offsetOf(page: number, perPage: number): number {
  return (page - 1) * perPage;
}
