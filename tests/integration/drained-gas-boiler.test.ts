// A boiler on drained gas of known composition through the API (methodology D24, D28): it takes
// «W_CH4 60 %, W_CO2 5 %» as the web sends them, emits the CO2 of the burnt CH4 plus the mixture's
// own, and the mine's gross measured figure loses both the burnt CH4 and that CO2, so each is
// counted once; the oxidation factor left out is 1.0 «По умолчанию (Приказ № 371)».
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import type { CalculationOf } from "@server/contract";
import type { CalculationType } from "@core/registry";
import { inventoryCalculations } from "../support/inventory";

let h: Harness;
let token: string;
let mineId: string;
let projectId: string;

type Inventory = {
  categories: Array<{ ipcc_code: string; gas: string; t: number; t_co2e: number }>;
  total_t_co2e: number;
  balance: Array<{ used_t: number; destroyed_t: number; netted_t: number }>;
};

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

const post = (type: string, body: Record<string, unknown>) =>
  h.request(`/api/v1/${type}/`, { method: "POST", token, json: { project: projectId, ...body } });

const create = async <T extends CalculationType>(type: T, body: Record<string, unknown>) =>
  json<CalculationOf<T>>(await post(type, body), 201);

const detail = async (res: Response) => {
  expect(res.status).toBe(400);
  return ((await res.json()) as { detail: string }).detail;
};

beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser("ООО Котельная на метане"));
  mineId = (
    await json<{ id: string }>(
      await h.request("/api/v1/facilities/", { method: "POST", token, json: { name: "Шахта «Котельная»", kind: "underground_mine" } }),
      201,
    )
  ).id;
  projectId = (
    await json<{ id: string }>(
      await h.request("/api/v1/projects/create_project/", {
        method: "POST",
        token,
        json: { name: "Котельная 2025", start_date: "2025-01-01", end_date: "2025-12-31", facility: mineId },
      }),
      201,
    )
  ).id;
});
afterAll(() => h.close());

