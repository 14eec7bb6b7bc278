// While a converter's reference data (or the core) loads: «Loading ...»; on failure, a retry.
import { LoadError } from "../../shared/LoadError";
import { PageLoading } from "../../shared/PageLoading";

interface Loadable {
  isError: boolean;
  error: Error | null;
  refetch(): unknown;
}

export function LoadState({ query, what = "справочник" }: { query: Loadable; what?: string }) {
  if (!query.isError) return <PageLoading />;
  return <LoadError what={what} message={query.error?.message ?? ""} retry={() => void query.refetch()} />;
}
