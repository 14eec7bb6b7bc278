// The physical bounds of a calculation's numbers (registry PHYSICAL_BOUNDS, domain/inventory/magnitudes.ts):
// an input or a result over its bound is a 400 naming the field by its label and the unit as typed,
// a write that would carry a project's kept sums past their bound is refused before it is made; a
// calculation over the bounds that reached the table all the same is left out of the kept sums by
// the stream, reported by the reconciliation (which goes on past a company that fails) and the
// local server starts with it in the store.
import { PutItemCommand } from "@aws-sdk/client-dynamodb";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { groupedNumber } from "@core/emissions";
import { PHYSICAL_BOUNDS } from "@core/registry";
import * as keys from "@server/adapters/dynamodb/keys";
import type { CalculationView } from "@server/contract";
import type { Project } from "@server/contract/schemas/project";
import { reconcileAllStatistics, reconcileCompanyStatistics } from "@server/domain/inventory/statistics";
import { LOCAL_TABLE } from "@server/local/storage";
import { startLocalServer } from "@server/local/server";
import { createCompany } from "@server/domain/company/users";
import type { StoredCalculation } from "@server/ports";
import type { Harness } from "../support/harness";
import { openProjectFixture, type SignedInUser } from "../support/project-fixture";

let h: Harness;
let user: SignedInUser;
let project: Project;

beforeAll(async () => {
  ({ h, user, project } = await openProjectFixture());
});
afterAll(() => h.close());

const post = (type: string, body: Record<string, unknown>, projectId = project.id) =>
  h.request(`/api/v1/${type}/`, { method: "POST", token: user.token, json: { name: "Предел", project: projectId, ...body } });
const detail = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(400);
  return ((await res.json()) as { detail: string }).detail;
};
const created = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as CalculationView;
};

