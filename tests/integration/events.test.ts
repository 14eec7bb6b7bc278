// The event handlers on the local host: the table's stream (audit trail, statistics snapshots) and
// the uploads' "object created" notifications run in-process with the records AWS would send, on
// the real dynalite engine and the local blob folder.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ExcelJS from "exceljs";
import { createHarness, type Harness } from "../support/harness";
import { reconcileCompanyStatistics, summarise, sumYears } from "@server/domain/inventory/statistics";
import type { StoredCalculation } from "@server/ports";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

async function createCalculation(
  token: string,
  type: string,
  projectId: string,
  fields: Record<string, unknown>,
): Promise<StoredCalculation> {
  const res = await h.request(`/api/v1/${type}/`, { method: "POST", token, json: { project: projectId, ...fields } });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as StoredCalculation;
}

describe("statistics kept by the stream handler", () => {
  it("refreshes a company's snapshot after its projects and calculations change, and no other company's", async () => {
    const a = await h.signedInUser();
    const b = await h.signedInUser();
    const kept = await h.newProject(a.token, "Шахта 1");
    const dropped = await h.newProject(a.token, "Шахта 2");
    await createCalculation(a.token, "open_mining_co2", kept.id, { name: "Карьер", volume: 100, ef: 3.149 });
    const gone = await createCalculation(a.token, "open_mining_co2", kept.id, { name: "Карьер 2", volume: 5, ef: 3.149 });
    await h.request(`/api/v1/open_mining_co2/${gone.id}/`, {
      method: "PATCH",
      token: a.token,
      json: { is_deleted: true, version: gone.version },
    });
    await h.request(`/api/v1/projects/${dropped.id}/`, { method: "PATCH", token: a.token, json: { is_deleted: true } });
    await h.settled();

    const snapshot = sumYears(await h.deps.repos.statistics.years(a.companyId), new Date());
    expect(snapshot).toMatchObject({ projects: { active: 1, archived: 1 }, calculations: { open_mining_co2: 1 } });
    expect(snapshot.total_co2e).toBeCloseTo(314.9, 9);
    expect(Date.parse(snapshot.computed_at)).toBeLessThanOrEqual(Date.now());
    // What the handler added up is what the table says.
    const projects = await h.deps.repos.projects.listAllOfCompany(a.companyId);
    const calculations = await h.deps.repos.calculations.listActiveByCompany(a.companyId);
    const counted = summarise(projects, calculations);
    expect({ ...snapshot, computed_at: undefined, total_co2e: undefined }).toEqual({
      ...counted,
      computed_at: undefined,
      total_co2e: undefined,
    });
    expect(snapshot.total_co2e).toBeCloseTo(counted.total_co2e, 9);
    expect((await reconcileCompanyStatistics(h.deps, a.companyId)).drift).toEqual([]);
    // The API answers the sum of the year aggregates, and per reporting year the inventory's totals
    // instead of the all-years sum (D26).
    const { total_co2e: _allYears, ...counts } = snapshot;
    expect(await (await h.request("/api/v1/users/statistics/", { token: a.token })).json()).toEqual({
      ...counts,
      years: [expect.objectContaining({ total_t_co2e: expect.closeTo(314.9, 9) })],
    });
    // Company B changed nothing: no aggregate, and zeros on the profile.
    expect(await h.deps.repos.statistics.years(b.companyId)).toEqual([]);
    const fresh = await (await h.request("/api/v1/users/statistics/", { token: b.token })).json();
    expect(fresh).toMatchObject({ projects: { active: 0, archived: 0 }, calculations: {}, years: [] });
  });

  it("reconciles drift: reports it, repairs it by the difference, and leaves no drift behind", async () => {
    const a = await h.signedInUser();
    const project = await h.newProject(a.token, "Сверка");
    await createCalculation(a.token, "open_mining_co2", project.id, { name: "Карьер", volume: 10, ef: 3.149 });
    await h.settled();
    const year = project.created_at.slice(0, 4);
    // A lost record, as when a local server was killed with records still queued.
    const lost = { year, projects_active: 0, projects_archived: 0, calculations: { open_mining_co2: -1 }, total_co2e: -31.49 };
    const [stored] = await h.deps.repos.statistics.years(a.companyId);
    expect(await h.deps.repos.statistics.repair(a.companyId, lost, stored.rev, new Date().toISOString())).toBe(true);
    // A repair conditioned on a stale read is refused.
    expect(await h.deps.repos.statistics.repair(a.companyId, lost, stored.rev, new Date().toISOString())).toBe(false);

    const dry = await reconcileCompanyStatistics(h.deps, a.companyId, { repair: false });
    expect(dry.drift).toEqual([
      expect.objectContaining({ year, difference: expect.objectContaining({ calculations: { open_mining_co2: 1 } }) }),
    ]);
    expect(dry.repaired).toBe(0);
    const report = await reconcileCompanyStatistics(h.deps, a.companyId, { settleMs: 50 });
    expect(report).toMatchObject({ repaired: 1, unsettled: false });
    expect((await reconcileCompanyStatistics(h.deps, a.companyId)).drift).toEqual([]);
    const shown = (await (await h.request("/api/v1/users/statistics/", { token: a.token })).json()) as {
      years: Array<{ total_t_co2e: number }>;
    };
    expect(shown).toMatchObject({ projects: { active: 1, archived: 0 }, calculations: { open_mining_co2: 1 } });
    expect(shown.years.map((y) => y.total_t_co2e)).toEqual([expect.closeTo(31.49, 9)]);
  });
});

