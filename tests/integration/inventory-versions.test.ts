// D20: an approved year is a snapshot. Approval stores version 1 (canonical JSON in object storage,
// its SHA-256 in a version item); while the year is approved every change that would reach it is
// refused with 409 (hostile: each of these succeeded before the freeze guard); the report prints
// the version's figures and hash; reopen → change → approve gives version 2, whose report lists the
// change; a GWP change that reached it past the administrator's refusal (D41: the route refuses it,
// tests/integration/inventory-four-eyes.test.ts) is an error check; another company sees none.
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import { changeCoefficient } from "@server/domain/reference/dictionaries";
import { gwpSetInForce } from "@server/domain/reference/gwp-years";
import { signIn } from "../support/admin";
import { createFreshHarness, createHarness, type Harness } from "../support/harness";
import type { CalculationView } from "@server/contract";

const FROZEN = /Инвентаризация 2024 года утверждена.*попросите проверяющего открыть год для изменений/;

type Project = { id: string; version: number; name: string };
type Version = { version: number; sha256: string; approved_at: string; approved_by: string; total_t_co2e: number };
type Inventory = {
  total_t_co2e: number;
  approved?: { version: number; live_if_reopened: { total_t_co2e: number } };
  review: { version: number; status: string };
  checks: Array<{ code: string; level: string; message: string }>;
};

/** A company whose 2024 stands approved as version 1: a facility, a project of 2024 with a torch and an
 *  archived torch, an archived project and a project of 2023. Each test that changes the year (a new
 *  version, the platform's GWP) approves a year of its own, so every test runs alone and in any order. */
interface ApprovedYear {
  h: Harness;
  staff: string;
  companyId: string;
  reviewer: string;
  facility: { id: string; version: number };
  project: Project;
  archivedProject: Project;
  project2023: Project;
  torch: CalculationView;
  archivedCalc: CalculationView;
}

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

/** The calls of one company's staff (or, named, another user) on its harness. */
function callsOf(y: Pick<ApprovedYear, "h" | "staff">) {
  const post = (path: string, body: unknown, token = y.staff) => y.h.request(path, { method: "POST", token, json: body });
  const patch = (path: string, body: unknown, token = y.staff) => y.h.request(path, { method: "PATCH", token, json: body });
  const inventory = async () => json<Inventory>(await y.h.request("/api/v1/inventory/?year=2024", { token: y.staff }), 200);
  const versions = async () => json<Version[]>(await y.h.request("/api/v1/inventory/2024/versions/", { token: y.staff }), 200);
  const act = async (token: string, action: string, extra: Record<string, unknown> = {}) => {
    const { review } = await inventory();
    return json<{ version: number; snapshot?: { version: number; sha256: string } }>(
      await post("/api/v1/inventory/2024/review/", { action, version: review.version, ...extra }, token),
      200,
    );
  };
  const newProject = async (name: string, start: string, end: string, extra: Record<string, unknown> = {}) =>
    json<Project>(await post("/api/v1/projects/create_project/", { name, start_date: start, end_date: end, ...extra }), 201);
  const pdfText = async (): Promise<string> => {
    const res = await y.h.request("/api/v1/inventory/2024/report/?format=pdf", { token: y.staff });
    expect(res.status).toBe(200);
    const file = join(mkdtempSync(join(tmpdir(), "passport-")), "passport.pdf");
    writeFileSync(file, new Uint8Array(await res.arrayBuffer()));
    const out = spawnSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    return out.stdout.replace(/[ \u00a0]+/g, " ");
  };
  return { post, patch, inventory, versions, act, newProject, pdfText };
}

