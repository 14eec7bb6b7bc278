// ResponsiveTable's phone form (ResponsiveTable.tsx): the table's rows as blocks of «label: value»
// lines (StackedRows), with its footer, its pages and each row's expansion under the row. A chunk of
// its own, fetched when a phone first shows a table: a wide screen never loads it.
import { lazy, Suspense, type ReactNode } from "react";
import { Flex, Spin, type TableProps } from "antd";
import type { ColumnType } from "antd/es/table";
import { StackedRows, type StackedColumn } from "./StackedRows";

// antd's Pagination brings its page-size Select (~22 KB gzip): fetched when a phone first pages.
const Pagination = lazy(() => import("antd/es/pagination"));

export default function StackedTable<T extends object>(props: TableProps<T>) {
  const rows = (props.dataSource ?? []) as readonly T[];
  // Only leaf columns have a field to show: a grouped header's children are listed in its place.
  const columns = (props.columns ?? []).flatMap((column) =>
    "children" in column && column.children ? column.children : [column],
  ) as Array<ColumnType<T> & StackedColumn<T>>;
  const rowKey = (row: T) =>
    typeof props.rowKey === "function"
      ? String(props.rowKey(row))
      : String((row as Record<string, unknown>)[(props.rowKey as string | undefined) ?? "key"]);
  const expand = props.expandable?.expandedRowRender;
  const pagination = props.pagination || undefined;
  const loading = typeof props.loading === "object" ? Boolean(props.loading.spinning) : Boolean(props.loading);
  return (
    <Flex vertical gap={12}>
      <Spin spinning={loading}>
        <StackedRows
          rows={rows}
          columns={columns.filter((column) => column.title !== undefined || column.render !== undefined)}
          rowKey={rowKey}
          empty={props.locale?.emptyText as ReactNode}
          more={expand ? (row) => expand(row, 0, 0, true) : undefined}
          testId="stacked-rows"
        />
      </Spin>
      {pagination && pagination.total !== undefined && pagination.total > (pagination.pageSize ?? 10) && (
        <Suspense fallback={null}>
          <Pagination
            simple
            align="center"
            current={pagination.current}
            pageSize={pagination.pageSize}
            total={pagination.total}
            onChange={(page, size) => pagination.onChange?.(page, size)}
          />
        </Suspense>
      )}
      {props.footer?.(rows)}
    </Flex>
  );
}