describe("audit trail written by the stream handler", () => {
  it("has one entry per change of a business item, with versions and changed attribute names only", async () => {
    const user = await h.signedInUser();
    const project = await h.newProject(user.token, "Аудит");
    await h.request(`/api/v1/projects/${project.id}/`, { method: "PATCH", token: user.token, json: { name: "Аудит 2" } });
    await h.settled();

    const trail = await h.deps.repos.auditTrail.day(new Date().toISOString().slice(0, 10));
    const entries = trail.filter((e) => e.company === user.companyId);
    const ofProject = entries.filter((e) => e.item_sk === `PROJECT#${project.id}`);
    expect(ofProject.map((e) => [e.event, e.old_version, e.new_version])).toEqual([
      ["INSERT", undefined, 1],
      ["MODIFY", 1, 2],
    ]);
    expect(ofProject[1].changed).toEqual(expect.arrayContaining(["name", "version"]));
    expect(JSON.stringify(ofProject)).not.toContain("Аудит 2");
    // The user's own records are there (created by the harness), the statistics items never.
    expect(entries.some((e) => String(e.item_sk).startsWith("USER#"))).toBe(true);
    expect(entries.some((e) => String(e.item_sk).startsWith("STATISTICS") || String(e.item_pk).startsWith("STATSEQ#"))).toBe(false);
  });
});

describe("upload checks on object creation", () => {
  it("keeps the files the API stores for a calculation", async () => {
    const user = await h.signedInUser();
    const project = await h.newProject(user.token, "Файлы");
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("Данные");
    [
      ["year", "element", "value"],
      [2020, "Шахта", 1],
      [2021, "Шахта", null],
      [2022, "Шахта", 3],
    ].forEach((r) => ws.addRow(r));
    const files = [
      { name: "ряд.xlsx", bytes: new Uint8Array(await wb.xlsx.writeBuffer()) },
      { name: "ряд.csv", bytes: new TextEncoder().encode("year,element,value\n2020,Шахта,1\n2021,Шахта,\n2022,Шахта,3\n") },
    ];
    for (const file of files) {
      const form = new FormData();
      form.set("project", project.id);
      form.set("name", file.name);
      form.set("name_value", "value");
      form.set("name_element", "element");
      form.set("file_data", new Blob([file.bytes as Uint8Array<ArrayBuffer>]), file.name);
      const res = await h.request("/api/v1/filling_blanks/", { method: "POST", token: user.token, body: form });
      expect(res.status, await res.clone().text()).toBe(201);
      const { id } = (await res.json()) as StoredCalculation;
      const stored = (await h.deps.repos.calculations.get(user.companyId, "filling_blanks", id))!.file!;
      await h.settled();
      expect(await h.deps.blobs.stat!(stored.key)).toEqual({ size: file.bytes.byteLength, contentType: expect.any(String) });
    }
  });

  it("deletes an object under uploads/ whose content is not what its type says, and leaves other areas alone", async () => {
    const fake = "uploads/c1/x/fake.xlsx";
    const text = "uploads/c1/x/binary.csv";
    const elsewhere = "forecasts/c1/x/data.json";
    await h.deps.blobs.put(fake, new TextEncoder().encode("year,value\n2020,1\n"), XLSX);
    await h.deps.blobs.put(text, new Uint8Array([0x31, 0x00, 0x32]), "text/csv");
    await h.deps.blobs.put(elsewhere, new Uint8Array([0x00]), "application/json");
    await h.settled();
    expect(await h.deps.blobs.stat!(fake)).toBeUndefined();
    expect(await h.deps.blobs.stat!(text)).toBeUndefined();
    expect(await h.deps.blobs.stat!(elsewhere)).toEqual({ size: 1, contentType: "application/json" });
  });
});
