// A mine's dispatch-system export read line by line (methodology D57): a CSV in Windows-1251 or UTF-8
// with «;» (or «,» or a tab), decoded by the one CSV decoder (decodeCsvBytes), either one column per
// sensor code after the time («Время;М-12;Q-1», a row a minute) or one row per reading
// («Датчик;Время;Значение», or the push's own sensor;t;value). Times written «ДД.ММ.ГГГГ ЧЧ:ММ[:СС]»
// (or «ДД.ММ.ГГ», the year of this century; or the date in a column «Дата» of its own beside «Время»)
// are the mine's wall clock, read on the company's (its zone); ISO 8601 instants with a zone are read
// as written. Values may carry a decimal comma and grouping spaces; an empty cell is no reading.
//
// The bytes are pushed in pieces of any size (a ranged read of the stored file, or a whole file in
// memory): they are cut at line ends into blocks of about BLOCK_BYTES, each decoded and read on its own,
// so a year's file (70-400 MB) is never held whole. A block the decoder refuses is decoded line by
// line, and each line whose bytes are neither UTF-8 nor Windows-1251 is refused with its number while
// the others are kept; a header that cannot be read refuses the file (its sensor codes are unknown).
import { DISPATCH_TIME_FORMATS } from "../../../contract/dispatch-formats";
import { CSV_ENCODING_MESSAGE, CsvEncodingError, UnterminatedQuote, csvDelimiter, csvRecords, decodeCsvBytes } from "@core/csv";
import { instantOfWallTime } from "@core/company-clock";
import { readTypedNumber } from "@core/typed-numbers";
import { ruDate } from "@core/dates";
import { Invalid } from "../../errors";
import { LIMITS } from "../../../contract/schemas/limits";

/** What a block is cut to before it is decoded: small enough to keep the event loop answering. */
export const BLOCK_BYTES = 256 * 1024;

