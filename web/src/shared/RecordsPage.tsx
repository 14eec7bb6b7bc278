// A page of the company's stored records («Снижение выбросов», «Климатические проекты»): its title
// with the button that starts a new record, what the page is for, the list whose names open a record
// (or what could not be loaded, with «Повторить»), and the open record, or the new one, below it.
import type { ReactNode } from "react";
import { Button, Flex, Typography, type TableColumnsType, type TableProps } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import { Table } from "./LazyTable";
import { LoadError } from "./LoadError";

interface Props<T> extends Pick<TableProps<T>, "rowClassName"> {
  testId: string;
  title: string;
  /** The button that starts a new record: «Новая оценка». */
  newText: string;
  onNew(): void;
  intro: ReactNode;
  list: { error: Error | null; isLoading: boolean; data?: { results: T[] }; refetch(): unknown };
  /** «Не удалось загрузить {what}». */
  what: string;
  empty: string;
  /** The name column's title; a record's name opens it. */
  nameTitle: string;
  onOpen(row: T): void;
  /** The columns after the name. */
  columns: TableColumnsType<T>;
  /** The width below which the table scrolls. */
  width: number;
  /** The open record or the new one. */
  children: ReactNode;
}

export function RecordsPage<T extends { id: string; name: string }>({
  testId,
  title,
  newText,
  onNew,
  intro,
  list,
  what,
  empty,
  nameTitle,
  onOpen,
  columns,
  width,
  rowClassName,
  children,
}: Props<T>) {
  return (
    <Flex vertical gap={16} data-testid={testId}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Title level={2} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={onNew}>
          {newText}
        </Button>
      </Flex>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {intro}
      </Typography.Paragraph>
      {list.error ? (
        <LoadError what={what} message={list.error.message} retry={() => void list.refetch()} />
      ) : (
        <Table<T>
          size="small"
          rowKey="id"
          loading={list.isLoading}
          dataSource={list.data?.results ?? []}
          pagination={false}
          scroll={{ x: width }}
          locale={{ emptyText: empty }}
          rowClassName={rowClassName}
          columns={[
            {
              title: nameTitle,
              dataIndex: "name",
              render: (name: string, row) => (
                <Button type="link" style={{ padding: 0, whiteSpace: "normal", textAlign: "left" }} onClick={() => onOpen(row)}>
                  {name}
                </Button>
              ),
            },
            ...columns,
          ]}
        />
      )}
      {children}
    </Flex>
  );
}
