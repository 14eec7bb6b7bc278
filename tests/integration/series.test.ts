import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ExcelJS from "exceljs";
import type { Harness } from "../support/harness";
import { openProjectFixture, type SignedInUser } from "../support/project-fixture";
import { vectors } from "@core/methodology-vectors";
import type { Project } from "@server/contract/schemas/project";

let h: Harness;
let user: SignedInUser;
let project: Project;

beforeAll(async () => {
  ({ h, user, project } = await openProjectFixture("Ряды"));
});
afterAll(() => h.close());

const newProject = () => h.newProject(user.token, "Ряды");

async function xlsx(rows: unknown[][]): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Данные");
  rows.forEach((r) => ws.addRow(r));
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

function upload(
  type: string,
  fields: Record<string, string>,
  file?: { name: string; bytes: Uint8Array },
  projectId = project.id,
  method = "POST",
  path = `/api/v1/${type}/`,
) {
  const form = new FormData();
  form.set("project", projectId);
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set("file_data", new Blob([file.bytes as Uint8Array<ArrayBuffer>]), file.name);
  return h.request(path, { method, token: user.token, body: form });
}

async function count(type: string, projectId: string) {
  const res = await h.request(`/api/v1/${type}/?project=${projectId}`, { token: user.token });
  return ((await res.json()) as { count: number }).count;
}

type Element = { id: number; name: string; rows: Array<{ year: number; value: number | null; method: string | null }> };

