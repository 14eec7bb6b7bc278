// D102: verify.py recomputes a stuck meter's span «показания не меняются» from the month's readings the
// pack carries (its minute means stay within the kind's resolution step), not from the pack's word.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const VERIFY_DIR = import.meta.dirname;
const START = Date.parse("2026-03-15T03:00:00.000Z");
const line = (code: string, minute: number, value: number) => `${code};${new Date(START + minute * 60_000).toISOString()};${value}\n`;
const each = (from: number, to: number, write: (m: number) => string) => Array.from({ length: to - from + 1 }, (_, i) => write(from + i));

function check(value: (m: number) => number) {
  const dir = mkdtempSync(join(tmpdir(), "verify-stuck-"));
  const span = { from: new Date(START + 10 * 60_000).toISOString(), to: new Date(START + 30 * 60_000).toISOString() };
  const description = {
    start_ms: START,
    minutes: 60,
    conditions: "standard",
    sensors: [
      { role: "flow", code: "Q", kind: "flow", area_m2: null },
      { role: "ch4", code: "M", kind: "methane", area_m2: null },
    ],
    result: { minutes: { valid: 60, substituted: 0, missing: 0 } },
    doubt: [{ code: "M", minutes: 20, why: ["показания не меняются"], spans: [{ ...span, why: "показания не меняются" }] }],
  };
  // D107: the month's minutes «под сомнением» are derived from the instruments' record (instruments.json);
  // this one holds no check and no verification, so the stuck span the pack states is all the doubt there is.
  const record = {
    calculation: "calculations/0001.json",
    month: "2026-03",
    window: { from: "2026-02-28T17:00:00.000Z", to: "2026-03-31T17:00:00.000Z" },
    sensors: ["M", "Q"].map((code) => ({ code, checks: [], verifications: [] })),
  };
  writeFileSync(join(dir, "month.json"), JSON.stringify(description));
  writeFileSync(join(dir, "record.json"), JSON.stringify(record));
  writeFileSync(
    join(dir, "month.csv"),
    [...each(0, 59, (m) => line("Q", m, 12000)), ...each(0, 59, (m) => line("M", m, value(m)))].join(""),
  );
  const script = [
    "import json, sys",
    `sys.path.insert(0, ${JSON.stringify(VERIFY_DIR)})`,
    "import verify",
    "report = verify.Report()",
    `d = json.load(open(${JSON.stringify(join(dir, "month.json"))}, encoding="utf-8"))`,
    `r = json.load(open(${JSON.stringify(join(dir, "record.json"))}, encoding="utf-8"))`,
    `verify.check_doubt(report, "месяц", d, open(${JSON.stringify(join(dir, "month.csv"))}, encoding="utf-8").read(), r)`,
    "print(len(report.differ))",
  ].join("\n");
  const out = spawnSync("python3", ["-c", script], { encoding: "utf8" });
  expect(out.status, out.stderr).toBe(0);
  return out.stdout;
}

describe("verify.py recomputes a stuck meter's span (D102)", () => {
  it("agrees where the minute means stay within 0,01 %, and still counts the span's minutes", () => {
    const out = check((m) => (m >= 10 && m < 30 ? 0.37 : 0.45 + (m % 5) * 0.02));
    expect(out).toContain("месяц: M не меняется 2026-03-15T03:10:00.000Z — 2026-03-15T03:30:00.000Z: 20 минут с показаниями");
    expect(out).toContain("залипание подтверждается показаниями");
    expect(out).toContain("показания под сомнением M — 20 мин");
    expect(out.trim().endsWith("\n0")).toBe(true);
  });

  it("names a span whose readings move", () => {
    const out = check((m) => 0.45 + (m % 5) * 0.02);
    expect(out).toContain("РАСХОДИТСЯ:  месяц: M не меняется — размах минутных средних");
    expect(out.trim().endsWith("\n1")).toBe(true);
  });
});
