// A file refused for its type, size or content: the readers of this folder throw it with its kind
// and the Russian detail the API answers with (http/errors.ts maps it like the domain's errors), so
// that reading a file needs nothing of the domain.
import { detailOf, type FieldProblem } from "../contract/field-errors";

export class FileRefused extends Error {
  readonly detail: string;
  /** The problem at the request's file field, when the refusal names it (an empty file). */
  readonly problems?: readonly FieldProblem[];
  constructor(
    /** The domain error kinds a file is refused with (domain/errors.ts ErrorKind). */
    readonly kind: "invalid" | "too_large" | "unsupported_media",
    said: string | readonly FieldProblem[],
  ) {
    const detail = typeof said === "string" ? said : detailOf(said);
    super(detail);
    this.name = new.target.name;
    this.detail = detail;
    if (typeof said !== "string") this.problems = said;
  }
}

/** A refused file's content. */
export const badFile = (detail: string) => new FileRefused("invalid", detail);

/** Where a refused cell of an uploaded table is: its sheet, its row as the file numbers it, its
 *  column's header as the file writes it, and the element (a series' group) when there is one. */
export interface CellAt {
  sheet: string;
  row: number;
  header: string;
  element?: string;
}

/** «Лист «CSV», строка 3, столбец «Расход газовой смеси, м³/мин»: …», as every upload error reads. */
export const cellText = (at: CellAt, message: string): string =>
  `Лист «${at.sheet}», строка ${at.row}${at.element !== undefined ? `, элемент «${at.element}»` : ""}, столбец «${at.header}»: ${message}`;