// a dispatch system may write the year in two digits («26.11.26 00:00», this century's).
const LOCAL_TIME = /^(\d{2})\.(\d{2})\.(\d{4}|\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const ZONED_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const TIME_HEADERS = new Set(["время", "дата", "дата и время", "t", "time", "timestamp"]);
/** A date in a column of its own beside «Время» («Дата;Время;М-12», as dispatch systems write it). */
const DATE_HEADER = "дата";
const TIME_OF_DAY_HEADER = "время";
const SENSOR_HEADERS = new Set(["датчик", "код", "код датчика", "sensor"]);

/** A dispatch file refused whole at a line of it («Строка N: …»), the line as data. */
export class LineInvalid extends Invalid {
  constructor(
    readonly line: number,
    detail: string,
  ) {
    super(detail);
  }
}

export const EMPTY_FILE_MESSAGE = "Строка 1: файл пустой (0 байт) — в нем нет ни заголовка, ни показаний";
export const encodingMessage = (line: number) =>
  `Строка ${line}${line === 1 ? " (заголовок)" : ""}: ${CSV_ENCODING_MESSAGE.replace("Не удалось прочитать файл CSV", "не удалось прочитать")}`;
export const UNDECODABLE_LINE = "байты строки не в кодировке UTF-8 и не в Windows-1251: строка не прочитана";
/** Why a time before `oldest` (readings.ts oldestReading) is refused. */
export const tooOldMessage = (time: string, oldest: number) =>
  `время ${time.slice(0, 40)} раньше ${ruDate(new Date(oldest).toISOString().slice(0, 10))}: показания старше ${LIMITS.monitoring.pastMonths} мес. не принимаются`;
export const LINE_TOO_LONG = `строка длиннее ${LIMITS.monitoring.lineBytes / (1024 * 1024)} МБ: не прочитана`;
export const UNTERMINATED_QUOTE = "кавычка в строке не закрыта: строка не прочитана";
export const HEADER_MESSAGE =
  "Строка 1: ожидается заголовок выгрузки АГК — «Время;<код датчика>;…» (столбец на датчик) или «Датчик;Время;Значение» (строка на показание)";

/** Where a reading goes; `reading` answers why it is refused (a sensor not in the register at `t`), or nothing. */
/** what a refusal leaves out — one value of a line (its other values read), the whole line,
 *  or the cells a line cut short lacks (the cells it has read). */
export type RefusalKind = "value" | "line" | "incomplete";

export interface DispatchSink {
  reading(line: number, code: string, t: number, value: number): string | undefined;
  /** `at`: the instant of what is refused where the line's time was read (a value refused, a line cut
   *  short), with the codes of the sensors it leaves unread (none: every sensor of the line); absent where
   *  the line's time was not read. */
  refuse(line: number, reason: string, kind?: RefusalKind, at?: { t: number; codes?: readonly string[] }): void;
}

export interface DispatchOptions {
  /** The company's clock, for «ДД.ММ.ГГГГ ЧЧ:ММ:СС». */
  zone: string;
  /** A time more than `futureMinutes` past `now` is refused (unless `now` is absent). */
  now?: number;
  futureMinutes?: number;
  /** A time before `oldest` is refused (readings.ts oldestReading). */
  oldest?: number;
  /** Whether the register holds a sensor of this code (a column of an unknown code is refused once, at the header). */
  known?: (code: string) => boolean;
}

/** The CSV records of `text`, numbered from `firstLine`. A quote never closed refuses the line it opened
 *  on (UNTERMINATED_QUOTE, through `refuse`), and the lines after it are read one by one: a stray quote
 *  costs its own line, not the rest of the text, and the text is read once (never again from each bad
 *  line). A quoted field may span lines only before the first such quote. */
export function* csvLineRecords(
  text: string,
  delimiter: string,
  firstLine: number,
  refuse: (line: number, reason: string) => void,
): Generator<{ fields: string[]; line: number }> {
  const records = csvRecords(text, { delimiter });
  let broken: number;
  for (;;) {
    let next: IteratorResult<{ fields: string[]; line: number }>;
    try {
      next = records.next();
    } catch (error) {
      if (!(error instanceof UnterminatedQuote)) throw error;
      broken = error.line;
      break;
    }
    if (next.done) return;
    yield { fields: next.value.fields, line: firstLine + next.value.line - 1 };
  }
  refuse(firstLine + broken - 1, UNTERMINATED_QUOTE);
  // The text after the broken line, a line at a time (line ends as csvRecords counts them: LF, CRLF, CR).
  const lineEnd = /\r\n|\n|\r/g;
  let line = 1;
  while (line <= broken && lineEnd.exec(text)) line++;
  if (line <= broken) return;
  let start = lineEnd.lastIndex;
  while (start < text.length) {
    const end = lineEnd.exec(text);
    const stop = end ? end.index : text.length;
    let fields: { fields: string[] }[] = [];
    try {
      fields = [...csvRecords(text.slice(start, stop), { delimiter })];
    } catch (error) {
      if (!(error instanceof UnterminatedQuote)) throw error;
      refuse(firstLine + line - 1, UNTERMINATED_QUOTE);
    }
    for (const record of fields) yield { fields: record.fields, line: firstLine + line - 1 };
    if (!end) return;
    start = lineEnd.lastIndex;
    line++;
  }
}

/** The first line of `bytes` the decoder refuses, 1-based (undefined: none). */
export function firstUndecodableLine(bytes: Uint8Array): number | undefined {
  let start = 0;
  for (let line = 1; start <= bytes.length; line++) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    try {
      decodeCsvBytes(bytes.subarray(start, end));
    } catch (error) {
      if (error instanceof CsvEncodingError) return line;
      throw error;
    }
    start = end + 1;
  }
  return undefined;
}

/** Reads a dispatch export pushed in pieces: `push` each piece, then `end`. Throws Invalid (naming the
 *  line) when the file as a whole cannot be read: empty, its header undecodable or not a dispatch header. */
export class DispatchReader {
  /** Lines read so far (the header too). */
  lines = 0;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private delimiter: string | undefined;
  /** `date`: the column of the date where the time of day has its own (`time`), or -1. */
  private layout:
    | { kind: "columns"; date: number; time: number; codes: (string | undefined)[] }
    | { kind: "rows"; sensor: number; date: number; time: number; value: number }
    | undefined;
  private readonly hourStarts = new Map<string, number>();
  private first = true;
  private total = 0;
  /** Whether the line being read was refused as too long, its bytes dropped until its end. */
  private skipping = false;

  constructor(
    private readonly options: DispatchOptions,
    private readonly sink: DispatchSink,
  ) {}

  push(bytes: Uint8Array): void {
    // In pieces of a block at most, so that only a line carried from piece to piece can grow long.
    for (let at = 0; at < bytes.byteLength; at += BLOCK_BYTES) this.piece(bytes.subarray(at, at + BLOCK_BYTES));
  }

