// an earlier round / D13: activity inputs in the units users keep. A production entered as 3 100
// thousand t stores the result of 3 100 000 t, in t, beside the value and unit as entered; gas in m³
// or million m³ is stored in thousand m³; a canonical value that disagrees with what was entered, or
// a unit the field does not take, is a 400 naming the field; an edit keeps what was entered while
// the value stays, and a new value in the canonical unit drops it.
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../support/harness";
import type { Project } from "@server/contract/schemas/project";
import { openProjectFixture, type SignedInUser } from "../support/project-fixture";
import type { CalculationView } from "@server/contract";

let h: Harness;
let user: SignedInUser;
let project: Project;

beforeAll(async () => {
  ({ h, user, project } = await openProjectFixture());
});
afterAll(() => h.close());

/** The first entry of each dictionary, as the dialog preselects it. */
const FIRST: Record<string, Record<string, number>> = {
  underground_emission_ch4: { get_underground_emission_ch4: 1 },
  torch_ch4: { get_torch_ch4: 1 },
  underground: { get_underground: 1, get_underground_content: 1 },
};
const post = (type: string, body: Record<string, unknown>) =>
  h.request(`/api/v1/${type}/`, {
    method: "POST",
    token: user.token,
    json: { name: "Единицы", project: project.id, dictionary_items: FIRST[type], ...body },
  });
const created = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as CalculationView;
};
const patch = (type: string, calc: CalculationView, body: Record<string, unknown>) =>
  h.request(`/api/v1/${type}/${calc.id}/`, { method: "PATCH", token: user.token, json: { version: calc.version, ...body } });

