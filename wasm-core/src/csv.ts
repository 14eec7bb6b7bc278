// The one CSV reader of the code base: the command-line tools, the GBDT feature files (pure, runs
// in the browser too) and the API's tabular uploads (functions/src/files/tabular.ts).

export interface CsvRecord {
  fields: string[];
  /** 1-based line the record starts on (a quoted field may span lines). */
  line: number;
}

export interface CsvOptions {
  /** "," unless given (Russian Excel writes ";"). */
  delimiter?: string;
  /** Keep a record of empty fields («,,,»: a row of missing values); only a blank line is skipped. */
  keepEmptyRows?: boolean;
}

/** A quoted field that never closes; `line` is where its record starts. */
export class UnterminatedQuote extends Error {
  constructor(readonly line: number) {
    super("unterminated quoted field");
  }
}

/** RFC 4180 records, one at a time (a reader may stop early): a delimiter, CRLF, LF or CR,
 *  double-quoted fields with "" for a quote. A quote after nothing but blanks opens a quoted field
 *  (the blanks go), as people type «1; "2"». A leading BOM is dropped and records whose fields are
 *  all empty are skipped (with keepEmptyRows, blank lines only). */
export function* csvRecords(text: string, options: CsvOptions = {}): Generator<CsvRecord> {
  const delimiter = options.delimiter ?? ",";
  const kept = options.keepEmptyRows
    ? (fields: string[]) => fields.length > 1 || fields[0] !== ""
    : (fields: string[]) => fields.some((f) => f !== "");
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\n" || (ch === "\r" && text[i + 1] !== "\n")) line++;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field.trim() === "") {
      quoted = true;
      field = "";
    } else if (ch === delimiter) {
      record.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") {
        i++;
        line++;
      }
      record.push(field);
      if (kept(record)) yield { fields: record, line: recordLine };
      record = [];
      field = "";
      recordLine = line;
    } else field += ch;
  }
  if (quoted) throw new UnterminatedQuote(recordLine);
  record.push(field);
  if (kept(record)) yield { fields: record, line: recordLine };
}

/** The delimiter of a CSV's text: what its first line holds («;» before a tab before «,»: headers
 *  carry commas of their own, «…, м³/мин»). */
export function csvDelimiter(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  // Russian Excel writes CSV with ";" and decimal commas.
  return firstLine.includes(";") ? ";" : firstLine.includes("\t") ? "\t" : ",";
}

export function parseCsvRecords(text: string, options: CsvOptions = {}): CsvRecord[] {
  return [...csvRecords(text, options)];
}

export function parseCsv(text: string): string[][] {
  return parseCsvRecords(text).map((record) => record.fields);
}
