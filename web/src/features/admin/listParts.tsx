// What the administrator's lists share: the pages of a list the server sends whole (ten rows a page,
// the page in the address like every list of the app, no pager while one page holds them all), the
// list of what is chosen above it, and the «Действия» column of a row's buttons.
import type { ReactNode } from "react";
import type { TablePaginationConfig, TableProps } from "antd";
import type { ColumnType } from "antd/es/table";
import { Table } from "../../shared/LazyTable";
import { useUrlPage } from "../../shared/urlState";
import { LIMITS } from "@server/contract";

export function useListPagination(): TablePaginationConfig {
  const { page, setPage } = useUrlPage();
  return { current: page, onChange: (next) => setPage(next), pageSize: LIMITS.page.adminList, hideOnSinglePage: true };
}

export function actionsColumn<T>(width: number, render: (row: T) => ReactNode): ColumnType<T> {
  return { title: "Действия", key: "actions", width, render: (_, row) => render(row) };
}

interface ChosenListProps<T> extends TableProps<T> {
  /** Whether anything is chosen yet: until then the list is empty and says `choose`. */
  chosen: boolean;
  list: { isLoading: boolean; data?: { results: T[] } };
  empty: string;
  choose: string;
}

/** The rows of what is chosen above the list (a company's users, a dictionary's entries), by pages. */
export function ChosenList<T extends { id: string | number }>({ chosen, list, empty, choose, ...props }: ChosenListProps<T>) {
  const pagination = useListPagination();
  return (
    <Table<T>
      rowKey="id"
      loading={list.isLoading && chosen}
      dataSource={list.data?.results ?? []}
      locale={{ emptyText: chosen ? empty : choose }}
      pagination={pagination}
      {...props}
    />
  );
}
