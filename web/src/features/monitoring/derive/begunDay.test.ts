// a day not yet begun on the company's clock was offered on «События» and the journal
// (their lists then empty, the shift's report refused «смена еще не началась»).
import { expect, it } from "vitest";
import { begunDate, begunShifts } from "./begunDay";

const KEMEROVO = "Asia/Novokuznetsk";
// 26.11.2026 10:30 in Kemerovo (UTC+7).
const NOW = Date.UTC(2026, 10, 26, 3, 30);

it("takes a typed day only once it has begun on the company's clock", () => {
  expect(begunDate("26.11.2026", KEMEROVO, NOW)).toBe("2026-11-26");
  expect(begunDate("25.11.2026", KEMEROVO, NOW)).toBe("2026-11-25");
  expect(begunDate("27.11.2026", KEMEROVO, NOW)).toBeUndefined();
  // 26.11 has not begun in UTC-5 yet at that instant.
  expect(begunDate("26.11.2026", "America/New_York", Date.UTC(2026, 10, 26, 3, 30))).toBeUndefined();
  expect(begunDate("31.02.2026", KEMEROVO, NOW)).toBeUndefined();
});

it("offers today's shifts only once begun, and every shift of a past day", () => {
  const shifts = [0, 1, 2, 3].map((value) => ({ value, label: String(value) }));
  expect(begunShifts(shifts, "2026-11-26", KEMEROVO, NOW).map((s) => s.disabled)).toEqual([false, false, false, true]);
  expect(begunShifts(shifts, "2026-11-25", KEMEROVO, NOW).every((s) => !s.disabled)).toBe(true);
});
