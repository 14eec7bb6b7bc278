import { expect, it } from "vitest";
import { gasText, readingText, testText, typedDateTime, typedNumber } from "./checkTexts";

it("writes a check's findings in words and Russian numbers", () => {
  expect(testText(null)).toBe("не проверялась");
  expect(testText(false, false)).toBe("не сработало");
  expect(readingText({ reading_pct: 0.61, reference_pct: 0.4, deviation_pct: 0.21, reference_instrument: "ШИ-11 № 4512" })).toBe(
    "0,61 % против 0,40 % (ШИ-11 № 4512), разница +0,21 %",
  );
  expect(readingText({ reading_pct: null, reference_pct: null, deviation_pct: null, reference_instrument: "" })).toBe("не сравнивалось");
  expect(gasText({ test_gas_pct: 1.5, test_gas_cylinder: { number: "Б-117", valid_to: "2026-12-31" } })).toBe(
    "ПГС 1,50 %, баллон Б-117 до 31.12.2026",
  );
});

it("reads a time typed on the company's clock and a number with a decimal comma", () => {
  expect(typedDateTime("03.03.2026 10:00", "Asia/Novokuznetsk")).toBe("2026-03-03T03:00:00.000Z");
  expect(typedDateTime("31.02.2026 10:00", "Asia/Novokuznetsk")).toBeUndefined();
  expect(typedNumber("0,42")).toBe(0.42);
  expect(typedNumber("")).toBeNull();
  expect(typedNumber("abc")).toBeUndefined();
});