describe("units as entered (D13)", () => {
  it("stores 3 100 thousand t as 3 100 000 t with the same result, and what was entered", async () => {
    const inThousands = await created(await post("underground_emission_ch4", { entered: { volume: { value: 3100, unit: "тыс. т" } } }));
    const inTonnes = await created(await post("underground_emission_ch4", { volume: 3_100_000 }));
    expect(inThousands.volume).toBe(3_100_000);
    expect(inThousands.res_ch4).toBe(inTonnes.res_ch4);
    expect(inThousands.res_ch4_to_co2).toBe(inTonnes.res_ch4_to_co2);
    expect(inThousands.entered).toEqual({ volume: { value: 3100, unit: "тыс. т" } });
    expect(inTonnes.entered).toBeUndefined();
    const inMillions = await created(await post("underground_emission_ch4", { entered: { volume: { value: 3.1, unit: "млн т" } } }));
    expect(inMillions.volume).toBe(3_100_000);
    expect(inMillions.res_ch4).toBe(inTonnes.res_ch4);
    expect(inMillions.entered).toEqual({ volume: { value: 3.1, unit: "млн т" } });
    const read = (await (
      await h.request(`/api/v1/underground_emission_ch4/${inThousands.id}/`, { token: user.token })
    ).json()) as CalculationView;
    expect(read.entered).toEqual(inThousands.entered);
  });

  it("stores gas volumes in thousand m³ whatever they were entered in", async () => {
    const m3 = await created(await post("torch_ch4", { entered: { volume: { value: 1500, unit: "м³" } } }));
    expect(m3.volume).toBe(1.5);
    const millions = await created(await post("underground", { entered: { volume: { value: 10, unit: "млн м³" } } }));
    const thousands = await created(await post("underground", { volume: 10_000 }));
    expect(millions.volume).toBe(10_000);
    expect(millions.sum_co2).toBe(thousands.sum_co2);
  });

  it("accepts the canonical value beside what was entered when they agree, and refuses otherwise", async () => {
    const agreeing = await post("underground_emission_ch4", { volume: 3_100_000, entered: { volume: { value: 3100, unit: "тыс. т" } } });
    expect(agreeing.status).toBe(201);
    const slipped = await post("underground_emission_ch4", { volume: 3100, entered: { volume: { value: 3100, unit: "тыс. т" } } });
    expect(slipped.status).toBe(400);
    expect(await slipped.text()).toContain("volume: значение 3100 т не совпадает с введённым (3100 тыс. т)");
    const wrongUnit = await post("underground_emission_ch4", { entered: { volume: { value: 3100, unit: "м³" } } });
    expect(wrongUnit.status).toBe(400);
    expect(await wrongUnit.text()).toContain("entered.volume: Единица «м³» не подходит: т, тыс. т, млн т");
    const notActivity = await post("underground_emission_ch4", { volume: 1, entered: { ef: { value: 18, unit: "м³/т" } } });
    expect(notActivity.status).toBe(400);
    expect(await notActivity.text()).toContain("entered.ef");
  });

  it("keeps what was entered on an edit of another field, and drops it for a new canonical value", async () => {
    const calc = await created(await post("underground_emission_ch4", { entered: { volume: { value: 3100, unit: "тыс. т" } } }));
    const res = await patch("underground_emission_ch4", calc, { ef: 10, dictionary_items: { get_underground_emission_ch4: 2 } });
    expect(res.status, await res.clone().text()).toBe(200);
    const edited = (await res.json()) as CalculationView;
    expect(edited.entered).toEqual({ volume: { value: 3100, unit: "тыс. т" } });
    const retyped = (await (
      await patch("underground_emission_ch4", edited, { entered: { volume: { value: 3.2, unit: "тыс. т" } } })
    ).json()) as CalculationView;
    expect(retyped.volume).toBe(3200);
    expect(retyped.entered).toEqual({ volume: { value: 3.2, unit: "тыс. т" } });
    const canonical = (await (await patch("underground_emission_ch4", retyped, { volume: 5000 })).json()) as CalculationView;
    expect(canonical.volume).toBe(5000);
    expect(canonical.entered).toBeUndefined();
  });

  it("exports both: the stored value in t and, beside it, what was entered", async () => {
    const own = await h.newProject(user.token, "Экспорт единиц");
    const res = await h.request("/api/v1/underground_emission_ch4/", {
      method: "POST",
      token: user.token,
      json: {
        name: "В тысячах тонн",
        project: own.id,
        dictionary_items: FIRST.underground_emission_ch4,
        entered: { volume: { value: 3100, unit: "тыс. т" } },
      },
    });
    expect(res.status).toBe(201);
    const download = await h.request(`/api/v1/projects/${own.id}/export_to_xlsx/?detail=true`, { token: user.token });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await download.arrayBuffer());
    const sheet = wb.worksheets.find((ws) => ws.name.startsWith("Выбросы CH4 при добыче"))!;
    expect(sheet, wb.worksheets.map((ws) => ws.name).join(" | ")).toBeDefined();
    const header = (sheet.getRow(2).values as unknown[]).slice(1) as string[];
    const row = (sheet.getRow(3).values as unknown[]).slice(1);
    expect(row[header.indexOf("Объём добычи угля подземным способом, т")]).toBe(3_100_000);
    expect(row[header.indexOf("Введено: Объём добычи угля подземным способом")]).toBe("3\u00a0100 тыс. т");
  });

  it("reads a production in thousand t from an upload's volume_unit column, row by row", async () => {
    const upload = async (csv: string) => {
      const form = new FormData();
      form.set("project", project.id);
      form.set("name", "Чувствительность");
      form.set("file_data", new Blob([new TextEncoder().encode(csv)]), "добыча.csv");
      return h.request("/api/v1/sensitivity/", { method: "POST", token: user.token, body: form });
    };
    const inThousands = await upload("year,volume,methane,volume_unit\n2020,1000,10,тыс. т\n2021,1200000,9,т\n2022,1100000,11,\n");
    const inTonnes = await upload("year,volume,methane\n2020,1000000,10\n2021,1200000,9\n2022,1100000,11\n");
    expect(inThousands.status, await inThousands.clone().text()).toBe(201);
    const rows = (calc: CalculationView) => (calc.elements as Array<{ data_sensitivity: unknown[] }>)[0].data_sensitivity;
    expect(rows((await inThousands.json()) as CalculationView)).toEqual(rows((await inTonnes.json()) as CalculationView));

    const wrong = await upload("year,volume,methane,volume_unit\n2020,1000,10,кг\n");
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("строка 2, столбец «volume_unit»: Единица «кг» не подходит: т, тыс. т, млн т");
  });
});