async function approvedYear(h: Harness, company: string, reviewerEmail: string): Promise<ApprovedYear> {
  const a = await h.signedInUser(company);
  const { post, patch, act, newProject } = callsOf({ h, staff: a.token });
  await createUser(h.deps, { companyId: a.companyId, email: reviewerEmail, password: "reviewer-password", role: "reviewer" });
  const reviewer = ((await (await signIn(h, reviewerEmail, "reviewer-password")).json()) as { access: string }).access;
  const facility = await json<ApprovedYear["facility"]>(
    await post("/api/v1/facilities/", { name: "Шахта «Северная»", kind: "underground_mine" }),
    201,
  );
  const project = await newProject("Северная 2024", "2024-01-01", "2024-12-31", { facility: facility.id });
  const archiving = await newProject("Старый 2024", "2024-01-01", "2024-12-31");
  const archivedProject = await json<Project>(
    await patch(`/api/v1/projects/${archiving.id}/`, { is_deleted: true, version: archiving.version }),
    200,
  );
  const project2023 = await newProject("Северная 2023", "2023-01-01", "2023-12-31", { facility: facility.id });
  const torch = await json<CalculationView>(
    await post("/api/v1/torch_ch4/", { name: "Факел", project: project.id, volume: 700, koef_transform: 0.67, inventory_role: "primary" }),
    201,
  );
  const archived = await json<CalculationView>(
    await post("/api/v1/torch_ch4/", {
      name: "Факел в архиве",
      project: project.id,
      volume: 5,
      koef_transform: 0.67,
      inventory_role: "primary",
    }),
    201,
  );
  const archivedCalc = await json<CalculationView>(
    await patch(`/api/v1/torch_ch4/${archived.id}/`, { is_deleted: true, version: archived.version }),
    200,
  );
  await act(a.token, "send_to_review");
  await act(reviewer, "approve");
  return { h, staff: a.token, companyId: a.companyId, reviewer, facility, project, archivedProject, project2023, torch, archivedCalc };
}

const russian = (value: number) =>
  value
    .toFixed(2)
    .replace(".", ",")
    .replace(/\B(?=(\d{3})+(?!\d))/g, " ");

let h: Harness;
let other: string;
// The year the tests that leave it as it was share.
let year: ApprovedYear;
const post = (path: string, body: unknown) => callsOf(year).post(path, body);
const patch = (path: string, body: unknown) => callsOf(year).patch(path, body);
const inventory = () => callsOf(year).inventory();

beforeAll(async () => {
  h = await createHarness();
  year = await approvedYear(h, "ООО «Снимок»", "reviewer@snapshot.example");
  ({ token: other } = await h.signedInUser("ООО Чужая"));
});
afterAll(() => h.close());

