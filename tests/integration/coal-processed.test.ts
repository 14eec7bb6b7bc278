// 8.1: the report prints a facility's coal processed, which no calculation carries: it is entered on
// the year's inventory (PUT v1/inventory/{year}/coal_processed/), freezes with the year (D20) and an
// approved version's report prints the figure as approved, on dynalite.
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import { signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let staff: string;
let reviewer: string;
let other: string;
let plant: { id: string };
let mine: { id: string };
let stranger: { id: string };

type Review = { version: number; status: string; coal_processed?: Array<{ facility: string; t: number }> };

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

const put = (body: Record<string, unknown>, token = staff) =>
  h.request("/api/v1/inventory/2025/coal_processed/", { method: "PUT", token, json: body });
const review = async () => (await json<{ review: Review }>(await h.request("/api/v1/inventory/?year=2025", { token: staff }), 200)).review;
const act = async (token: string, action: string, extra: Record<string, unknown> = {}) =>
  json<Review>(
    await h.request("/api/v1/inventory/2025/review/", {
      method: "POST",
      token,
      json: { action, version: (await review()).version, ...extra },
    }),
    200,
  );

/** A sheet of the company's passport, without its header. */
async function sheetRows(sheet = "Данные о деятельности"): Promise<unknown[][]> {
  const res = await h.request("/api/v1/inventory/2025/report/?format=xlsx", { token: staff });
  expect(res.status).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await res.arrayBuffer()) as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.getWorksheet(sheet)!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows.slice(1);
}
const activityRows = () => sheetRows();

beforeAll(async () => {
  h = await createHarness();
  const a = await h.signedInUser("ООО «Уголь и фабрика»");
  staff = a.token;
  const b = await h.signedInUser("ООО Чужая");
  other = b.token;
  await createUser(h.deps, { companyId: a.companyId, email: "reviewer@plant.example", password: "reviewer-password", role: "reviewer" });
  reviewer = ((await (await signIn(h, "reviewer@plant.example", "reviewer-password")).json()) as { access: string }).access;
  const facility = async (name: string, kind: string, token = staff) =>
    json<{ id: string }>(await h.request("/api/v1/facilities/", { method: "POST", token, json: { name, kind } }), 201);
  plant = await facility("ЦОФ «Березовская»", "processing_plant");
  mine = await facility("Шахта «Северная»", "underground_mine");
  stranger = await facility("Чужая фабрика", "processing_plant", other);
  const project = await json<{ id: string }>(
    await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token: staff,
      json: { name: "Северная 2025", start_date: "2025-01-01", end_date: "2025-12-31", facility: mine.id },
    }),
    201,
  );
  await json(
    await h.request("/api/v1/underground_emission_ch4/", {
      method: "POST",
      token: staff,
      json: { name: "Добыча", project: project.id, volume: 1_000_000, dictionary_items: { get_underground_emission_ch4: 1 } },
    }),
    201,
  );
});
afterAll(() => h.close());

describe("a facility's coal processed in the year", () => {
  it("is refused when negative, not a number, another company's facility or a stale version", async () => {
    const { version } = await review();
    expect((await json<{ detail: string }>(await put({ facility: plant.id, t: -1, version }), 400)).detail).toMatch(/^Время: /);
    expect((await json<{ detail: string }>(await put({ facility: plant.id, t: "много", version }), 400)).detail).toMatch(/^Время: /);
    expect((await json<{ detail: string }>(await put({ facility: stranger.id, t: 1, version }), 404)).detail).toBe("Площадка не найдена");
    expect((await put({ facility: plant.id, t: 1, version: version + 5 })).status).toBe(409);
    expect((await review()).coal_processed ?? []).toEqual([]);
  });

  it("is printed with the facility's activity data, even for a plant without calculations", async () => {
    const saved = await json<Review>(await put({ facility: plant.id, t: 2_450_000.5, version: (await review()).version }), 200);
    expect(saved.coal_processed).toEqual([{ facility: plant.id, t: 2_450_000.5 }]);
    expect(await activityRows()).toEqual([
      ["Шахта «Северная»", "Добыча угля подземным способом", 1_000_000, "т"],
      ["ЦОФ «Березовская»", "Переработка угля", 2_450_000.5, "т"],
    ]);
    // Another company neither sees nor reaches it.
    const theirs = await json<{ review: Review }>(await h.request("/api/v1/inventory/?year=2025", { token: other }), 200);
    expect(theirs.review.coal_processed ?? []).toEqual([]);
  });

  it("freezes with the year, and the approved version's report keeps the figure as approved", async () => {
    await act(staff, "send_to_review");
    await act(reviewer, "approve");
    const frozen = await json<{ detail: string }>(await put({ facility: plant.id, t: 1, version: (await review()).version }), 409);
    expect(frozen.detail).toMatch(/Инвентаризация 2025 года утверждена.*переработку угля изменить нельзя/);
    expect(await activityRows()).toContainEqual(["ЦОФ «Березовская»", "Переработка угля", 2_450_000.5, "т"]);

    await act(reviewer, "reopen", { reason: "Уточнить переработку" });
    await json(await put({ facility: plant.id, t: null, version: (await review()).version }), 200);
    expect(await activityRows()).toEqual([["Шахта «Северная»", "Добыча угля подземным способом", 1_000_000, "т"]]);
    // D20: version 2 says what changed against version 1.
    await act(staff, "send_to_review");
    expect((await act(reviewer, "approve")).status).toBe("approved");
    const checks = (await sheetRows("Проверки")).flat().map((cell) => String(cell).replace(/[\u00a0\u202f]/g, " "));
    expect(checks).toContain("Изменена переработка угля, «ЦОФ «Березовская»»: 2 450 000,50 т → не указано");
  });
});
