// A table on a wide screen; on a phone its rows as blocks of «label: value» lines (StackedTable,
// StackedRows), from the same columns, with its footer, its pages and each row's expansion under the
// row, so nothing on a phone is read by scrolling sideways. Used as antd's Table (LazyTable.tsx).
// The phone's form is a chunk of its own, fetched when a phone first shows a table: it kept 3 KB gzip
// out of every such route's first load (tests/web/bundle.test.ts).
import { lazy, Suspense } from "react";
import type { TableProps } from "antd";
import { Table } from "./LazyTable";
import { LazyLoading } from "./LazyLoading";
import { usePhone } from "./useMediaQuery";

// lazy() loses the generic signature: the wrapper below restores it for callers.
const StackedTable = lazy(() => import("./StackedTable")) as unknown as (props: TableProps<object>) => React.ReactElement;

export function ResponsiveTable<T extends object>(props: TableProps<T>) {
  const phone = usePhone();
  if (!phone) return <Table<T> {...props} />;
  return (
    <Suspense fallback={<LazyLoading />}>
      <StackedTable {...(props as unknown as TableProps<object>)} />
    </Suspense>
  );
}
