// While a converter's reference data (or the core) loads: «Loading ...»; on failure, a retry.
import { Alert, Button } from "antd";
import { PageLoading } from "../shell/PageLoading";

interface Loadable {
  isError: boolean;
  error: Error | null;
  refetch(): unknown;
}

export function LoadState({ query, what = "справочник" }: { query: Loadable; what?: string }) {
  if (!query.isError) return <PageLoading />;
  return (
    <Alert
      type="error"
      showIcon
      title={`Не удалось загрузить ${what}: ${query.error?.message ?? ""}`}
      action={<Button onClick={() => void query.refetch()}>Повторить</Button>}
    />
  );
}
