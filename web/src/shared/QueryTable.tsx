// A list the server answers, as a table: what could not be loaded (with «Повторить») above it, a
// spinner while it loads, the words of an empty list. The cards of webhooks, their deliveries,
// gateway keys, a facility's batches and sensors show theirs so; the cards of webhooks, gateway keys
// and batches are one ListCard.
import type { CSSProperties, ReactNode } from "react";
import { Alert, Card, Flex, Typography, type TableProps } from "antd";
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

interface QueryTableProps<T> extends Pick<TableProps<T>, "columns" | "rowKey"> {
  query: ListQuery<T>;
  /** «Не удалось загрузить {what}». */
  what: string;
  empty: string;
  /** The width below which the table scrolls inside its card. */
  width: number;
}

export function QueryTable<T extends object>({ query, what, empty, width, ...table }: QueryTableProps<T>) {
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

/** A card of such a list: what it is for, a note, what a write was refused, then the list and what
 *  adds to it (`children`). */
export function ListCard({
  title,
  intro,
  note,
  failure,
  testId,
  style,
  children,
}: {
  title: string;
  intro: ReactNode;
  note?: ReactNode;
  failure?: Error | null;
  testId?: string;
  style?: CSSProperties;
  children: ReactNode;
}) {
  return (
    <Card title={title} style={style} data-testid={testId}>
      <Flex vertical gap={12}>
        <Typography.Paragraph style={{ margin: 0 }}>{intro}</Typography.Paragraph>
        {note}
        {failure && <Alert type="error" showIcon role="alert" title={failure.message} />}
        {children}
      </Flex>
    </Card>
  );
}