describe("an approved year", () => {
  it("is stored as version 1: canonical JSON whose SHA-256 the version list shows, with every calculation's inputs", async () => {
    const listed = await json<Version[]>(await h.request("/api/v1/inventory/2024/versions/", { token: year.staff }), 200);
    expect(listed).toEqual([
      {
        version: 1,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        approved_at: expect.any(String),
        approved_by: "reviewer@snapshot.example",
        total_t_co2e: (await inventory()).total_t_co2e,
        // the platform's signature over the hash, by the key GET v1/signing-keys/ lists.
        signature: {
          kid: expect.stringMatching(/^[0-9a-f]{16}$/),
          alg: "RS256",
          fingerprint_sha256: expect.any(String),
          value: expect.any(String),
        },
      },
    ]);
    const res = await h.request("/api/v1/inventory/2024/versions/1/", { token: year.staff });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const text = await res.text();
    expect(createHash("sha256").update(text, "utf8").digest("hex")).toBe(listed[0].sha256);
    const snapshot = JSON.parse(text) as {
      version: number;
      changes: unknown;
      inventory: {
        total_t_co2e: number;
        gwp: { gwp_ch4: number };
        calculations: Array<{ id: string; version: number; inputs: Record<string, unknown> }>;
      };
    };
    // D34: a verifier recomputes the hash offline with Python's standard library alone, from the
    // canonical form (RFC 8785) docs/api.md describes; one changed number gives another hash.
    const dir = mkdtempSync(join(tmpdir(), "snapshot-"));
    const script = "functions/src/export/verify/snapshot_hash.py";
    writeFileSync(join(dir, "v1.json"), text);
    const verified = spawnSync("python3", [script, join(dir, "v1.json")], { encoding: "utf8" });
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stdout.trim()).toBe(listed[0].sha256);
    writeFileSync(join(dir, "changed.json"), text.replace(/"volume":700\b/, '"volume":701'));
    const changed = spawnSync("python3", [script, join(dir, "changed.json")], { encoding: "utf8" });
    expect(changed.status, changed.stderr).toBe(0);
    expect(changed.stdout.trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(changed.stdout.trim()).not.toBe(listed[0].sha256);
    // Python's json.dumps defaults (ASCII escapes, ", " separators) are not the canonical form.
    writeFileSync(join(dir, "python.json"), JSON.stringify(JSON.parse(text), null, 1));
    expect(spawnSync("python3", [script, join(dir, "python.json")], { encoding: "utf8" }).status).toBe(1);
    // Canonical: keys sorted, no spaces.
    expect(Object.keys(snapshot)).toEqual([...Object.keys(snapshot)].sort());
    expect(text).not.toMatch(/": /);
    expect(snapshot).toMatchObject({ version: 1, changes: null, inventory: { total_t_co2e: listed[0].total_t_co2e } });
    expect(snapshot.inventory.calculations).toEqual([
      expect.objectContaining({ id: year.torch.id, version: year.torch.version, inputs: expect.objectContaining({ volume: 700 }) }),
    ]);
    // The review item refers to the version, it does not hold the calculations.
    const review = await h.deps.repos.inventoryReviews.get(year.companyId, 2024);
    expect(review).toMatchObject({ snapshot: { version: 1, sha256: listed[0].sha256 } });
    expect(review).not.toHaveProperty("frozen");
  });

  it("refuses (409, naming the year and how to reopen) every change that would reach it", async () => {
    const refusals: Array<[string, Promise<Response>]> = [
      [
        "create a calculation",
        post("/api/v1/torch_ch4/", { name: "Поздний факел", project: year.project.id, volume: 10, koef_transform: 0.67 }),
      ],
      ["edit a calculation", patch(`/api/v1/torch_ch4/${year.torch.id}/`, { volume: 800, version: year.torch.version })],
      ["rename a calculation", patch(`/api/v1/torch_ch4/${year.torch.id}/`, { name: "Факел 2", version: year.torch.version })],
      ["make it alternative", patch(`/api/v1/torch_ch4/${year.torch.id}/`, { inventory_role: "alternative", version: year.torch.version })],
      ["archive a calculation", patch(`/api/v1/torch_ch4/${year.torch.id}/`, { is_deleted: true, version: year.torch.version })],
      [
        "restore a calculation",
        patch(`/api/v1/torch_ch4/${year.archivedCalc.id}/`, { is_deleted: false, version: year.archivedCalc.version }),
      ],
      ["move the project to 2023", patch(`/api/v1/projects/${year.project.id}/`, { reporting_year: 2023, version: year.project.version })],
      ["change the project's facility", patch(`/api/v1/projects/${year.project.id}/`, { facility: null, version: year.project.version })],
      ["re-date the project", patch(`/api/v1/projects/${year.project.id}/`, { start_date: "2024-02-01", version: year.project.version })],
      ["archive the project", patch(`/api/v1/projects/${year.project.id}/`, { is_deleted: true, version: year.project.version })],
      [
        "restore an archived project",
        patch(`/api/v1/projects/${year.archivedProject.id}/`, { is_deleted: false, version: year.archivedProject.version }),
      ],
      [
        "move a 2023 project into 2024",
        patch(`/api/v1/projects/${year.project2023.id}/`, { reporting_year: 2024, version: year.project2023.version }),
      ],
      ["apply a GWP recompute", post(`/api/v1/projects/${year.project.id}/gwp_recompute/`, {})],
      [
        "change the facility's kind",
        patch(`/api/v1/facilities/${year.facility.id}/`, { kind: "open_pit", version: year.facility.version }),
      ],
    ];
    for (const [what, answer] of refusals) {
      const res = await answer;
      expect(res.status, what).toBe(409);
      expect(((await res.json()) as { detail: string }).detail, what).toMatch(FROZEN);
    }
    // The list says so before anyone presses «Сохранить».
    const list = await json<{ results: Array<{ id: string; locked?: string }> }>(
      await h.request(`/api/v1/torch_ch4/?project=${year.project.id}`, { token: year.staff }),
      200,
    );
    expect(list.results.map((c) => c.locked)).toEqual([expect.stringMatching(FROZEN)]);
    const ofOtherYear = await json<{ results: Array<{ locked?: string }> }>(
      await h.request(`/api/v1/torch_ch4/?project=${year.project2023.id}`, { token: year.staff }),
      200,
    );
    expect(ofOtherYear.results.every((c) => c.locked === undefined)).toBe(true);
    // The list of every type locks them too (D18 «Все типы»).
    const everyType = await json<{ results: Array<{ id: string; locked?: string }> }>(
      await h.request(`/api/v1/all/?project=${year.project.id}`, { token: year.staff }),
      200,
    );
    expect(everyType.results.map((c) => [c.id, c.locked])).toEqual([[year.torch.id, expect.stringMatching(FROZEN)]]);
    // Nothing reached the year: the same total, still version 1.
    const after = await inventory();
    expect(after.total_t_co2e).toBe(
      (await json<Version[]>(await h.request("/api/v1/inventory/2024/versions/", { token: year.staff }), 200))[0].total_t_co2e,
    );
    expect(after.checks.map((c) => c.code)).not.toContain("changed_after_approval");
  });

  it("lets through what does not reach it: names, another year's calculations", async () => {
    year.project = await json(
      await patch(`/api/v1/projects/${year.project.id}/`, { name: "Северная (2024)", version: year.project.version }),
      200,
    );
    year.facility = await json(
      await patch(`/api/v1/facilities/${year.facility.id}/`, { name: "Шахта «Северная-2»", version: year.facility.version }),
      200,
    );
    await json(
      await post("/api/v1/torch_ch4/", { name: "Факел 2023", project: year.project2023.id, volume: 10, koef_transform: 0.67 }),
      201,
    );
  });

  it("is another company's to see only: their version list is empty and a version is 404", async () => {
    expect(await json<Version[]>(await h.request("/api/v1/inventory/2024/versions/", { token: other }), 200)).toEqual([]);
    expect((await h.request("/api/v1/inventory/2024/versions/1/", { token: other })).status).toBe(404);
    expect((await h.request("/api/v1/inventory/2024/versions/2/", { token: year.staff })).status).toBe(404);
    for (const bad of ["0", "abc", "1.0"]) {
      const res = await h.request(`/api/v1/inventory/2024/versions/${bad}/`, { token: year.staff });
      expect(res.status, bad).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^Версия: /);
    }
  });
});

