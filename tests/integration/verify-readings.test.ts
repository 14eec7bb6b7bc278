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

// Issue 118, item 4 (D94): verify.py names a channel's minutes «под сомнением» from the pack.
describe("verify.py names the minutes «под сомнением» of an accepted month", () => {
  const check = (stated: number) => {
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
      // 20 minutes from the 10th, and a span running on past the window's end: cut to its 60th minute.
      doubt: [
        {
          code: "M",
          minutes: stated,
          why: ["датчик не прошел проверку 15.03.2026"],
          spans: [
            { from: new Date(START + 10 * 60_000).toISOString(), to: new Date(START + 30 * 60_000).toISOString(), why: "x" },
            { from: new Date(START + 50 * 60_000).toISOString(), to: new Date(START + 90 * 60_000).toISOString(), why: "y" },
          ],
        },
      ],
    };
    writeFileSync(join(dir, "month.json"), JSON.stringify(description));
    writeFileSync(join(dir, "month.csv"), [...each(0, 59, (m) => line("Q", m, 12000)), ...each(0, 59, (m) => line("M", m, 0.45))].join(""));
    const script = [
      "import json, sys",
      `sys.path.insert(0, ${JSON.stringify(VERIFY_DIR)})`,
      "import verify",
      "report = verify.Report()",
      `d = json.load(open(${JSON.stringify(join(dir, "month.json"))}, encoding="utf-8"))`,
      `verify.check_doubt(report, "месяц", d, open(${JSON.stringify(join(dir, "month.csv"))}, encoding="utf-8").read())`,
      "print(len(report.differ))",
    ].join("\n");
    const out = spawnSync("python3", ["-c", script], { encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    return out.stdout;
  };

  it("prints the channel's spans, minutes and readings in them, and agrees with the pack's count", () => {
    expect(check(30)).toBe(
      "сходится:    месяц: показания под сомнением M — 30 мин (2026-03-15T03:10:00.000Z — 2026-03-15T03:30:00.000Z; " +
        "2026-03-15T03:50:00.000Z — 2026-03-15T04:00:00.000Z), показаний в них 30: учтены как есть, не замещены " +
        "(датчик не прошел проверку 15.03.2026)\n0\n",
    );
  });

  it("names a count that differs from its spans", () => {
    expect(check(40)).toBe("РАСХОДИТСЯ:  месяц: показания под сомнением M — по интервалам 30 мин, в пакете 40\n1\n");
  });
});
