// antd's Table (with its pagination, selects and filter trees: ~85 KB gzip) as a chunk of its own,
// fetched when a screen first shows a table rather than before the screen can paint. The screen's
// data is requested at the same time, so the table rarely waits for its code. Used as antd's Table.
import { lazy, Suspense } from "react";
import type { TableProps } from "antd";
import { LazyLoading } from "./LazyLoading";

// lazy() loses the generic signature: the wrapper below restores it for callers.
const AntTable = lazy(() => import("antd/es/table")) as unknown as (props: TableProps<object>) => React.ReactElement;

export function Table<T extends object>(props: TableProps<T>) {
  return (
    <Suspense fallback={<LazyLoading />}>
      <AntTable {...(props as unknown as TableProps<object>)} />
    </Suspense>
  );
}

/** A small table of a short list, every row at once: no pages. */
export function ListTable<T extends object>(props: TableProps<T>) {
  return <Table<T> size="small" pagination={false} {...props} />;
}