describe("the report of an approved year", () => {
  it("prints version 1's total and hash; reopen → change → approve gives version 2, whose report lists the change", async () => {
    // A year of its own: the new version it approves is no other test's.
    const own = await approvedYear(h, "ООО «Отчет»", "reviewer@report.example");
    const { act, patch, pdfText, versions } = callsOf(own);
    const [v1] = await versions();
    let text = await pdfText();
    expect(text).toContain("Статус Утверждена");
    expect(text).toMatch(/Версия 1\b/);
    expect(text.replace(/\s+/g, "")).toContain(v1.sha256);
    expect(text).toMatch(new RegExp(`Итого\\s+${russian(v1.total_t_co2e)}`));
    expect(text).not.toContain("Изменения относительно версии");

    await act(own.reviewer, "reopen", { reason: "Уточнить объем факела" });
    await json(await patch(`/api/v1/torch_ch4/${own.torch.id}/`, { volume: 900, version: own.torch.version }), 200);
    await act(own.staff, "send_to_review");
    const approved = await act(own.reviewer, "approve");
    expect(approved.snapshot?.version).toBe(2);

    const both = await versions();
    expect(both.map((v) => v.version)).toEqual([1, 2]);
    expect(both[1].total_t_co2e).toBeGreaterThan(v1.total_t_co2e);
    text = await pdfText();
    expect(text).toMatch(/Версия 2\b/);
    expect(text.replace(/\s+/g, "")).toContain(both[1].sha256);
    expect(text).toContain("Изменения относительно версии 1");
    expect(text).toContain(
      `Изменен расчет «Факел» (проект «Северная 2024»): ${russian(v1.total_t_co2e)} т CO2-экв. → ${russian(both[1].total_t_co2e)} т CO2-экв.`,
    );
  });
});