describe("a boiler on drained gas of known composition (D28)", () => {
  it("emits the burnt CH4's CO2 and the gas's own, and the mine's gross figure loses both", async () => {
    // The mine's gross measured release (formula 3.1): 10 000 thousand m³ of 60 % CH4 and 5 % CO2.
    const mining = await create("underground", {
      name: "Дегазация, валовый замер",
      volume: 10_000,
      p_co2: 1.8393,
      p_ch4: 0.668,
      ef_co2: 5,
      ef_ch4: 60,
      basis: "gross",
      dictionary_items: { get_underground: null, get_underground_content: null },
    });
    expect(mining.res_ch4).toBeCloseTo(4008, 9);
    expect(mining.res_co2).toBeCloseTo(919.65, 9);

    // 1 000 thousand m³ of that gas in the boiler, the contents typed «60» and «5», no OF.
    const boiler = await create("disposal_co2_stat_sources", {
      name: "Котельная на каптированном метане",
      volume: 1000,
      w_ch4: 60,
      w_co2: 5,
      dictionary_items: { get_disposal_co2_stat_sources: 8 },
    });
    // 1 000 × (5 + 60 × 1,0) × 1,8393 × 10⁻² = 1 195,545 t CO2, of which 91,965 t the gas carried.
    expect(boiler.res_co2).toBeCloseTo(1195.545, 9);
    expect(boiler.w_ch4).toBe(60);
    expect(boiler.w_co2).toBe(5);
    expect(boiler.coefficients.of).toMatchObject({ value: 1, source: "order_default" });
    // Its units are the gas's: thousand m³ burnt, t CO2 per thousand m³, never «тыс. м³ или т» nor «т у.т.».
    expect(boiler.coefficients.volume).toMatchObject({ value: 1000, unit: "тыс. м³", source: "input" });
    expect(boiler.coefficients.ef.unit).toBe("т CO2/тыс. м³");

    const inv = await json<Inventory>(await h.request(`/api/v1/inventory/?year=2025&facility=${mineId}`, { token }), 200);
    const line = (ipcc: string, gas: string) => inv.categories.find((r) => r.ipcc_code === ipcc && r.gas === gas)!;
    // The burnt CH4 (1 000 × 60 × 0,668 × 10⁻² = 400,8 t) and the carried CO2 leave the mining line.
    expect(inv.balance[0].used_t).toBeCloseTo(400.8, 9);
    expect(line("1.B.1.a.i.1", "CH4").t).toBeCloseTo(4008 - 400.8, 6);
    expect(line("1.B.1.a.i.1", "CO2").t).toBeCloseTo(919.65 - 91.965, 6);
    expect(line("1.B.1.a.i.4", "CO2").t).toBeCloseTo(1195.545, 6);
    // The CO2 of the gas counted once: the mine's 919,65 t plus what the burnt CH4 formed.
    expect(line("1.B.1.a.i.1", "CO2").t + line("1.B.1.a.i.4", "CO2").t).toBeCloseTo(919.65 + 1103.58, 6);
    expect(inv.total_t_co2e).toBeCloseTo((4008 - 400.8) * 25 + 919.65 + 1103.58, 6);

    // Its line does not say the gas was taken as 100 % CH4.
    const rows = await inventoryCalculations(h, token, 2025);
    expect(rows.find((c) => c.id === boiler.id)!.notes).not.toContain("газ принят за 100 % CH4");
    // The passport's formula of the line names the composition.
    const xlsx = await h.request("/api/v1/inventory/2025/report/?format=xlsx", { token });
    expect(xlsx.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    const cells: string[] = [];
    workbook.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.value ?? "")))));
    expect(cells.some((text) => text.includes("W_CH4 60 %, W_CO2 5 %"))).toBe(true);
  });

  it("labels the oxidation factor 1,0 the Order's default even when the form sends it, a measured one the user's", async () => {
    const body = { name: "Котельная с OF", volume: 100, dictionary_items: { get_disposal_co2_stat_sources: 8 } };
    const sent = await create("disposal_co2_stat_sources", { ...body, of: 1, w_ch4: 60, w_co2: 5 });
    expect(sent.coefficients.of).toMatchObject({ value: 1, source: "order_default" });
    const measured = await create("disposal_co2_stat_sources", { ...body, of: 0.995, w_ch4: 60, w_co2: 5 });
    expect(measured.coefficients.of).toMatchObject({ value: 0.995, source: "input" });
    // 100 × (5 + 60 × 0,995) × 1,8393 × 10⁻² = 119,00271 t.
    expect(measured.res_co2).toBeCloseTo(119.00271, 9);
  });

  it("records a fuel's consumption in the unit its entry names: t of diesel, thousand m³ of natural gas", async () => {
    const diesel = await create("disposal_co2_stat_sources", {
      name: "Котельная на дизеле",
      volume: 12.5,
      dictionary_items: { get_disposal_co2_stat_sources: 6 },
    });
    expect(diesel.coefficients.volume).toMatchObject({ value: 12.5, unit: "т" });
    expect(diesel.coefficients.k.unit).toBe("т у.т./т");
    const gas = await create("disposal_co2_stat_sources", {
      name: "Котельная на газе",
      volume: 40,
      dictionary_items: { get_disposal_co2_stat_sources: 1 },
    });
    expect(gas.coefficients.volume).toMatchObject({ value: 40, unit: "тыс. м³" });
    // The detailed export's column of several fuels gives each row its fuel's unit.
    const res = await h.request(`/api/v1/projects/${projectId}/export_to_xlsx/?detail=true`, { token });
    expect(res.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await res.arrayBuffer());
    const sheet = workbook.worksheets.find((ws) => (ws.getRow(2).values as unknown[]).includes("Единица: Расход топлива"))!;
    const headers = sheet.getRow(2).values as unknown[];
    const unitOf = (name: string) => {
      for (let r = 3; r <= sheet.rowCount; r++) {
        const row = sheet.getRow(r);
        if (row.getCell(2).value === name) return row.getCell(headers.indexOf("Единица: Расход топлива")).value;
      }
      return undefined;
    };
    expect(unitOf("Котельная на дизеле")).toBe("т");
    expect(unitOf("Котельная на газе")).toBe("тыс. м³");
    expect(unitOf("Котельная на каптированном метане")).toBe("тыс. м³");
  });

  it("refuses a composition for another fuel, W_CO2 without W_CH4 and contents over 100 %", async () => {
    const naturalGas = { name: "Котельная на природном газе", volume: 100, dictionary_items: { get_disposal_co2_stat_sources: 1 } };
    expect(await detail(await post("disposal_co2_stat_sources", { ...naturalGas, w_ch4: 60 }))).toMatch(
      /^w_ch4: .*Каптированный шахтный метан/,
    );
    const mineGas = { name: "Котельная", volume: 100, dictionary_items: { get_disposal_co2_stat_sources: 8 } };
    expect(await detail(await post("disposal_co2_stat_sources", { ...mineGas, w_co2: 5 }))).toMatch(/^w_ch4: /);
    expect(await detail(await post("disposal_co2_stat_sources", { ...mineGas, w_ch4: 96, w_co2: 5 }))).toMatch(/не больше 100/);
  });
});
