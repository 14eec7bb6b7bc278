// D24 through the API: a flare or boiler that takes its gas as 100 % CH4 (so the CO2 the drained
// gas already carries is not counted) says «газ принят за 100 % CH4» on its inventory line, in the
// report passport (xlsx and PDF) and in the project's txt export; flaring by composition, which
// counts that CO2, and a boiler on natural gas say nothing of the kind.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import type { CalculationView } from "@server/contract";
import { inventoryCalculations } from "../support/inventory";

const MARK = "газ принят за 100 % CH4";

let h: Harness;
let token: string;
let projectId: string;
let ipccFlare: CalculationView;
let byComposition: CalculationView;
let naturalGas: CalculationView;
let mineGasBoiler: CalculationView;

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

const create = async (type: string, body: Record<string, unknown>) =>
  json<CalculationView>(await h.request(`/api/v1/${type}/`, { method: "POST", token, json: { project: projectId, ...body } }), 201);

beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser("ООО Состав газа"));
  projectId = (
    await json<{ id: string }>(
      await h.request("/api/v1/projects/create_project/", {
        method: "POST",
        token,
        json: { name: "Шахта «Газовая»", start_date: "2025-01-01", end_date: "2025-12-31" },
      }),
      201,
    )
  ).id;
  // Made primary so that it is a line of the year (D22 creates it as an alternative).
  ipccFlare = await create("torch_ch4", { name: "Факел МГЭИК", volume: 1000, koef_transform: 0.67, inventory_role: "primary" });
  byComposition = await create("torch_composition", {
    name: "Факел по составу",
    volume: 2000,
    w_ch4: 60,
    w_co2: 5,
    cf: 0.0006,
    p_co2: 1.8393,
    p_ch4: 0.668,
    inventory_role: "alternative",
    dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
  });
  naturalGas = await create("disposal_co2_stat_sources", {
    name: "Котельная на природном газе",
    volume: 1000,
    of: 1,
    dictionary_items: { get_disposal_co2_stat_sources: 1 },
  });
  // «Каптированный шахтный метан» (100 % CH4): its source note says it already, once.
  mineGasBoiler = await create("disposal_co2_stat_sources", {
    name: "Котельная на шахтном метане",
    volume: 500,
    of: 1,
    dictionary_items: { get_disposal_co2_stat_sources: 8 },
  });
});
afterAll(() => h.close());

describe("a type that takes its gas as pure methane says so (D24)", () => {
  it("on the inventory's line, and only there", async () => {
    const rows = await inventoryCalculations(h, token, 2025);
    const notes = (calc: CalculationView) => rows.find((c) => c.id === calc.id)!.notes;
    expect(notes(ipccFlare)).toContain(MARK);
    expect(notes(byComposition)).not.toContain(MARK);
    expect(notes(naturalGas)).not.toContain(MARK);
    expect(notes(mineGasBoiler).filter((note) => note === MARK)).toEqual([MARK]);
  });

  it("in the report passport, xlsx and PDF", async () => {
    const xlsx = await h.request("/api/v1/inventory/2025/report/?format=xlsx", { token });
    expect(xlsx.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    const cells: string[] = [];
    workbook.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.value ?? "")))));
    expect(cells.filter((text) => text.includes(MARK)).length).toBeGreaterThan(0);

    const pdf = await h.request("/api/v1/inventory/2025/report/?format=pdf", { token });
    expect(pdf.status).toBe(200);
    const file = join(mkdtempSync(join(tmpdir(), "pure-methane-")), "passport.pdf");
    writeFileSync(file, new Uint8Array(await pdf.arrayBuffer()));
    const out = spawnSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout.replace(/\s+/g, " ")).toContain(MARK);
  });

  it("in the project's txt export, under the calculation's «Отметки»", async () => {
    const res = await h.request(`/api/v1/projects/${projectId}/export_to_txt/`, { token });
    expect(res.status).toBe(200);
    const text = await res.text();
    const block = (name: string) => {
      const start = text.indexOf(`. ${name}\n`);
      expect(start, name).toBeGreaterThan(0);
      expect(text.indexOf(`. ${name}\n`, start + 1), name).toBe(-1);
      // Up to the next numbered calculation or the end of the section.
      const rest = text.slice(start + 2);
      const end = rest.search(/\n(\d+\. |\n)/);
      return rest.slice(0, end < 0 ? undefined : end);
    };
    expect(block(ipccFlare.name)).toMatch(/Отметки: .*газ принят за 100 % CH4/);
    expect(block(byComposition.name)).not.toContain(MARK);
    expect(block(naturalGas.name)).not.toContain(MARK);
    expect(block(mineGasBoiler.name)).toMatch(/Отметки: .*газ принят за 100 % CH4/);
  });
});