describe("bounds on magnitudes", () => {
  it("refuses 4 000 000 t of fuel (12.6 million t of CO2) naming the field and its unit", async () => {
    expect(await detail(await post("open_mining_co2", { volume: 4_000_000, ef: 3.149 }))).toBe(
      "volume: «Расход топлива»: Значение должно быть не больше 300 000 т топлива",
    );
  });

  it("gives the bound in the unit the value was typed in", async () => {
    const typed = { entered: { volume: { value: 200_000, unit: "тыс. т" } }, ef: 1.2, koef_transform: 0.67 };
    expect(await detail(await post("open_mining_ch4", typed))).toBe(
      "volume: «Объём добычи угля открытым способом»: Значение должно быть не больше 100 000 тыс. т",
    );
    // One check, one message, as data: the structured field error carries the bound in that unit.
    const refused = (await (await post("open_mining_ch4", typed)).json()) as { errors: unknown[] };
    expect(refused.errors).toEqual([
      {
        field: "volume",
        code: "too_big",
        message: "«Объём добычи угля открытым способом»: Значение должно быть не больше 100 000 тыс. т",
        params: { maximum: 100_000, unit: "тыс. т" },
      },
    ]);
    const gas = { entered: { volume: { value: 600, unit: "млн м³" } }, koef_transform: 0.67 };
    expect(await detail(await post("torch_ch4", gas))).toBe(
      "volume: «Объём метана, направленного на факельную установку»: Значение должно быть не больше 500 млн м³",
    );
  });

  it("refuses a result over its bound, and an edit that would make one", async () => {
    expect(await detail(await post("open_mining_co2", { volume: 300_000, ef: 10 }))).toMatch(
      /^res_co2: «Выбросы CO2» — 3 000 000 т CO2, больше предела 1 000 000 т CO2 для одного расчета/,
    );
    const calc = await created(await post("open_mining_co2", { volume: 1000, ef: 3.149 }));
    const edit = await h.request(`/api/v1/open_mining_co2/${calc.id}/`, {
      method: "PATCH",
      token: user.token,
      json: { version: calc.version, volume: 300_000, ef: 10 },
    });
    expect(await detail(edit)).toMatch(/^res_co2: «Выбросы CO2»/);
  });

  it("are each listed with their number in docs/security.md", () => {
    const doc = readFileSync(join(import.meta.dirname, "../../docs/security.md"), "utf8");
    const section = doc.slice(doc.indexOf("## Bounds on magnitudes"), doc.indexOf("## Heavy work off the request thread"));
    for (const [name, bound] of Object.entries(PHYSICAL_BOUNDS)) expect(section, name).toContain(`| ${groupedNumber(bound)}`);
  });

  it("refuses a write that would carry a line of the project's kept sums past 5 000 000 t", async () => {
    const pit = await h.newProject(user.token, "Разрез");
    const near = { volume: 300_000, ef: 3.149 }; // 944 700 t of CO2, under the bound of one calculation
    for (let i = 0; i < 5; i++) await created(await post("open_mining_co2", near, pit.id));
    await h.settled();
    expect(await detail(await post("open_mining_co2", near, pit.id))).toMatch(
      /^Сумма проекта по строке «CO2 по коду 1\.A\.[^»]+» превысила бы 5 000 000 т \(5 668 200 т\)/,
    );
    // Another project has room of its own.
    await created(await post("open_mining_co2", near));
  });

  it("holds the line's bound under parallel creates: of 30 of 999 999.99 t each, 5 are made", async () => {
    const pit = await h.newProject(user.token, "Разрез наперегонки");
    const near = { volume: 300_000, ef: 3.3333333 }; // 999 999.99 t of CO2
    const answers = await Promise.all(Array.from({ length: 30 }, () => post("open_mining_co2", near, pit.id)));
    const made = answers.filter((res) => res.status === 201);
    expect(made).toHaveLength(5);
    for (const res of answers.filter((r) => r.status !== 201)) {
      expect(await detail(res)).toMatch(/^Сумма проекта по строке «CO2 по коду 1\.A\.[^»]+» превысила бы 5 000 000 т \(5 999 999,94 т\)/);
    }
    await h.settled();
    expect(await lineOf(pit)).toBeCloseTo(4_999_999.95, 2);
    // An archived one gives its room back, once archived: another fits again, one more does not.
    const first = (await made[0].json()) as CalculationView;
    const archive = await h.request(`/api/v1/open_mining_co2/${first.id}/`, {
      method: "PATCH",
      token: user.token,
      json: { version: first.version, is_deleted: true },
    });
    expect(archive.status, await archive.clone().text()).toBe(200);
    await created(await post("open_mining_co2", near, pit.id));
    expect(await detail(await post("open_mining_co2", near, pit.id))).toMatch(/^Сумма проекта по строке/);

    // Room a write took and never used (its process killed before the write) keeps the line full
    // until the reconciliation counts the project's lines again.
    const line = Object.keys(await h.deps.repos.statistics.projectInventorySums(user.companyId, pit.id)).find((k) => k.startsWith("t:"))!;
    await h.request(`/api/v1/open_mining_co2/${((await made[1].json()) as CalculationView).id}/`, {
      method: "PATCH",
      token: user.token,
      json: { version: 1, is_deleted: true },
    });
    expect(
      await h.deps.repos.caps.takeAmounts(
        user.companyId,
        `LINES#PROJECT#${pit.id}`,
        { [line]: 999_999_990_000_000 },
        5e15,
        async () => ({}),
      ),
    ).toBeUndefined();
    expect(await detail(await post("open_mining_co2", near, pit.id))).toMatch(/^Сумма проекта по строке/);
    await h.settled();
    const report = await reconcileCompanyStatistics(h.deps, user.companyId);
    expect(report.bounds).toEqual([{ project: pit.id, difference: { [line]: -999_999_990_000_000 } }]);
    await created(await post("open_mining_co2", near, pit.id));
  });
});

/** The project's CO2 of fuel combustion as its kept sums hold it, t. */
async function lineOf(pit: Project) {
  const sums = await h.deps.repos.statistics.projectInventorySums(user.companyId, pit.id);
  const keys = Object.keys(sums).filter((key) => key.startsWith("t:") && key.includes("|1.A.") && key.endsWith("|CO2"));
  expect(keys).toHaveLength(1);
  return sums[keys[0]] / 1e9;
}

