// verify.py's own copy of methodology D58–D61 (functions/src/export/verify/verify.py, month_of_readings,
// what it recomputes an accepted month of the verification pack with) against section 12's worked
// examples (tests/fixtures/monitoring/methodology-section-12.json): the ventilation hour with a gap
// (720 thousand m³, 0,451667 %, 2,172336 t, 50 valid and 10 substituted minutes), the drainage hour at
// actual conditions (1 716,92 m³, 37 %, 0,424355 t), a gap with nothing before (7 minutes take the first
// after) and a 26-hour gap of a 30-day month (not substituted: 96,39 %). The readings are written as the
// pack's telemetry/NNNN.csv is, `code;ISO instant;value` a line.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import vectors from "../fixtures/monitoring/methodology-section-12.json";

const VERIFY_DIR = resolve(import.meta.dirname, "../../functions/src/export/verify");
const START = Date.parse("2026-03-15T03:00:00.000Z");
const round = (value: number, decimals: number) => Number(value.toFixed(decimals));

type Role = "flow" | "velocity" | "ch4" | "methane_flow" | "pressure" | "temperature";
interface Month {
  volume_thousand_m3: number;
  ef_ch4: number;
  ch4_t: number;
  valid: number;
  substituted: number;
  missing: number;
}

/** verify.py's month_of_readings over `lines`, in Python 3 as a verifier runs it. */
function recompute(
  minutes: number,
  sensors: Array<{ role: Role; code: string; kind: string }>,
  lines: string[],
  conditions: "standard" | "actual" = "standard",
): Month {
  const dir = mkdtempSync(join(tmpdir(), "verify-readings-"));
  const description = {
    start_ms: START,
    minutes,
    conditions,
    sensors: sensors.map((s) => ({ ...s, area_m2: null })),
  };
  writeFileSync(join(dir, "month.json"), JSON.stringify(description));
  writeFileSync(join(dir, "month.csv"), lines.join(""));
  const script = [
    "import json, sys",
    `sys.path.insert(0, ${JSON.stringify(VERIFY_DIR)})`,
    "import verify",
    `d = json.load(open(${JSON.stringify(join(dir, "month.json"))}, encoding="utf-8"))`,
    `print(json.dumps(verify.month_of_readings(d, open(${JSON.stringify(join(dir, "month.csv"))}, encoding="utf-8").read())))`,
  ].join("\n");
  const out = spawnSync("python3", ["-c", script], { encoding: "utf8" });
  expect(out.status, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as Month;
}

const line = (code: string, minute: number, value: number) => `${code};${new Date(START + minute * 60_000).toISOString()};${value}\n`;
const each = (from: number, to: number, write: (m: number) => string) => Array.from({ length: to - from + 1 }, (_, i) => write(from + i));

describe("verify.py's recomputation of an accepted month (D58–D61) on section 12's worked examples", () => {
  it("the ventilation hour with a gap: 720 thousand m³, 0,451667 %, 2,172336 t, 50 valid and 10 substituted", () => {
    const v = vectors.ventilation_hour_with_gap;
    const lines = [
      ...each(0, v.minutes - 1, (m) => line("Q", m, v.flow_m3_min)),
      ...v.ch4.flatMap((run) => each(run.from, run.to, (m) => line("M", m, run.value))),
    ];
    const month = recompute(
      v.minutes,
      [
        { role: "flow", code: "Q", kind: "flow" },
        { role: "ch4", code: "M", kind: "methane" },
      ],
      lines,
    );
    expect(month.volume_thousand_m3).toBeCloseTo(v.volume_thousand_m3, 9);
    expect(round(month.ef_ch4, v.ef_ch4.decimals)).toBe(v.ef_ch4.value);
    expect(round(month.ch4_t, v.ch4_t.decimals)).toBe(v.ch4_t.value);
    expect(Math.abs(month.ch4_t - (v.ch4_m3 * vectors.rho_ch4) / 1000)).toBeLessThan(1e-12);
    expect([month.valid, month.substituted, month.missing]).toEqual([v.valid, v.substituted, 0]);
  });

  it("the drainage hour at actual conditions: 1 716,92 m³, 37 %, 0,424355 t", () => {
    const v = vectors.drainage_hour_at_actual_conditions;
    const lines = [
      ...each(0, v.minutes - 1, (m) => line("Q", m, v.flow_m3_min)),
      ...each(0, v.minutes - 1, (m) => line("P", m, v.pressure_kpa)),
      ...each(0, v.minutes - 1, (m) => line("T", m, v.temperature_c)),
      ...v.ch4.flatMap((run) => each(run.from, run.to, (m) => line("C", m, run.value))),
    ];
    const month = recompute(
      v.minutes,
      [
        { role: "flow", code: "Q", kind: "flow" },
        { role: "ch4", code: "C", kind: "methane_high" },
        { role: "pressure", code: "P", kind: "pressure" },
        { role: "temperature", code: "T", kind: "temperature" },
      ],
      lines,
      "actual",
    );
    expect(round(month.volume_thousand_m3 * 1000, v.volume_m3.decimals)).toBe(v.volume_m3.value);
    expect(round(month.ef_ch4, v.ef_ch4.decimals)).toBe(v.ef_ch4.value);
    expect(round(month.ch4_t, v.ch4_t.decimals)).toBe(v.ch4_t.value);
  });

  it("a gap with nothing before takes the first value after: 7 minutes substituted", () => {
    const v = vectors.gap_with_nothing_before;
    const lines = [...each(0, 59, (m) => line("Q", m, 1000)), ...each(v.first_reading_minute, 59, (m) => line("M", m, v.value))];
    const month = recompute(
      60,
      [
        { role: "flow", code: "Q", kind: "flow" },
        { role: "ch4", code: "M", kind: "methane" },
      ],
      lines,
    );
    expect(month.substituted).toBe(v.substituted);
    expect(month.ef_ch4).toBeCloseTo(v.value, 12);
  });

  it("a 26-hour gap of a 30-day month is «нет данных»: 96,39 % complete", () => {
    const v = vectors.long_gap;
    const minutes = v.month_days * 1440;
    const from = (v.gap_from.day - 1) * 1440 + v.gap_from.hour * 60;
    const lines = [
      ...each(0, minutes - 1, (m) => line("Q", m, 1000)),
      ...each(0, minutes - 1, (m) => (m >= from && m < from + v.gap_minutes ? "" : line("M", m, 0.5))),
    ];
    const month = recompute(
      minutes,
      [
        { role: "flow", code: "Q", kind: "flow" },
        { role: "ch4", code: "M", kind: "methane" },
      ],
      lines,
    );
    expect(month.missing).toBe(v.gap_minutes);
    expect(round((month.valid + month.substituted) / minutes, v.completeness.decimals)).toBe(v.completeness.value);
  });
});

// D94, D107: verify.py derives a channel's minutes «под сомнением» from the instruments'
// record of the month (instruments.json: the checks and the verifications' valid_to), not from the spans the
// pack states, and names a stated count that differs or a channel whose doubt was removed.
describe("verify.py derives the minutes «под сомнением» of an accepted month from instruments.json", () => {
  const at = (minute: number) => new Date(START + minute * 60_000).toISOString();
  const check = (shape: string, result: string) => ({ at: shape, result });
  /** The month's record as instruments.json carries it: March 2026 on Новокузнецк's clock (UTC+7). */
  const recordOf = (sensor: Record<string, unknown>) => ({
    calculation: "c1",
    month: "2026-03",
    window: { from: "2026-02-28T17:00:00.000Z", to: "2026-03-31T17:00:00.000Z" },
    sensors: [
      { code: "Q", checks: [], verifications: [] },
      { code: "M", checks: [], verifications: [], ...sensor },
    ],
  });
  // Failed at the 10th minute, passed at the 30th; failed again at the 50th, still open at the window's end.
  const failed = recordOf({
    checks: [
      check(at(10), "датчик не прошел проверку"),
      check(at(30), "датчик прошел проверку"),
      check(at(50), "датчик не прошел проверку"),
    ],
  });
  const run = (stated: number | null, record: unknown) => {
    const dir = mkdtempSync(join(tmpdir(), "verify-doubt-"));
    const description = {
      start_ms: START,
      minutes: 60,
      conditions: "standard",
      sensors: [
        { role: "flow", code: "Q", kind: "flow", area_m2: null },
        { role: "ch4", code: "M", kind: "methane", area_m2: null },
      ],
      result: { minutes: { valid: 60, substituted: 0, missing: 0 } },
      // What the pack states: its own spans are not read, only its count beside the recomputed one.
      ...(stated === null
        ? {}
        : { doubt: [{ code: "M", minutes: stated, why: ["x"], spans: [{ from: at(0), to: at(stated), why: "x" }] }] }),
    };
    writeFileSync(join(dir, "month.json"), JSON.stringify(description));
    writeFileSync(join(dir, "record.json"), JSON.stringify(record));
    writeFileSync(join(dir, "month.csv"), [...each(0, 59, (m) => line("Q", m, 12000)), ...each(0, 59, (m) => line("M", m, 0.45))].join(""));
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
  };

  it("prints the channel's spans from its checks, minutes and readings in them, and agrees with the pack's count", () => {
    expect(run(30, failed)).toBe(
      "сходится:    месяц: показания под сомнением M — 30 мин (2026-03-15T03:10:00.000Z — 2026-03-15T03:30:00.000Z; " +
        "2026-03-15T03:50:00.000Z — 2026-03-15T04:00:00.000Z), показаний в них 30: учтены как есть, не замещены " +
        "(датчик не прошел проверку 15.03.2026)\n0\n",
    );
  });

  it("names a stated count that differs from the instruments' record", () => {
    expect(run(40, failed)).toBe("РАСХОДИТСЯ:  месяц: показания под сомнением M — по записи приборов 30 мин, в пакете 40\n1\n");
  });

  it("names a channel whose doubt was removed from the pack", () => {
    expect(run(null, failed)).toBe(
      "РАСХОДИТСЯ:  месяц: показания под сомнением M — по записи приборов 30 мин (датчик не прошел проверку 15.03.2026), " +
        "в пакете не указаны\n1\n",
    );
  });

  it("reads a verification's end on the company's clock: from the day after valid_to, until the next one", () => {
    // Valid to 14.03: out of verification from 00:00 of 15.03 at UTC+7 (14.03 17:00Z), the whole window.
    const lapsed = recordOf({ verifications: [{ verified_on: "2025-03-14", valid_to: "2026-03-14", certificate: "С-1" }] });
    expect(run(60, lapsed)).toContain("показания под сомнением M — 60 мин (2026-03-15T03:00:00.000Z — 2026-03-15T04:00:00.000Z)");
    expect(run(60, lapsed)).toContain("(вне поверки с 15.03.2026)\n0\n");
    // A verification corrected by another no longer counts: the correction's valid_to holds.
    const corrected = recordOf({
      verifications: [
        { verified_on: "2025-03-14", valid_to: "2026-03-14", certificate: "С-1", record: "v1", corrected_by: "v2" },
        { verified_on: "2025-03-14", valid_to: "2027-03-14", certificate: "С-1", record: "v2", corrects: "v1" },
      ],
    });
    expect(run(null, corrected)).toBe("0\n");
  });

  it("names a month the instruments' record lacks", () => {
    expect(run(30, null)).toBe(
      "РАСХОДИТСЯ:  месяц: показания под сомнением — в instruments.json нет записи приборов этого месяца: минуты под сомнением не из чего пересчитать\n1\n",
    );
  });
});
