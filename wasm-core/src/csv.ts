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

export const CSV_ENCODING_MESSAGE =
  "Не удалось прочитать файл CSV: его кодировка не UTF-8 и не Windows-1251. Сохраните файл в Excel как «CSV UTF-8 (разделитель — запятая)» или «CSV (разделители — точки с запятой)»";

/** A CSV whose bytes are neither UTF-8 nor Windows-1251 text (CSV_ENCODING_MESSAGE). */
export class CsvEncodingError extends Error {
  constructor() {
    super(CSV_ENCODING_MESSAGE);
    this.name = "CsvEncodingError";
  }
}

/** Non-ASCII characters that Windows-1251 text of this product holds besides Cyrillic letters:
 *  typographic punctuation, the no-break space, units' signs. Any other (Ђ, ‡, ¤, the C1 controls
 *  …) means the bytes were written in another encoding. */
const CP1251_PUNCTUATION = new Set("\u00a0«»–—№°±µ·§©®™…„“”‘’‚•€‰");
const CYRILLIC_LETTER = /[А-яЁёЄєІіЇїЎўҐґ]/;
const UPPER = /[А-ЯЁЄІЇЎҐ]/;
const LOWER = /[а-яёєіїўґ]/;

/** Whether text decoded as Windows-1251 reads as such: only Cyrillic letters and the usual signs
 *  outside ASCII, and words that look like words. Odd words are those that mix Latin and Cyrillic
 *  letters, or put a capital after a small letter (unit symbols such as «кВт» aside): what cp1252
 *  «Größe» → «GrцЯe» or KOI8-R «Шахта» → «ыБХФБ» give. One odd word, or a quarter of them, is
 *  tolerated (a «СН4» typed with a Latin H). */
export function plausibleCp1251(text: string): boolean {
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) continue;
    if (!CYRILLIC_LETTER.test(ch) && !CP1251_PUNCTUATION.has(ch)) return false;
  }
  let words = 0;
  let odd = 0;
  for (const word of text.match(/[A-Za-zА-яЁёЄєІіЇїЎўҐґ]+/g) ?? []) {
    if (!CYRILLIC_LETTER.test(word)) continue;
    words += 1;
    const mixed = /[A-Za-z]/.test(word);
    const capitalAfterSmall = word.length > 3 && [...word].some((ch, i) => i > 0 && UPPER.test(ch) && LOWER.test(word[i - 1]));
    if (mixed || capitalAfterSmall) odd += 1;
  }
  return odd <= Math.max(1, words / 4);
}

/** The one decoder of every CSV the product reads, on the server (files/tabular.ts) and in the
 *  browser (a history trained on the page): UTF-8 (with or without a BOM), else Windows-1251 (what
 *  Russian Excel's «CSV (разделители — точки с запятой)» writes) when it reads as Cyrillic text,
 *  else CsvEncodingError; so is UTF-16 (Excel's «Текст Юникод»). Node's full ICU, in the official
 *  builds and Lambda's runtime, and every browser decode windows-1251. */
export function decodeCsvBytes(bytes: Uint8Array): string {
  const [b0, b1] = bytes;
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff)) throw new CsvEncodingError();
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder("windows-1251").decode(bytes);
    if (!plausibleCp1251(text)) throw new CsvEncodingError();
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