  private piece(bytes: Uint8Array): void {
    this.total += bytes.byteLength;
    if (this.skipping) {
      // The rest of a line too long to read: dropped up to its end.
      const end = bytes.indexOf(0x0a);
      if (end < 0) return;
      this.skipping = false;
      bytes = bytes.subarray(end + 1);
      if (bytes.byteLength === 0) return;
    }
    this.pending.push(bytes);
    this.pendingBytes += bytes.byteLength;
    if (this.pendingBytes < BLOCK_BYTES) return;
    let joined = this.take();
    // What is pending begins a line: past the bound it is refused by its number and never held whole.
    const first = joined.indexOf(0x0a);
    if ((first < 0 ? joined.byteLength : first) > LIMITS.monitoring.lineBytes) {
      this.tooLong();
      if (first < 0) {
        this.skipping = true;
        return;
      }
      joined = joined.subarray(first + 1);
    }
    const cut = joined.lastIndexOf(0x0a);
    if (cut < 0) {
      this.keep(joined);
      return;
    }
    this.block(joined.subarray(0, cut + 1));
    this.keep(joined.subarray(cut + 1));
  }

  /** The line being read is longer than LIMITS.monitoring.lineBytes: refused by its number (a header
   *  that long refuses the file). */
  private tooLong() {
    const line = ++this.lines;
    if (!this.layout)
      throw new LineInvalid(line, `Строка ${line}${line === 1 ? " (заголовок)" : ""}: ${LINE_TOO_LONG} — это не заголовок выгрузки АГК`);
    this.sink.refuse(line, LINE_TOO_LONG);
  }

  end(): void {
    const rest = this.take();
    if (this.total === 0) throw new LineInvalid(1, EMPTY_FILE_MESSAGE);
    if (rest.byteLength > 0) this.block(rest);
    if (!this.layout) throw new LineInvalid(1, HEADER_MESSAGE);
  }

  private take(): Uint8Array {
    const joined = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    return joined;
  }

  private keep(bytes: Uint8Array) {
    if (bytes.byteLength === 0) return;
    this.pending = [bytes];
    this.pendingBytes = bytes.byteLength;
  }

