// A year's heat map by month: a row a sensor or a source, its head kept in sight while the twelve months
// scroll (to the latest month with data first). «Полнота данных датчиков» and «Данные АГК» show theirs
// so; what a cell says is each page's own.
import type { ReactNode } from "react";
import { SideScroll } from "../../../shared/SideScroll";

const MONTHS = ["янв", "фев", "мар", "апр", "май", "июн", "июл", "авг", "сен", "окт", "ноя", "дек"];
/** The first column, kept in sight while the months scroll. */
const STICKY = { position: "sticky", left: 0, background: "#fff", zIndex: 1, textAlign: "left", padding: "2px 8px 2px 0" } as const;

export function MonthGrid<R>({
  label,
  testId,
  corner,
  year,
  latest,
  rows,
  rowKey,
  rowHead,
  cell,
}: {
  /** The table's accessible name. */
  label: string;
  testId: string;
  /** The words above the row heads. */
  corner?: ReactNode;
  year: number;
  /** The latest month with data («2025-07»), scrolled into sight. */
  latest: string | undefined;
  rows: readonly R[];
  rowKey: (row: R) => string;
  rowHead: (row: R) => ReactNode;
  /** The row's cell of a month («2025-07»): a <td> with the month as its key. */
  cell: (row: R, month: string) => ReactNode;
}) {
  const months = MONTHS.map((_, i) => `${year}-${String(i + 1).padStart(2, "0")}`);
  return (
    <SideScroll latest={latest} testId={testId}>
      <table style={{ borderCollapse: "collapse" }} aria-label={label}>
        <thead>
          <tr>
            <th style={{ ...STICKY, fontWeight: 500 }}>{corner}</th>
            {MONTHS.map((m) => (
              <th key={m} style={{ padding: "2px 6px", fontWeight: 400 }}>
                {m}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              <th scope="row" style={{ ...STICKY, fontWeight: 400, minWidth: 120 }}>
                {rowHead(row)}
              </th>
              {months.map((month) => cell(row, month))}
            </tr>
          ))}
        </tbody>
      </table>
    </SideScroll>
  );
}
