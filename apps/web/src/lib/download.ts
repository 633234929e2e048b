import type { Contract, InputOf } from '@app/core/contracts/define';
import { ApiError } from './api-client';
import { storage } from './storage';

/**
 * Downloads a file answer (a CSV export contract) with the bearer token: a plain link cannot send
 * it. The server streams the file; the browser saves it under the name the server gives.
 */
export async function downloadFile<C extends Contract>(contract: C, input: InputOf<C>): Promise<void> {
  const url = new URL(`/api${contract.path}`, window.location.origin);
  for (const [k, v] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
    if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  }
  const token = storage.getToken();
  let res: Response;
  try {
    res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiError('Network error. Please check your connection.', 0);
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError(body?.message ?? '', res.status);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'export.csv';
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
