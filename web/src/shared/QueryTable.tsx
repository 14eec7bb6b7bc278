// A list the server answers, as a table: what could not be loaded (with «Повторить») above it, a
// spinner while it loads, the words of an empty list. The cards of webhooks, their deliveries,
// gateway keys and sensors show theirs so.
import type { TableProps } from "antd";
import { LoadError } from "./LoadError";
import { ResponsiveTable } from "./ResponsiveTable";

/** What the table needs of a query (TanStack Query's result). */
export interface ListQuery<T> {
  data?: T[];
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  refetch(): unknown;
}

export function QueryTable<T extends object>({
  query,
  what,
  empty,
  width,
  ...table
}: {
  query: ListQuery<T>;
  /** «Не удалось загрузить {what}». */
  what: string;
  empty: string;
  /** The width below which the table scrolls inside its card. */
  width: number;
} & Pick<TableProps<T>, "columns" | "rowKey">) {
  return (
    <>
      {query.isError && <LoadError what={what} message={query.error?.message ?? ""} retry={() => query.refetch()} />}
      <ResponsiveTable<T>
        size="small"
        pagination={false}
        loading={query.isPending}
        scroll={{ x: width }}
        dataSource={query.data ?? []}
        locale={{ emptyText: empty }}
        {...table}
      />
    </>
  );
}
