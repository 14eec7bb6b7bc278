// One CSV reader for the command-line tools and the GBDT feature files (pure, runs in the browser too).

export interface CsvRecord {
  fields: string[];
  /** 1-based line the record starts on (a quoted field may span lines). */
  line: number;
}

/** RFC 4180 records: commas, CRLF or LF, double-quoted fields with "" for a quote. A leading BOM
 *  is dropped and records whose fields are all empty are skipped. */
export function parseCsvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  const endRecord = () => {
    record.push(field);
    if (record.some((f) => f !== "")) records.push({ fields: record, line: recordLine });
    record = [];
    field = "";
  };
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
    } else if (ch === '"' && field === "") quoted = true;
    else if (ch === ",") {
      record.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") {
        i++;
        line++;
      }
      endRecord();
      recordLine = line;
    } else field += ch;
  }
  if (quoted) throw new Error("unterminated quoted field");
  endRecord();
  return records;
}

export function parseCsv(text: string): string[][] {
  return parseCsvRecords(text).map((record) => record.fields);
}
