import { describe, expect, it } from "vitest";
import type { Sheet } from "./content";
import { formatNumber, txtChunks } from "./txt-writer";

const nbsp = (text: string) => text.replace(/ /g, "\u00a0");

describe("txt numbers", () => {
  it("are written the Russian way, like the web app: a decimal comma, thousands by a no-break space", () => {
    expect(formatNumber(2662.4821, 2)).toBe(nbsp("2 662,48"));
    expect(formatNumber(301500, 2)).toBe(nbsp("301 500,00"));
    expect(formatNumber(0.668, 4)).toBe("0,6680");
    expect(formatNumber(1.005, 2)).toBe("1,01");
    expect(formatNumber(-1234.5, 0)).toBe(nbsp("-1 235"));
    expect(formatNumber(-1e-7, 2)).toBe("0,00");
  });

  it("leave years and row numbers ungrouped", async () => {
    expect(formatNumber(2024, 0, false)).toBe("2024");
    const sheet: Sheet = {
      name: "s",
      title: "Ряд",
      text: { layout: "records", lead: 1 },
      columns: [
        { header: "Год", kind: "number", decimals: 0, grouping: false, width: 8 },
        { header: "Выбросы, т", kind: "number", decimals: 2, width: 16 },
      ],
      rows: [[2024, 12060]],
    };
    let text = "";
    for await (const chunk of txtChunks([sheet] as unknown as AsyncIterable<Sheet>)) text += chunk;
    expect(text).toContain("2024\n");
    expect(text).toContain(`    Выбросы, т: ${nbsp("12 060,00")}`);
  });
});
