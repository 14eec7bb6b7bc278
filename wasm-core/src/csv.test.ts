// The one CSV reader (csv.ts): what the command-line tools, the GBDT feature files and the API's
// tabular uploads all rely on.
import { describe, expect, it } from "vitest";
import { CSV_ENCODING_MESSAGE, csvRecords, decodeCsvBytes, parseCsv, parseCsvRecords, UnterminatedQuote } from "./csv";
import { readForecastHistoryCsv } from "./gbdt/train-csv";
import { encodeLegacy, russianExcelHistory } from "../../tests/support/legacy-encoding";

describe("csvRecords", () => {
  it("reads commas by default and another delimiter when told, with quoted delimiters and doubled quotes", () => {
    expect(parseCsv('a,b\n1,"x,""y"""\n')).toEqual([
      ["a", "b"],
      ["1", 'x,"y"'],
    ]);
    expect(parseCsvRecords('a;b\n1,5;"2;3"', { delimiter: ";" }).map((r) => r.fields)).toEqual([
      ["a", "b"],
      ["1,5", "2;3"],
    ]);
    expect(parseCsvRecords("a\tb\n1\t2", { delimiter: "\t" }).map((r) => r.fields)).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
  });

  it("numbers records by the line they start on, whatever the line ends and however many lines a quoted field spans", () => {
    const records = parseCsvRecords('\uFEFFh1,h2\r\n"two\r\nlines",x\r\n\r\nlast,"a\nb"\rcr,only\n');
    expect(records).toEqual([
      { fields: ["h1", "h2"], line: 1 },
      { fields: ["two\r\nlines", "x"], line: 2 },
      { fields: ["last", "a\nb"], line: 5 },
      { fields: ["cr", "only"], line: 7 },
    ]);
  });

  it("opens a quoted field after blanks, dropping them, and keeps text after a closing quote", () => {
    expect(parseCsv('a, "b,c" ,d"e"\n')).toEqual([["a", "b,c ", 'd"e"']]);
  });

  it("skips records whose fields are all empty, but keeps blanks for the caller to judge", () => {
    expect(parseCsv("a\n,\n\n , \nb")).toEqual([["a"], [" ", " "], ["b"]]);
  });

  it("says on which line the record of an unterminated quote starts", () => {
    let error: unknown;
    try {
      parseCsv('a,b\n1,2\n3,"open\nstill open');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnterminatedQuote);
    expect(error).toMatchObject({ line: 3, message: "unterminated quoted field" });
  });

  it("reads records one at a time, so a reader can stop before the rest", () => {
    const records = csvRecords('a\nb\n"never closed');
    expect(records.next().value).toEqual({ fields: ["a"], line: 1 });
    expect(records.next().value).toEqual({ fields: ["b"], line: 2 });
    expect(() => records.next()).toThrow(UnterminatedQuote);
  });
});

describe("decodeCsvBytes: the one decoder of the server's uploads and the browser's training", () => {
  const history = russianExcelHistory();

  it("reads a history Russian Excel saved (Windows-1251) as its UTF-8 twin, and the browser's training reads it alike", () => {
    const text = decodeCsvBytes(history.cp1251);
    expect(text).toBe(decodeCsvBytes(history.utf8));
    expect(decodeCsvBytes(new Uint8Array([0xef, 0xbb, 0xbf, ...history.utf8]))).toBe(text);
    const read = readForecastHistoryCsv(text);
    expect(read.headers.x2).toBe("Расход воздуха в исходящей струе лавы (суточные замеры), м3/мин");
    expect(read.y.length).toBe(500);
    expect(read).toEqual(readForecastHistoryCsv(new TextDecoder().decode(history.utf8)));
    // What File.text() gave the page before: the letters lost, the columns not told apart.
    expect(() => readForecastHistoryCsv(new TextDecoder().decode(history.cp1251))).toThrow(/�/);
  });

  it("refuses UTF-16, KOI8-R and bytes that are no text, in words", () => {
    const utf16 = new Uint8Array([0xff, 0xfe, ...[..."Год"].flatMap((c) => [c.charCodeAt(0) & 0xff, c.charCodeAt(0) >> 8])]);
    const koi8 = encodeLegacy("Год;Шахта;Метан;Примечание\n2020;Северная;10;нет данных\n", "koi8-r");
    for (const bytes of [utf16, koi8, new Uint8Array([0x61, 0x80, 0x87, 0xa4, 0x98, 0x8f])]) {
      expect(() => decodeCsvBytes(bytes)).toThrow(CSV_ENCODING_MESSAGE);
    }
  });
});
