import { Button } from './button';

/** Previous, page numbers, Next and 'Showing X to Y of Z entries'; hidden when everything fits on one page. */
export function NumberedPagination({ page, perPage, total, onPage }: { page: number; perPage: number; total: number; onPage: (p: number) => void }) {
  if (total <= perPage) return null;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const from = (page - 1) * perPage + 1;
  const to = Math.min(total, page * perPage);
  const numbers = pageWindow(page, pages);
  return (
    <nav aria-label="Pagination" className="mt-4 flex flex-col items-center gap-3 sm:flex-row sm:justify-between">
      <p className="text-xs text-slate-400">{`Showing ${from} to ${to} of ${total} entries`}</p>
      <div className="flex flex-wrap items-center gap-1">
        <Button variant="secondary" className="px-3 py-1.5 text-xs" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        {numbers.map((n, i) =>
          n === null ? (
            <span key={`gap-${i}`} className="px-1 text-slate-400">
              …
            </span>
          ) : (
            <Button
              key={n}
              variant={n === page ? 'primary' : 'ghost'}
              aria-current={n === page ? 'page' : undefined}
              className="min-w-11 px-2 py-1.5 text-xs"
              onClick={() => onPage(n)}
            >
              {n}
            </Button>
          ),
        )}
        <Button variant="secondary" className="px-3 py-1.5 text-xs" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </div>
    </nav>
  );
}

/** Previous, 'Page X of Y', Next; hidden when everything fits on one page. */
export function SimplePagination({ page, perPage, total, onPage }: { page: number; perPage: number; total: number; onPage: (p: number) => void }) {
  if (total <= perPage) return null;
  const pages = Math.max(1, Math.ceil(total / perPage));
  return (
    <nav aria-label="Pagination" className="mt-4 flex items-center justify-between gap-2">
      <Button variant="secondary" className="px-3 py-1.5 text-xs" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className="text-xs text-slate-400">{`Page ${page} of ${pages}`}</span>
      <Button variant="secondary" className="px-3 py-1.5 text-xs" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

function pageWindow(page: number, pages: number): (number | null)[] {
  if (pages <= 7) return Array.from({ length: pages }, (_, i) => i + 1);
  const set = new Set([1, pages, page - 1, page, page + 1].filter((n) => n >= 1 && n <= pages));
  const sorted = [...set].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  sorted.forEach((n, i) => {
    if (i > 0 && n - sorted[i - 1]! > 1) out.push(null);
    out.push(n);
  });
  return out;
}
