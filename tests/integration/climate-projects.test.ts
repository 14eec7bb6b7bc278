// POST v1/climate-projects/evaluate/ on the in-process API: section 13.6's case (d), the month of three
// devices, comes out of the API as the core gives it, to the carbon unit; bad input is a 400 naming
// its field in Russian.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { fieldName } from "@server/contract/field-names";

const VECTORS = JSON.parse(readFileSync(new URL("../fixtures/methodology/climate-project-vectors.json", import.meta.url), "utf8")) as {
  cases: { case: string; inputs: { devices: unknown[] }; expected: { totals: Record<string, number>; deviations: unknown[] } }[];
};
const month = VECTORS.cases.find((c) => c.case === "d")!;

let h: Harness;
let staff: string;

beforeAll(async () => {
  h = await createHarness();
  ({ token: staff } = await h.signedInUser());
});
afterAll(() => h.close());

const evaluate = (json: unknown) => h.request("/api/v1/climate-projects/evaluate/", { method: "POST", token: staff, json });

describe("POST v1/climate-projects/evaluate/", () => {
  it("gives section 13.6's month of three devices: totals, deviations and 19 209 carbon units", async () => {
    const res = await evaluate(month.inputs);
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as { rules_version: string; totals: Record<string, number>; deviations: unknown[] };
    expect(body.rules_version).toBe("2026.7");
    expect(body.totals.carbon_units).toBe(19_209);
    for (const [name, value] of Object.entries(month.expected.totals)) {
      expect(Math.abs(body.totals[name] - value) <= 1e-9 * Math.max(1, Math.abs(value)), name).toBe(true);
    }
    expect(body.deviations).toHaveLength(month.expected.deviations.length);
  });

  it("refuses an hour whose minutes do not reach 60, naming the segments", async () => {
    const res = await evaluate({
      period: {},
      devices: [
        {
          id: "Ф-1",
          kind: "flare_open",
          flow_basis: "standard_20C",
          hours: [{ label: "x", repeat: 1, segments: [{ from: 0, to: 50, q: 10, c: 40, flame: 1 }] }],
        },
      ],
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toBe(
      `${fieldName("devices.0.hours.0.segments")}: отрезки часа покрывают минуты с 0 до 60`,
    );
  });

  it("refuses a device kind it does not know and a gas with more than 1 % of other hydrocarbons", async () => {
    const flare = {
      id: "Ф-1",
      kind: "flare_open",
      flow_basis: "standard_20C",
      hours: [{ label: "x", repeat: 1, segments: [{ from: 0, to: 60, q: 10, c: 40, flame: 1 }] }],
    };
    const kind = await evaluate({ period: {}, devices: [{ ...flare, kind: "vam" }] });
    expect(kind.status).toBe(400);
    expect(((await kind.json()) as { detail: string }).detail).toMatch(new RegExp(`^${fieldName("devices.0.kind")}: `));
    const nmhc = await evaluate({ period: { nmhc_pct_vol: 2 }, devices: [flare] });
    expect(nmhc.status).toBe(400);
    expect(((await nmhc.json()) as { detail: string }).detail).toBe(
      `${fieldName("period.nmhc_pct_vol")}: НМУВ > 1 % — методология не поддерживается`,
    );
  });

  it("is for signed-in users only", async () => {
    expect((await h.request("/api/v1/climate-projects/evaluate/", { method: "POST", json: month.inputs })).status).toBe(401);
  });
});
