// Invalid input of one field, as the core refuses it: the field (and row, for columns and series), a
// Russian message for the user, and for the API's structured field error (contract/field-errors.ts,
// `{field, code, message, params}`) a machine code and the bound or value the message quotes. Its own
// module so the core's unit conversions (entry-units.ts) and the facade (emissions-core.ts) share it.
// Browser-safe: no Node imports.
export class FieldError extends Error {
  readonly field: string;
  readonly row: number | undefined;
  /** `too_big` for a value over its field's bound, else `invalid`. */
  readonly code: string;
  readonly params: Readonly<Record<string, string | number>>;

  constructor(field: string, message: string, row?: number, code = "invalid", params: Readonly<Record<string, string | number>> = {}) {
    super(message);
    this.name = "FieldError";
    this.field = field;
    this.row = row;
    this.code = code;
    this.params = params;
  }
}
