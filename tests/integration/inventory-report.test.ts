// The 296-FZ report passport (GET v1/inventory/{year}/report/?format=xlsx|pdf): the company's
// requisites, the year's sources with their coefficients and the totals, read back from the xlsx
// with exceljs and from the PDF with pdftotext (poppler-utils); another company's facility is 404,
// a format other than xlsx or pdf is 400.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import { signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let token: string;
let other: string;
let mine: { id: string };
let foreignFacility: { id: string };
let companyId: string;

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

type Inventory = { total_t_co2e: number; categories: Array<{ t_co2e: number }> };

beforeAll(async () => {
  h = await createHarness();
  const a = await h.signedInUser("ООО «Угольная компания»");
  ({ token, companyId } = a);
  ({ token: other } = await h.signedInUser("ООО Чужая"));
  const company = (await h.deps.repos.companies.get(a.companyId))!;
  await h.deps.repos.companies.replace(
    {
      ...company,
      ogrn: "1027700132195",
      inn: "7707083893",
      kpp: "773601002",
      okved: "05.10.11",
      postal_address: "650000, г. Кемерово, ул. Шахтеров, д. 1",
    },
    company.version ?? 0,
  );

  const facility = async (name: string, kind: string, as: string) =>
    json<{ id: string }>(await h.request("/api/v1/facilities/", { method: "POST", token: as, json: { name, kind } }), 201);
  mine = await facility("Шахта «Южная»", "underground_mine", token);
  foreignFacility = await facility("Шахта чужая", "underground_mine", other);
  const project = await json<{ id: string }>(
    await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token,
      json: { name: "Южная 2025", start_date: "2025-01-01", end_date: "2025-12-31", facility: mine.id },
    }),
    201,
  );
  const calc = async (type: string, name: string, body: Record<string, unknown>) =>
    json(await h.request(`/api/v1/${type}/`, { method: "POST", token, json: { name, project: project.id, ...body } }), 201);
  // D19: the two methods cover halves of the year, so the source is counted once.
  await calc("underground", "Дегазация и вентиляция 2025", {
    volume: 12_345.5,
    p_co2: 1.8393,
    p_ch4: 0.668,
    ef_co2: 1,
    ef_ch4: 60,
    period: { from: "2025-01-01", to: "2025-06-30" },
  });
  await calc("underground_emission_ch4", "Добыча, Tier 2", {
    period: { from: "2025-07-01", to: "2025-12-31" },
    volume: 1_000_000,
    ef: 14.3,
    dictionary_items: { get_underground_emission_ch4: null },
    justifications: { ef: "Замеры газовыделения 2025 г., протокол № 17" },
  });
  await calc("torch_ch4", "Факел (сценарий)", { volume: 500, koef_transform: 0.67, inventory_role: "alternative" });
});
afterAll(() => h.close());

const report = (query: string, as = token) => h.request(`/api/v1/inventory/2025/report/?${query}`, { token: as });

async function bytesOf(res: Response, contentType: string): Promise<Uint8Array> {
  expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
  expect(res.headers.get("content-type")).toBe(contentType);
  expect(res.headers.get("content-disposition")).toMatch(/^attachment;/);
  return new Uint8Array(await res.arrayBuffer());
}

describe("the report passport", () => {
  it("xlsx: the requisites, the status, the sources with their coefficients, and the inventory's total", async () => {
    const inventory = await json<Inventory>(await h.request("/api/v1/inventory/?year=2025", { token }), 200);
    expect(inventory.total_t_co2e).toBeGreaterThan(0);
    const bytes = await bytesOf(await report("format=xlsx"), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);

    const sheet = workbook.getWorksheet("Паспорт")!;
    const rows = new Map<string, ExcelJS.Row>();
    sheet.eachRow((row) => {
      const label = row.getCell(1).value;
      if (typeof label === "string" && !rows.has(label)) rows.set(label, row);
    });
    const value = (label: string) => rows.get(label)?.getCell(2).value;
    expect(sheet.getCell("A1").value).toBe("Паспорт отчета о выбросах парниковых газов за 2025 год");
    expect(value("Наименование организации")).toBe("ООО «Угольная компания»");
    expect(value("ОГРН")).toBe("1027700132195");
    expect(value("ИНН")).toBe("7707083893");
    expect(value("КПП")).toBe("773601002");
    expect(value("ОКВЭД")).toBe("05.10.11");
    expect(value("Адрес")).toBe("650000, г. Кемерово, ул. Шахтеров, д. 1");
    expect(value("Отчетный год")).toBe(2025);
    expect(value("Статус")).toBe("Черновик");

    // 8.1: one sheet per section; the totals are on «Выбросы».
    const emissions = workbook.getWorksheet("Выбросы")!;
    let totalRow: ExcelJS.Row | undefined;
    emissions.eachRow((row) => {
      if (row.getCell(1).value === "Итого" && !totalRow) totalRow = row;
    });
    const total = totalRow!.getCell(5);
    expect(total.value).toBe(inventory.total_t_co2e);
    expect(total.numFmt).toBe("#,##0.00");
    expect(value("Порог 296-ФЗ")).toMatch(/порога 50\u00a0000 т CO2-экв\./);

    // Sources: activity data, every coefficient with its source, the alternative left out.
    const sources = workbook.getWorksheet("Источники")!;
    const lines: Array<Array<unknown>> = [];
    sources.eachRow((row) => lines.push((row.values as unknown[]).slice(1)));
    const text = JSON.stringify(lines);
    expect(text).toContain("Периодические измерения");
    expect(text).toContain("Расчетный метод по коэффициентам");
    expect(text).not.toContain("Факел (сценарий)");
    const custom = lines.find((l) => l[3] === "Добыча, Tier 2" && l[6] === "Коэффициент" && l[9] === "м³/т")!;
    expect(custom[8]).toBe(14.3);
    expect(String(custom[10])).toMatch(/^Фактическое значение; обоснование: Замеры газовыделения 2025 г\., протокол № 17/);
    const activity = lines.find((l) => l[3] === "Дегазация и вентиляция 2025" && l[6] === "Данные о деятельности")!;
    expect(activity.slice(8, 10)).toEqual([12_345.5, "тыс. м³"]);
    const emitted = lines.filter((l) => l[6] === "Выбросы" && String(l[7]).endsWith("CO2-эквиваленте"));
    expect(emitted.reduce((sum, l) => sum + (l[8] as number), 0)).toBeCloseTo(inventory.total_t_co2e, 6);
  });

  it("refuses another company's facility (404) and any format but xlsx and pdf (400)", async () => {
    expect((await report(`format=xlsx&facility=${foreignFacility.id}`)).status).toBe(404);
    expect((await report(`format=pdf&facility=${foreignFacility.id}`)).status).toBe(404);
    const own = await report(`format=xlsx&facility=${mine.id}`);
    expect(own.status).toBe(200);
    expect(decodeURIComponent(own.headers.get("content-disposition") ?? "")).toContain("Паспорт отчета 2025 Шахта «Южная».xlsx");
    for (const query of ["format=docx", "format=", ""]) {
      const res = await report(query);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^Формат: /);
    }
    expect((await h.request("/api/v1/inventory/1800/report/?format=pdf", { token })).status).toBe(400);
  });

  it("pdf: a PDF with its fonts embedded", async () => {
    const bytes = await bytesOf(await report("format=pdf"), "application/pdf");
    const head = new TextDecoder("latin1").decode(bytes.slice(0, 5));
    expect(head).toBe("%PDF-");
    expect(new TextDecoder("latin1").decode(bytes)).toMatch(/DejaVuSans/);
  });
});

