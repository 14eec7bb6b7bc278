// How an upload's reader finds the registry's columns in a file, and how an error names a column:
// shared by every reader of calculation inputs, series and forecast histories.
import { columnHeaderKeys, uploadHeader, type UploadColumn } from "@core/registry";
import type { ColumnSpec, ParsedTable } from "./tabular";

/** How the reader looks for a registry column of an upload (a missing one is named with its label). */
export function columnSpec(column: UploadColumn, name = column.name): ColumnSpec {
  const label = column.namedBy ? `${column.label.toLowerCase()}${column.unit ? `, ${column.unit}` : ""}` : uploadHeader(column);
  return { name, label, required: !column.optional, kind: column.kind, headers: columnHeaderKeys(column, name), unit: column.unit };
}

/** A column as an error names it: the file's own header, else the name. */
export const headerOf = (table: Pick<ParsedTable, "headers">, name: string) => table.headers[name] ?? name;
