import { beforeAll, describe, expect, it } from "vitest";
import { xlsToCsvs } from "../../../tests/support/libreoffice";
import type { Cell, Sheet } from "./content";
import { LABEL_MAX_CHARS, SHORTENED_NOTE, SST_MAX_STRING_CELLS, XLS_MAX_ROWS, writeXls } from "./xls-writer";

const LONG = `${"Когенерационная установка; ".repeat(14)}конец`;

async function* book(rows: Cell[][], name = "Данные"): AsyncGenerator<Sheet> {
  yield {
    name,
    title: "Заголовок",
    text: { layout: "none" },
    columns: [
      { header: "Текст", kind: "text", width: 20 },
      { header: "Число, т", kind: "number", decimals: 3, width: 10 },
    ],
    rows,
  };
}

describe("xls writer", () => {
  it("writes an OLE2 compound file", async () => {
    const bytes = await writeXls(book([["a", 1]]));
    expect([...bytes.subarray(0, 8)]).toEqual([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  });

  describe("read back by LibreOffice", () => {
    const total = XLS_MAX_ROWS + 500;
    /** The two books below, read by one LibreOffice: a start of its own cost the small one about 1,4 s of CPU. */
    let small: Map<string, string>;
    let large: Map<string, string>;
    beforeAll(async () => {
      const smallBook = await writeXls(
        book([
          [LONG, 1.23456],
          ["=1+1", 2],
        ]),
      );
      const rows: Cell[][] = Array.from({ length: total }, (_, i) => [i === 0 ? LONG : `строка ${i}`, i]);
      [small, large] = xlsToCsvs([smallBook, await writeXls(book(rows))]);
    }, 180_000);

    it("keeps a text longer than 255 characters whole in a small book, numbers in their format", () => {
      expect(LONG.length).toBeGreaterThan(LABEL_MAX_CHARS);
      const sheet = small.get("Данные")!;
      expect(sheet).toContain(LONG);
      expect(sheet).toContain("1.235");
      expect(sheet).toContain("=1+1");
      expect(sheet).not.toMatch(/^2,/m);
    });

    it("continues past 65 536 rows on a second sheet and shortens long texts in a book too big for the string table", () => {
      expect(total).toBeGreaterThan(SST_MAX_STRING_CELLS);
      expect([...large.keys()].sort()).toEqual(["Данные", "Данные (2)", "Примечание"]);
      expect(large.get("Примечание")).toContain(SHORTENED_NOTE);
      const first = large.get("Данные")!.trimEnd().split("\n");
      const second = large.get("Данные (2)")!.trimEnd().split("\n");
      // Each sheet repeats title and header; together they hold every row once.
      expect(first[1]).toBe('Текст,"Число, т"');
      expect(second[1]).toBe('Текст,"Число, т"');
      expect(first.length - 2 + second.length - 2).toBeGreaterThanOrEqual(total);
      // LibreOffice writes the CSV as its en-US display of the grouped number format.
      const shown = (total - 1).toLocaleString("en-US", { minimumFractionDigits: 3, maximumFractionDigits: 3 });
      expect(second.at(-1)).toBe(`строка ${total - 1},"${shown}"`);
      const shortened = first[2].split(",")[0].replace(/^"|"$/g, "");
      expect(shortened).toHaveLength(LABEL_MAX_CHARS);
      expect(shortened.endsWith("…")).toBe(true);
    });
  });
});