describe("filling_blanks", () => {
  it("fills methodology vector A from an .xlsx, flagging every filled value with its method", async () => {
    const a = vectors.filling_blanks[0];
    const rows = [["year", "Шахта", "CH4"], ...a.years.map((y, i) => [y, "Северная", a.values[i]])];
    const res = await upload(
      "filling_blanks",
      { name: "Пропуски", name_value: "CH4", name_element: "Шахта" },
      { name: "ряд.xlsx", bytes: await xlsx(rows) },
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const calc = (await res.json()) as { id: string; elements: Element[]; file_data: { name: string } };
    expect(calc.file_data.name).toBe("ряд.xlsx");
    expect(calc.elements).toHaveLength(1);
    expect(calc.elements[0].name).toBe("Северная");
    calc.elements[0].rows.forEach((r, i) => expect(Math.abs((r.value as number) - a.filled[i])).toBeLessThan(1e-6));
    expect(calc.elements[0].rows.map((r) => r.method)).toEqual([
      "trend",
      null,
      "interp",
      "interp",
      null,
      null,
      "interp",
      null,
      "trend",
      "trend",
    ]);
    const source = await h.request(`/api/v1/filling_blanks/${calc.id}/file/`, { token: user.token });
    expect(source.status).toBe(200);
    expect(source.headers.get("content-disposition")).toContain("filename*=UTF-8''%D1%80%D1%8F%D0%B4.xlsx");
  });

  it("handles several elements from a CSV, with clipping and the constant case (vectors B and C)", async () => {
    const text =
      "year,element,value\n2018,B,50\n2019,B,30\n2020,B,\n2021,B,10\n2022,B,\n" + "2018,C,\n2019,C,\n2020,C,7.5\n2021,C,\n2022,C,\n";
    const res = await upload(
      "filling_blanks",
      { name: "Два ряда", name_value: "value", name_element: "element" },
      { name: "r.csv", bytes: new TextEncoder().encode(text) },
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const { elements } = (await res.json()) as { elements: Element[] };
    expect(elements.map((e) => e.name)).toEqual(["B", "C"]);
    expect(elements[0].rows.map((r) => r.value)).toEqual([50, 30, 20, 10, 0]);
    expect(elements[0].rows[4].method).toBe("clipped");
    expect(elements[1].rows.map((r) => [r.value, r.method])).toEqual([
      [7.5, "constant"],
      [7.5, "constant"],
      [7.5, null],
      [7.5, "constant"],
      [7.5, "constant"],
    ]);
  });

  it("recomputes from the stored file when the value column changes, without a new upload", async () => {
    const res = await upload(
      "filling_blanks",
      { name: "Два столбца", name_value: "a" },
      {
        name: "two.csv",
        bytes: new TextEncoder().encode("year,a,b\n2020,1,10\n2021,,\n2022,3,30\n"),
      },
    );
    const calc = (await res.json()) as { id: string; version: number; elements: Element[] };
    expect(calc.elements[0].rows[1].value).toBe(2);
    const patched = await h.request(`/api/v1/filling_blanks/${calc.id}/`, {
      method: "PATCH",
      token: user.token,
      json: { name_value: "b", version: 1 },
    });
    expect(patched.status, await patched.clone().text()).toBe(200);
    expect(((await patched.json()) as { elements: Element[] }).elements[0].rows[1].value).toBe(20);
  });
});

describe("sensitivity", () => {
  it("computes sensitivity (methodology D6) from an .xlsx", async () => {
    const v = vectors.sensitivity;
    const rows = [["year", "volume", "methane"], ...v.rows.map((r) => [r.year, r.volume, r.methane])];
    const res = await upload("sensitivity", { name: "Чувствительность" }, { name: "s.xlsx", bytes: await xlsx(rows) });
    expect(res.status, await res.clone().text()).toBe(201);
    const calc = (await res.json()) as {
      elements: Array<{ data_sensitivity: Array<Record<string, number>> }>;
      coefficients: Record<string, { value: number }>;
    };
    const data = calc.elements[0].data_sensitivity;
    v.rows.forEach((expected, i) => {
      for (const key of ["res_co2", "res_co2_transport", "res_co2_all"] as const) {
        expect(Math.abs(data[i][key] - expected[key])).toBeLessThan(1e-9 * expected[key]);
      }
      expect(Math.abs(data[i].sn_methan - expected.sn_methan)).toBeLessThan(1e-6);
    });
    expect(calc.coefficients.gwp_ch4.value).toBe(25);
    expect(calc.coefficients.k_tr.value).toBe(0.003149);
  });
});

describe("templates", () => {
  it.each(["filling_blanks", "sensitivity"])("%s: the downloadable template is itself a valid upload", async (type) => {
    const res = await h.request(`/api/v1/${type}/template/`, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("spreadsheetml");
    const bytes = new Uint8Array(await res.arrayBuffer());
    const fields: Record<string, string> =
      type === "filling_blanks" ? { name: "Из шаблона", name_value: "Значение", name_element: "Шахта" } : { name: "Из шаблона" };
    const created = await upload(type, fields, { name: "template.xlsx", bytes });
    expect(created.status, await created.clone().text()).toBe(201);
    const csv = await h.request(`/api/v1/${type}/template/?format=csv`, { token: user.token });
    const fromCsv = await upload(type, fields, { name: "template.csv", bytes: new Uint8Array(await csv.arrayBuffer()) });
    expect(fromCsv.status, await fromCsv.clone().text()).toBe(201);
  });
});

describe("bad files get clear errors and store nothing", () => {
  it.each([
    ["a text in a number cell", "year,volume,methane\n2020,1000,10\n2021,много,9\n", 400, "строка 3, столбец «volume»"],
    ["a missing column", "year,volume\n2020,1000\n", 400, "нет столбца «Относительная метанообильность, м³/т»"],
    ["a header only", "year,volume,methane\n", 400, "нет строк с данными"],
    ["a year that is no year", "year,volume,methane\nдве тысячи,1,1\n", 400, "столбец «year»"],
  ])("%s", async (_what, text, status, detail) => {
    const p = await newProject();
    const res = await upload("sensitivity", { name: "Ошибка" }, { name: "bad.csv", bytes: new TextEncoder().encode(text as string) }, p.id);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { detail: string }).detail).toContain(detail);
    expect(await count("sensitivity", p.id)).toBe(0);
  });

  it("refuses a missing file, a PDF (415) and a file over the cap (413)", async () => {
    const p = await newProject();
    const none = await upload("sensitivity", { name: "Без файла" }, undefined, p.id);
    expect(none.status).toBe(400);
    expect(((await none.json()) as { detail: string }).detail).toContain("file_data");
    const pdf = await upload("sensitivity", { name: "PDF" }, { name: "x.pdf", bytes: new TextEncoder().encode("%PDF-1.4 ...") }, p.id);
    expect(pdf.status).toBe(415);
    const huge = await upload(
      "sensitivity",
      { name: "Большой" },
      { name: "big.csv", bytes: new Uint8Array(6 * 1024 * 1024).fill(49) },
      p.id,
    );
    expect(huge.status).toBe(413);
    expect(await count("sensitivity", p.id)).toBe(0);
  });

  it("refuses multipart for a formula type and malformed multipart", async () => {
    const form = await upload("torch_ch4", { name: "x", volume: "1" });
    expect(form.status).toBe(415);
    const broken = await h.request("/api/v1/sensitivity/", {
      method: "POST",
      token: user.token,
      headers: { "Content-Type": "multipart/form-data; boundary=xyz" },
      body: '--xyz\r\nContent-Disposition: form-data; name="name"\r\n\r\nbroken',
    });
    expect(broken.status).toBe(400);
  });

  it("never lets another company read the source file", async () => {
    const res = await upload(
      "sensitivity",
      { name: "Чужой" },
      { name: "s.csv", bytes: new TextEncoder().encode("year,volume,methane\n2020,1,1\n") },
    );
    const calc = (await res.json()) as { id: string };
    const other = await h.signedInUser();
    const foreign = await h.request(`/api/v1/sensitivity/${calc.id}/file/`, { token: other.token });
    expect(foreign.status).toBe(404);
  });
});

describe("files whose results would not fit in one stored calculation", () => {
  const names = Array.from({ length: 2000 }, (_, i) =>
    `${String(i).padStart(4, "0")} ${"Участок с длинным названием ".repeat(4)}`.slice(0, 100),
  );

  it.each([
    ["filling_blanks", { name: "Много элементов", name_value: "CH4", name_element: "Шахта" }, "year;Шахта;CH4", "Шахта"],
    ["sensitivity", { name: "Много элементов" }, "year;element;volume;methane", "element"],
  ] as const)(
    "%s: 2 000 rows of 100-character names get 400 naming the sheet, row and column, and store nothing",
    async (type, fields, header, column) => {
      const lines = names.map((name, i) =>
        type === "filling_blanks" ? `${2000 + (i % 20)};${name};${i}` : `${2000 + (i % 20)};${name};1000;10`,
      );
      const before = await count(type, project.id);
      const res = await upload(type, fields, { name: "много.csv", bytes: new TextEncoder().encode([header, ...lines].join("\n")) });
      const body = (await res.json()) as { detail: string };
      expect(res.status, body.detail).toBe(400);
      expect(body.detail).toMatch(
        new RegExp(`^Лист «CSV», строка \\d+, столбец «${column}»: с этого элемента результат не помещается в один расчет`),
      );
      expect(await count(type, project.id)).toBe(before);
    },
  );

  it("refuses one 450 KB name as a text cell too long, naming its place", async () => {
    const res = await upload(
      "sensitivity",
      { name: "Длинное имя" },
      {
        name: "имя.csv",
        bytes: new TextEncoder().encode(`year;element;volume;methane\n2020;${"ш".repeat(230_000)};1000;10\n`),
      },
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(
      /^Лист «CSV», строка 2, столбец «element»: текст длиннее 255 символов/,
    );
  });
});

describe("the store's own limit", () => {
  it("refuses an item over DynamoDB's 400 KB as bad input, never a 500", async () => {
    const res = await upload(
      "sensitivity",
      { name: "Небольшой" },
      { name: "a.csv", bytes: new TextEncoder().encode("year;volume;methane\n2020;1000;10\n") },
    );
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const stored = (await h.deps.repos.calculations.get(user.companyId, "sensitivity", id))!;
    const huge = {
      ...stored,
      version: stored.version + 1,
      results: { elements: Array.from({ length: 5000 }, (_, i) => ({ id: i, name: "ш".repeat(50) })) },
    };
    await expect(h.deps.repos.calculations.replace(huge, stored.version)).rejects.toMatchObject({
      kind: "invalid",
      detail: expect.stringContaining("400 КБ"),
    });
    expect((await h.deps.repos.calculations.get(user.companyId, "sensitivity", id))!.version).toBe(stored.version);
  });
});
