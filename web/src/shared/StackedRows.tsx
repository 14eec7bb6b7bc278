// A table's rows as a phone shows them: each row a block of «label: value» lines, one under another,
// so nothing is read by scrolling sideways. Takes the table's own columns (title, dataIndex, render),
// so the phone and the wide screen show the same fields from one definition.
import type { ReactNode } from "react";
import { Empty, Flex, Typography } from "antd";
import type { ColumnType } from "antd/es/table";

/** A table column as the table defines it (its title, field and render). */
export type StackedColumn<T> = Pick<ColumnType<T>, "title" | "key" | "render"> & { dataIndex?: string };

export function StackedRows<T>({
  rows,
  columns,
  rowKey,
  empty,
  testId,
  more,
}: {
  rows: readonly T[];
  columns: readonly StackedColumn<T>[];
  rowKey: (row: T) => string;
  empty?: ReactNode;
  testId?: string;
  /** What a row opens (a table's expanded row): under its lines, behind «Подробнее». */
  more?: (row: T) => ReactNode;
}) {
  if (rows.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />;
  return (
    <Flex vertical gap={12} data-testid={testId}>
      {rows.map((row, index) => (
        <div key={rowKey(row)} style={{ border: "1px solid #f0f0f0", borderRadius: 8, padding: 12 }}>
          {columns.map((column, i) => {
            const value = column.dataIndex ? (row as Record<string, unknown>)[column.dataIndex] : undefined;
            const rendered = column.render ? column.render(value, row, index) : value;
            // A cell a table would span (RenderedCell) shows its children.
            const shown = (rendered && typeof rendered === "object" && "children" in rendered ? rendered.children : rendered) as ReactNode;
            return (
              <div key={String(column.key ?? column.dataIndex ?? i)} style={{ marginTop: i === 0 ? 0 : 8, overflowWrap: "anywhere" }}>
                {column.title && typeof column.title !== "function" && (
                  <Typography.Text type="secondary" style={{ display: "block", fontSize: 12 }}>
                    {column.title}
                  </Typography.Text>
                )}
                <div>{shown ?? "—"}</div>
              </div>
            );
          })}
          {more && (
            <details style={{ marginTop: 8 }}>
              <summary style={{ cursor: "pointer" }}>Подробнее</summary>
              <div style={{ marginTop: 8 }}>{more(row)}</div>
            </details>
          )}
        </div>
      ))}
    </Flex>
  );
}