  /** Whole lines (the last may lack its end): decoded together, or line by line when refused. */
  private block(bytes: Uint8Array) {
    const first = this.first;
    this.first = false;
    const startLine = this.lines + 1;
    let lineCount = 0;
    for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, i + 1)) lineCount++;
    if (bytes[bytes.length - 1] !== 0x0a) lineCount++;
    this.lines += lineCount;
    try {
      this.text(decodeCsvBytes(bytes), startLine);
      return;
    } catch (error) {
      if (!(error instanceof CsvEncodingError)) throw error;
      if (first && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
        throw new LineInvalid(1, encodingMessage(1));
      }
    }
    // Line by line: what decodes is read, what does not is refused by its number.
    let start = 0;
    for (let line = startLine; start < bytes.length; line++) {
      let end = bytes.indexOf(0x0a, start);
      if (end < 0) end = bytes.length;
      let text: string | undefined;
      try {
        text = decodeCsvBytes(bytes.subarray(start, end));
      } catch (error) {
        if (!(error instanceof CsvEncodingError)) throw error;
      }
      if (text === undefined) {
        if (!this.layout) throw new LineInvalid(line, encodingMessage(line));
        this.sink.refuse(line, UNDECODABLE_LINE);
      } else this.text(text, line);
      start = end + 1;
    }
  }

  private text(text: string, startLine: number) {
    this.delimiter ??= csvDelimiter(text);
    for (const record of csvLineRecords(text, this.delimiter, startLine, (line, reason) => {
      if (!this.layout) throw new LineInvalid(1, HEADER_MESSAGE);
      this.sink.refuse(line, reason);
    })) {
      if (!this.layout) this.header(record.fields);
      else this.row(record.line, record.fields);
    }
  }

  private header(fields: string[]) {
    const names = fields.map((f) => f.trim());
    const lower = names.map((h) => h.toLowerCase());
    const sensor = lower.findIndex((h) => SENSOR_HEADERS.has(h));
    const ofDay = lower.indexOf(TIME_OF_DAY_HEADER);
    const date = ofDay >= 0 ? lower.indexOf(DATE_HEADER) : -1;
    const time = date >= 0 ? ofDay : lower.findIndex((h) => TIME_HEADERS.has(h));
    if (sensor >= 0) {
      const value = lower.findIndex((_, i) => i !== sensor && i !== time && i !== date);
      if (time < 0 || value < 0) throw new LineInvalid(1, HEADER_MESSAGE);
      this.layout = { kind: "rows", sensor, date, time, value };
      return;
    }
    const timeColumn = time >= 0 ? time : 0;
    if (names.length < 2) throw new LineInvalid(1, HEADER_MESSAGE);
    const codes = names.map((code, i) => {
      if (i === timeColumn || i === date) return undefined;
      if (code === "") return undefined;
      if (this.options.known && !this.options.known(code)) {
        // The column's values are refused; the other values of its lines are read.
        this.sink.refuse(
          1,
          `столбец «${code.slice(0, 40)}»: датчик не найден в реестре датчиков площадки, его значения не прочитаны`,
          "value",
        );
        return undefined;
      }
      return code;
    });
    this.layout = { kind: "columns", date, time: timeColumn, codes };
  }

  /** The instant of a time cell, or why it is refused. */
  private instant(cell: string): number | string {
    const text = cell.trim();
    const local = LOCAL_TIME.exec(text);
    let t: number;
    if (local) {
      const year = local[3].length === 2 ? 2000 + +local[3] : +local[3];
      // The zone's offset is read once per wall-clock hour (Intl is slow; zones move by whole hours here).
      const hourKey = `${local[1]}.${local[2]}.${year} ${local[4]}`;
      let start = this.hourStarts.get(hourKey);
      if (start === undefined) {
        start = instantOfWallTime(year, +local[2], +local[1], +local[4], 0, this.options.zone);
        if (this.hourStarts.size > 10_000) this.hourStarts.clear();
        this.hourStarts.set(hourKey, start);
      }
      const [day, month, hour, minute, second] = [+local[1], +local[2], +local[4], +local[5], +(local[6] ?? 0)];
      const check = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
      if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1 || hour > 23 || minute > 59 || second > 59) {
        return `время «${text.slice(0, 40)}» не существует`;
      }
      t = start + minute * 60_000 + second * 1000;
    } else if (ZONED_ISO.test(text)) {
      t = Date.parse(text);
      if (Number.isNaN(t)) return `время «${text.slice(0, 40)}» не существует`;
    } else return `время «${text.slice(0, 40)}» не в формате: ${DISPATCH_TIME_FORMATS}`;
    const { now, futureMinutes = 5, oldest } = this.options;
    if (now !== undefined && t > now + futureMinutes * 60_000) {
      return `время ${text} позже текущего более чем на ${futureMinutes} минут`;
    }
    if (oldest !== undefined && t < oldest) return tooOldMessage(text, oldest);
    return t;
  }

  private value(line: number, code: string, cell: string, t: number, named: boolean) {
    const read = readTypedNumber(cell);
    // A line of one reading (the rows layout) loses the line with its value.
    const kind: RefusalKind = named ? "value" : "line";
    if (!read.ok) {
      this.sink.refuse(line, `${named ? `«${code.slice(0, 40)}»: ` : ""}значение «${cell.trim().slice(0, 40)}» не число`, kind, {
        t,
        codes: [code],
      });
      return;
    }
    const refused = this.sink.reading(line, code, t, read.value);
    if (refused) this.sink.refuse(line, refused, kind, { t, codes: [code] });
  }

  private row(line: number, fields: string[]) {
    const layout = this.layout!;
    const time = fields[layout.time] ?? "";
    const t = this.instant(layout.date >= 0 ? `${(fields[layout.date] ?? "").trim()} ${time.trim()}` : time);
    if (typeof t === "string") {
      this.sink.refuse(line, t);
      return;
    }
    if (layout.kind === "rows") {
      const code = (fields[layout.sensor] ?? "").trim();
      if (code === "") this.sink.refuse(line, "не указан код датчика", "line", { t });
      else this.value(line, code, fields[layout.value] ?? "", t, false);
      return;
    }
    for (let c = 0; c < layout.codes.length; c++) {
      const code = layout.codes[c];
      const cell = fields[c];
      if (code === undefined || cell === undefined || cell.trim() === "") continue;
      this.value(line, code, cell, t, true);
    }
    // A line cut short (fewer cells than the header): said once, with the sensors it has no cell for.
    const lacking = layout.codes.slice(fields.length).filter((code): code is string => code !== undefined);
    if (lacking.length > 0) {
      const named = lacking.slice(0, 3).map((code) => `«${code.slice(0, 40)}»`);
      this.sink.refuse(
        line,
        `строка неполная: ${fields.length} из ${layout.codes.length} столбцов заголовка — нет значений ${named.join(", ")}` +
          `${lacking.length > 3 ? ` и еще ${lacking.length - 3}` : ""}; остальные значения строки прочитаны`,
        "incomplete",
        { t, codes: lacking },
      );
    }
  }
}

/** A whole file in memory read at once (the command-line replay, tests). */
export function readDispatchBytes(bytes: Uint8Array, options: DispatchOptions, sink: DispatchSink): number {
  const reader = new DispatchReader(options, sink);
  for (let i = 0; i < bytes.length; i += BLOCK_BYTES) reader.push(bytes.subarray(i, i + BLOCK_BYTES));
  reader.end();
  return reader.lines;
}
