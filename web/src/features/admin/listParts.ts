// What the administrator's lists share: the pages of a list the server sends whole (ten rows a page,
// the page in the address like every list of the app, no pager while one page holds them all) and
// the «Действия» column of a row's buttons.
import type { ReactNode } from "react";
import type { TablePaginationConfig } from "antd";
import type { ColumnType } from "antd/es/table";
import { useUrlPage } from "../../shared/urlState";

export function useListPagination(): TablePaginationConfig {
  const { page, setPage } = useUrlPage();
  return { current: page, onChange: (next) => setPage(next), pageSize: 10, hideOnSinglePage: true };
}

export function actionsColumn<T>(width: number, render: (row: T) => ReactNode): ColumnType<T> {
  return { title: "Действия", key: "actions", width, render: (_, row) => render(row) };
}
