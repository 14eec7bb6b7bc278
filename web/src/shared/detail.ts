// Where a server refusal belongs in the forecast and file dialogs. The server names the field
// first ("name_value: …", "data[3].x7: …"); a file's problems name the sheet, row and column
// ("Лист «CSV», строка 3, столбец «x7»: …") and go under the file field, as do 413 and 415.
import { fieldProblem, type Refusal } from "./fieldErrors";

export interface RoutedDetail {
  /** "name", a field name, "data" (the manual rows), "file_data", or undefined: on top of the dialog. */
  target?: string;
  message: string;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * `rowNumber` turns the index of a sent data row into the number the table shows (blank rows are
 * not sent, so the two can differ).
 */
export function routeDetail(
  status: number,
  refusal: Refusal,
  fields: readonly string[],
  sentFile: boolean,
  rowNumber: (index: number) => number = (index) => index + 1,
): RoutedDetail {
  const { detail } = refusal;
  if (status === 409) return { message: detail };
  const named = fieldProblem(refusal);
  const row = named && /^data\[(\d+)\]\.([a-z0-9_]+)$/.exec(named.field);
  if (named && row) return { target: "data", message: `Строка ${rowNumber(Number(row[1]))}, «${row[2]}»: ${named.message}` };
  if (named && (named.field === "name" || named.field === "data" || named.field === "file_data" || fields.includes(named.field))) {
    return { target: named.field, message: capitalised(named.message) };
  }
  if (sentFile && (status === 400 || status === 413 || status === 415)) return { target: "file_data", message: detail };
  return { message: detail };
}