describe("the report passport's PDF read back with pdftotext", () => {
  it("has the requisites, the sources, the total in Russian number format and the footnote", async () => {
    const inventory = await json<Inventory>(await h.request("/api/v1/inventory/?year=2025", { token }), 200);
    const bytes = await bytesOf(await report("format=pdf"), "application/pdf");
    const file = join(mkdtempSync(join(tmpdir(), "passport-")), "passport.pdf");
    writeFileSync(file, bytes);
    const out = spawnSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    const text = out.stdout.replace(/[ \u00a0]+/g, " ");
    // Texts in narrow table cells wrap onto the next line.
    const joined = text.replace(/\s+/g, " ");
    for (const expected of [
      "Паспорт отчета о выбросах парниковых газов за 2025 год",
      "ООО «Угольная компания»",
      "1027700132195",
      "7707083893",
      "773601002",
      "05.10.11",
      "Статус Черновик",
      "Шахта «Южная»",
      "Периодические измерения",
      "не формат файла для загрузки в реестр",
    ]) {
      expect(joined).toContain(expected);
    }
    // The justification, read in the order the cell holds it.
    const raw = spawnSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    expect(raw.stdout).toMatch(/Замеры\s+газовыделения\s+2025\s+г\.,\s+протокол\s+№\s+17/);
    // The total with the thousands grouped and a decimal comma: 12 345,67.
    const total = inventory.total_t_co2e
      .toFixed(2)
      .replace(".", ",")
      .replace(/\B(?=(\d{3})+(?!\d))/g, " ");
    expect(text).toMatch(new RegExp(`Итого\\s+${total}`));
    // The alternative is named among the checks only, never as a source.
    expect(joined).toContain("Не учтен: 1 альтернативный расчет: «Факел (сценарий)»");
    expect(text).not.toContain("«Факел (сценарий)» (проект");
  });
});

describe("the passport of an approved year", () => {
  // Last: the approval freezes the year.
  it("says who approved it and when, with the year's transitions", async () => {
    await createUser(h.deps, {
      companyId,
      email: "reviewer@ugol.example",
      password: "reviewer-password",
      role: "reviewer",
      first_name: "Мария",
      last_name: "Проверяющая",
    });
    const reviewer = ((await (await signIn(h, "reviewer@ugol.example", "reviewer-password")).json()) as { access: string }).access;
    const act = (as: string, body: Record<string, unknown>) =>
      h.request("/api/v1/inventory/2025/review/", { method: "POST", token: as, json: body });
    const sent = await json<{ version: number }>(await act(token, { action: "send_to_review", version: 0 }), 200);
    await json(await act(reviewer, { action: "approve", version: sent.version }), 200);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(
      (await bytesOf(
        await report("format=xlsx"),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      )) as unknown as ArrayBuffer,
    );
    const lines: Array<[unknown, unknown]> = [];
    workbook.getWorksheet("Паспорт")!.eachRow((row) => lines.push([row.getCell(1).value, row.getCell(2).value]));
    expect(lines).toContainEqual(["Статус", "Утверждена"]);
    const approvals = lines.filter(([label]) => label === "Согласование").map(([, text]) => String(text));
    expect(approvals[0]).toMatch(/^Утверждена \d\d\.\d\d\.\d{4}, Мария Проверяющая$/);
    expect(approvals.slice(1)).toEqual([
      expect.stringMatching(/: направлено на проверку \(.+\)$/),
      expect.stringMatching(/: утверждено \(Мария Проверяющая\)$/),
    ]);
  });
});
