// the report's section 10 lists D79's deviations grouped over consecutive hours
// of one device and kind with their totals (a 3 h 20 min flame loss is one line of 4 h, whatever each
// hour's methane), and a substituted gas temperature is said to take the higher neighbour, as D71 does.
import { describe, expect, it } from "vitest";
import { type ClimateInputs, evaluateClimatePeriod } from "@core/climate-project";
import { groupedDeviations } from "../../contract/climate-deviations";
import { climateReportContent } from "./report-content";
import type { ClimatePeriod } from "./periods";
import { includedDays } from "./period-record";

const AT = "2026-06-02T03:00:00.000Z";
const flameHour = (h: number, from: number, to: number, flame: number) => ({ from, to, q: 20 + h, c: 40, flame });
const INPUTS: ClimateInputs = {
  period: {},
  devices: [
    {
      id: "Ф-1",
      kind: "flare_open",
      flow_basis: "standard_20C",
      hours: [0, 1, 2, 3, 4, 5].map((h) => ({
        label: `2026-06-01T0${h}`,
        repeat: 1,
        // The flame lost from 01:40 to 05:00: 3 h 20 min over four hours.
        segments: h === 1 ? [flameHour(h, 0, 40, 1), flameHour(h, 40, 60, 0)] : [flameHour(h, 0, 60, h >= 2 && h <= 4 ? 0 : 1)],
      })),
    },
    {
      id: "Ф-2",
      kind: "flare_open",
      flow_basis: "actual",
      hours: [
        {
          label: "2026-06-01T00",
          repeat: 1,
          segments: [
            { from: 0, to: 10, q: 10, c: 40, p: 101, t: 12, flame: 1 },
            { from: 10, to: 15, q: 10, c: 40, p: 101, t: null, flame: 1 },
            { from: 15, to: 60, q: 10, c: 40, p: 101, t: 14, flame: 1 },
          ],
        },
      ],
    },
  ],
};

function report() {
  const result = evaluateClimatePeriod(INPUTS);
  const period = {
    ...result,
    id: "per1",
    project: "p1",
    start: "2026-06-01T00:00",
    end: "2026-06-01T06:00",
    hours: 6,
    period: {},
    carbon_units: result.totals.carbon_units,
  } as unknown as ClimatePeriod;
  const device = (name: string) => ({
    name,
    point: "pt1",
    kind: "flare_open" as const,
    flow_basis: "standard_20C" as const,
    eta_option: null,
    sensors: {},
  });
  return {
    result,
    content: climateReportContent({
      project: {
        id: "p1",
        name: "Факелы",
        start: "2026-06-01",
        end: null,
        methodology: { code: "CDM-ACM0008", name: "ACM0008", version: "08.0", source: "UNFCCC CDM", tools: [] },
        devices: [device("Ф-1"), device("Ф-2")],
        e_own_sensor: null,
      } as never,
      period,
      hand: undefined,
      company: { id: "c1", name: "ООО «Шахта»", email: "", ogrn: "", okved: "", inn: "", kpp: "", region: "", postal_address: "" } as never,
      zone: "Asia/Novokuznetsk",
      facility: undefined,
      points: [],
      sensors: new Map(),
      issued: new Date(AT),
    }),
  };
}

describe("section 10's deviations (D79)", () => {
  it("groups a 3 h 20 min flame loss into one line of 4 h with the methane of its hours", () => {
    const { result, content } = report();
    // The core lists the four hours apart: each hour's methane differs.
    expect(result.deviations.filter((d) => d.device === "Ф-1" && d.kind === "not_proven")).toHaveLength(4);
    const grouped = groupedDeviations(result.deviations).filter((d) => d.device === "Ф-1" && d.kind === "not_proven");
    expect(grouped).toHaveLength(1);
    const methane = result.devices[0].blocks.slice(1, 5).reduce((sum, b) => sum + b.m_ch4_t, 0);
    expect(grouped[0]).toMatchObject({ label: "2026-06-01T01..2026-06-01T04", hours: 4 });
    expect(grouped[0].detail.m_ch4_t as number).toBeCloseTo(methane, 12);
    const rows = content.sections[9].tables[0].rows.filter((r) => r[0] === "Ф-1" && r[2] === "уничтожение не подтверждено");
    expect(rows).toEqual([
      [
        "Ф-1",
        "01.06.2026 01:00 – 04:59",
        "уничтожение не подтверждено",
        "4",
        `нет пламени; метан ${methane.toLocaleString("ru-RU", { minimumFractionDigits: 3, maximumFractionDigits: 3 })} т, КПД 0`,
        "D72, D73",
      ],
    ]);
  });

  it("says a substituted gas temperature took the higher neighbour, flow and CH4 the lower (D71)", () => {
    const { content } = report();
    const row = content.sections[9].tables[0].rows.find((r) => r[0] === "Ф-2" && r[2] === "замещено");
    expect(row?.[4]).toBe("замещено соседним значением, дающим меньше метана (D71): температура газа 5 мин (большим соседним значением)");
  });
});

describe("a period's file names", () => {
  it("name the last day the period includes, not its exclusive end", () => {
    expect(includedDays({ start: "2026-10-10T00:00", end: "2026-10-20T00:00" })).toEqual({ first: "2026-10-10", last: "2026-10-19" });
    expect(includedDays({ start: "2026-06-01T00:00", end: "2026-06-01T06:00" })).toEqual({ first: "2026-06-01", last: "2026-06-01" });
    expect(includedDays({ start: "2026-12-31T00:00", end: "2027-01-01T00:00" })).toEqual({ first: "2026-12-31", last: "2026-12-31" });
    expect(report().content.file_name).toBe("Отчет о реализации Факелы 01.06.2026–01.06.2026");
  });
});

describe("an engine whose every channel goes silent for 7 minutes while it runs", () => {
  it("reads «нет данных о работе агрегата 7 мин», not «агрегат не работал»: η 0 by the rules, the words true", () => {
    const result = evaluateClimatePeriod({
      period: {},
      devices: [
        {
          id: "ГПУ-1",
          kind: "engine",
          flow_basis: "standard_20C",
          hours: [
            {
              label: "2026-06-01T08",
              repeat: 1,
              segments: [
                { from: 0, to: 10, q: 18, c: 52, run: 1 },
                { from: 10, to: 17, q: null, c: null, run: null },
                { from: 17, to: 60, q: 18, c: 52, run: 1 },
              ],
            },
          ],
        },
      ],
    });
    const [deviation] = result.deviations.filter((d) => d.kind === "not_proven");
    expect(deviation.detail).toMatchObject({ eta_basis: "not_proven_run_no_data", run_missing_min: 7 });
    expect(result.devices[0].blocks[0]).toMatchObject({ eta: 0, eta_basis: "not_proven_run_no_data" });
  });
});
