import { useEffect, useState } from 'react';
import type { ApiError } from '../shared/http.js';
import { asApiError } from './api.js';
import { useLoad } from './use-load.js';

/** One page of a cursor-paged list, whatever the list's own key in the API's answer. */
export type Paged<T> = { items: T[]; nextCursor: string | null };

/**
 * A cursor-paged list with **Load more**: the first page loaded (again whenever `deps` change)
 * and the pages after it, added below it by `loadMore` and dropped when `deps` change.
 * `list` is null until the first page is in.
 */
export function usePaged<T>(
  loadPage: (cursor: string | null) => Promise<Paged<T> | null>,
  deps: unknown[],
) {
  const first = useLoad(() => loadPage(null), deps);
  const [more, setMore] = useState<Paged<T> | null>(null);
  const [moreError, setMoreError] = useState<ApiError | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  useEffect(() => setMore(null), deps);

  const list: Paged<T> | null = first.data && {
    items: [...first.data.items, ...(more?.items ?? [])],
    nextCursor: more ? more.nextCursor : first.data.nextCursor,
  };

  async function loadMore() {
    if (!list?.nextCursor) return;
    setLoadingMore(true);
    setMoreError(null);
    try {
      const page = await loadPage(list.nextCursor);
      if (page) {
        setMore((m) => ({
          items: [...(m?.items ?? []), ...page.items],
          nextCursor: page.nextCursor,
        }));
      }
    } catch (err) {
      setMoreError(asApiError(err));
    } finally {
      setLoadingMore(false);
    }
  }

  return { list, error: first.error ?? moreError, loadingMore, loadMore };
}