describe("a dictionary change that reached an approved year", () => {
  // It changes the platform's GWP set, written past the administrator's route, which refuses it (D41),
  // as data stored before that refusal existed is: on a table of its own, which no other test reads.
  it("is recorded as an error check «изменено после утверждения»; the year shows its approved figures everywhere, the live ones only as «если переоткрыть»", async () => {
    const fresh = await createFreshHarness();
    try {
      const own = await approvedYear(fresh, "ООО «Словарь»", "reviewer@gwp.example");
      const { h, staff, torch } = own;
      const { inventory, pdfText } = callsOf(own);
      const set = (await gwpSetInForce(h.deps, 2024))!;
      const before = await inventory();
      const rowsOfLine = async () =>
        json<{ results: Array<{ id: string; gases: Array<{ gas: string; t_co2e: number }> }>; count: number }>(
          await h.request(`/api/v1/inventory/calculations/?year=2024&line=${encodeURIComponent("2|1.B.1.a.i.4|CH4")}`, { token: staff }),
          200,
        );
      const frozenRows = await rowsOfLine();
      expect(frozenRows.results.map((r) => r.id)).toContain(torch.id);
      await changeCoefficient(
        h.deps,
        "get_gwp",
        set.id,
        { field: "gwp_ch4", value: set.values.gwp_ch4.value + 3, effective_from: "2024-01-01", reason: "Проверка", version: set.version },
        "admin@example.com",
      );
      const after = await inventory();
      // D32: the approved figures stay; the live recomputation moved and is shown beside them.
      expect(after.total_t_co2e).toBe(before.total_t_co2e);
      expect(after.approved?.version).toBe(before.approved?.version);
      expect(after.approved?.live_if_reopened.total_t_co2e).not.toBe(before.total_t_co2e);
      expect(after.approved?.live_if_reopened.total_t_co2e).toBeGreaterThan(before.total_t_co2e);
      const check = after.checks.find((c) => c.code === "changed_after_approval")!;
      expect(check.level).toBe("error");
      expect(check.message).toMatch(/^Изменено после утверждения/);
      // The years' totals (the inventory's chart, the profile's statistics) say the same.
      for (const years of [
        await json<Array<{ year: number; total_t_co2e: number; approved_version?: number; live_if_reopened_t_co2e?: number }>>(
          await h.request("/api/v1/inventory/years/", { token: staff }),
          200,
        ),
        (
          after as unknown as {
            years: Array<{ year: number; total_t_co2e: number; approved_version?: number; live_if_reopened_t_co2e?: number }>;
          }
        ).years,
      ]) {
        expect(years.find((y) => y.year === 2024)).toMatchObject({
          total_t_co2e: before.total_t_co2e,
          approved_version: after.approved?.version,
          live_if_reopened_t_co2e: after.approved?.live_if_reopened.total_t_co2e,
        });
      }
      // D32: the rows under the approved line are the version's calculations, not the live recomputation.
      expect(await rowsOfLine()).toEqual(frozenRows);
      const approvedPath = `/api/v1/inventory/2024/versions/${before.approved!.version}/`;
      const snapshot = JSON.parse(await (await h.request(approvedPath, { token: staff })).text()) as {
        inventory: { calculations: Array<{ id: string; gases: Array<{ gas: string; t_co2e: number }> }> };
      };
      expect(frozenRows.results.find((r) => r.id === torch.id)!.gases).toEqual(
        snapshot.inventory.calculations.find((c) => c.id === torch.id)!.gases,
      );
      // The report still prints the approved version's figures.
      expect(await pdfText()).toMatch(new RegExp(`Итого\\s+${russian(before.total_t_co2e)}`));
    } finally {
      await fresh.close();
    }
  });
});
