// List state that belongs in the address (not losing one's place): the page number, the
// archive flag, a search. Reload, the back button and a shared link then show the same list.
// A page change is a history entry (back goes to the previous page); corrections are not.
import { useCallback } from "react";
import { useSearchParams } from "react-router-dom";

/** `?page=` as a page number: a positive integer, else 1. */
export function pageFrom(value: string | null): number {
  if (value === null || !/^[1-9]\d{0,5}$/.test(value)) return 1;
  return Number(value);
}

/** Changes to the query: a string sets, undefined (or "") removes; other parameters stay. */
export type QueryChanges = Record<string, string | undefined>;

export function applyChanges(current: URLSearchParams, changes: QueryChanges): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined || value === "") next.delete(name);
    else next.set(name, value);
  }
  return next;
}

/** The query as list state, and a setter that keeps the parameters it is not given. */
export function useUrlQuery() {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (changes: QueryChanges, options: { replace?: boolean } = {}) =>
      setParams((current) => applyChanges(current, changes), { replace: options.replace ?? false }),
    [setParams],
  );
  return { params, update };
}

/** `?<name>=` as the page of one paged list: page 1 leaves the address clean. */
export function useUrlPage(name = "page") {
  const { params, update } = useUrlQuery();
  const page = pageFrom(params.get(name));
  const setPage = useCallback(
    (next: number, options?: { replace?: boolean }) => update({ [name]: next > 1 ? String(next) : undefined }, options),
    [update, name],
  );
  /** For corrections (a page past the last after archiving): replace, no history entry. */
  const correctPage = useCallback((next: number) => setPage(next, { replace: true }), [setPage]);
  return { page, setPage, correctPage };
}