describe("a calculation over the bounds that reached the table", () => {
  /** Makes a stored calculation what the API now refuses, straight in the table. */
  async function storeOverBound(calc: CalculationView, company: string) {
    await h.doc!.send(
      new UpdateCommand({
        TableName: LOCAL_TABLE,
        Key: keys.calculation(company, "open_mining_co2", calc.id),
        UpdateExpression: "SET inputs.volume = :v, results.res_co2 = :r",
        ExpressionAttributeValues: { ":v": 4_000_000, ":r": 12_596_000 },
      }),
    );
    await h.settled();
  }

  it("is left out of the kept sums and reported by the reconciliation, which repairs the rest", async () => {
    const other = await h.signedInUser();
    await h.newProject(other.token);
    const bad = await created(await post("open_mining_co2", { volume: 1000, ef: 3.149 }));
    await storeOverBound(bad, user.companyId);

    const reports = await reconcileAllStatistics(h.deps);
    const mine = reports.find((r) => r.company === user.companyId)!;
    expect(mine.failed).toBeUndefined();
    expect(mine.unapplied).toEqual([
      {
        project: project.id,
        problem: expect.stringMatching(/^суммы проекта не помещаются в хранилище/),
        calculations: [
          {
            id: bad.id,
            type: "open_mining_co2",
            name: "Предел",
            problem: expect.stringMatching(/^res_co2: «Выбросы CO2» — 12 596 000 т CO2/),
          },
        ],
      },
    ]);
    // The company's other figures are repaired all the same, and so is every other company.
    expect(reports.find((r) => r.company === other.companyId)?.failed).toBeUndefined();

    // The inventory of the year folds the calculations (the kept sums lack one): it answers.
    const inventory = await h.request(`/api/v1/inventory/?year=${project.reporting_year}`, { token: user.token });
    expect(inventory.status).toBe(200);
  });

  it("goes on past a company whose reconciliation fails, and reports it", async () => {
    const broken = await h.signedInUser();
    await h.newProject(broken.token);
    const fine = await h.signedInUser();
    await h.newProject(fine.token);
    await h.settled();
    // A year aggregate the storage's guard would never let through: no repair can take it back.
    await h.doc!.send(
      new PutItemCommand({
        TableName: LOCAL_TABLE,
        Item: {
          PK: { S: keys.companyStatisticsYear(broken.companyId, "1999").PK },
          SK: { S: keys.companyStatisticsYear(broken.companyId, "1999").SK },
          total_co2e: { N: "20000000000000000" },
          rev: { N: "1" },
        },
      }),
    );
    // And drift in the other company, which the same run repairs.
    const list = { project: "nowhere", type: "torch_ch4", active: 2, archived: 0 };
    await h.deps.repos.statistics.repairListCount(fine.companyId, list, undefined, new Date().toISOString());

    const reports = await reconcileAllStatistics(h.deps);
    expect(reports.find((r) => r.company === broken.companyId)?.failed).toMatch(/число вне допустимого диапазона/);
    const repaired = reports.find((r) => r.company === fine.companyId)!;
    expect(repaired.failed).toBeUndefined();
    expect(repaired.repaired).toBe(1);
    expect((await reconcileCompanyStatistics(h.deps, fine.companyId)).lists).toEqual([]);
  });
});

describe("the local server with a calculation over the bounds in its store", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "fugitive-bounds-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("starts, and says which project's sums it cannot keep", async () => {
    let server = await startLocalServer({ dataDir, port: 0 });
    const company = await createCompany(server.deps, { name: "Разрез «Предельный»" });
    const now = new Date().toISOString();
    const projectId = "p-over-bound";
    await server.deps.repos.projects.create({
      id: projectId,
      company: company.id,
      name: "Разрез",
      start_date: "2024-01-01",
      end_date: "2024-12-31",
      reporting_year: 2024,
      is_deleted: false,
      created_at: now,
      updated_at: now,
    } as never);
    const calculation = {
      id: "c-over-bound",
      type: "open_mining_co2",
      project: projectId,
      company: company.id,
      name: "Дизель",
      is_active: true,
      is_deleted: false,
      version: 1,
      inputs: { volume: 4_000_000, ef: 3.149 },
      results: { res_co2: 12_596_000 },
      coefficients: {},
      methodology_version: "2026.3",
      created_at: now,
      created_by: "test",
      updated_at: now,
      updated_by: "test",
    } as StoredCalculation;
    await server.deps.repos.calculations.create(calculation);
    await server.settled();
    await server.close();

    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      server = await startLocalServer({ dataDir, port: 0 });
      const logged = errors.mock.calls.map((call) => String(call[0])).join("\n");
      expect(logged).toContain(`the sums of project ${projectId} cannot be kept`);
      expect(logged).toContain("c-over-bound");
      const res = await fetch(`${server.url}/api/v1/users/get_me/`);
      expect(res.status).toBe(401);
    } finally {
      errors.mockRestore();
      await server.close();
    }
  });
});
