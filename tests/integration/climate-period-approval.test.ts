// A climate project's monitoring period approved as a year is approved (D20, D32, D33 with
// D80), on the in-process API over dynalite: four eyes — staff may not approve, nor the reviewer who
// computed the period; another reviewer's approval freezes it (a snapshot with its SHA-256 that the
// period answers from; recomputing it is 409); readings written later into its hours flag it and never
// move it; a reviewer withdraws the approval with a reason, after which it is computed again from the
// readings as they are now. Every step is in the period's history and the company's change log.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { monitoringIdle } from "@server/domain/monitoring/live/forecaster";
import { createUser } from "@server/domain/company/users";
import { approvedSnapshot, snapshotKey } from "@server/domain/climate/approvals";
import type { ClimatePeriodRecord } from "@server/ports";
import { createHarness, type Harness } from "../support/harness";
import { signIn } from "../support/admin";
import { FILLED_REPORT } from "../support/climate-case-a";

let h: Harness;
let staff: { token: string; companyId: string; email: string };
let reviewer: string;
let second: string;
let facility: string;
let project: string;

const METHODOLOGY = { code: "CDM-ACM0008", name: "ACM0008", version: "08.0", source: "копия исполнителя", tools: [] };
type Period = {
  id: string;
  version: number;
  carbon_units: number;
  totals: Record<string, number>;
  devices: unknown[];
  computed_by: string;
  approval: { number: number; by: string; sha256: string; at: string } | null;
  readings_changed: { at: string; sensors: string[] } | null;
  history: { action: string; by: string; reason?: string }[];
};

const api = (token: string, path: string, json?: unknown) =>
  h.request(`/api/v1/climate-projects/${project}/${path}`, { token, ...(json === undefined ? {} : { method: "POST", json }) });

async function ok<T = Period>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

async function refused(res: Response, status: number): Promise<string> {
  expect(res.status, await res.clone().text()).toBe(status);
  return ((await res.json()) as { detail: string }).detail;
}

/** 2026-06-01 00:00 in Novokuznetsk (UTC+7). */
const JUNE_1 = Date.UTC(2026, 4, 31, 17, 0);

/** Q 21 m³/min at 0 °C, CH4 38,5 %, the flame on, every minute of `hours` from `fromHour` (June 1). */
async function push(fromHour: number, hours: number, q = 21) {
  const readings: { sensor: string; t: string; value: number }[] = [];
  for (let m = fromHour * 60; m < (fromHour + hours) * 60; m++) {
    const t = new Date(JUNE_1 + m * 60_000 + 30_000).toISOString();
    readings.push({ sensor: "Q-1", t, value: q }, { sensor: "C-1", t, value: 38.5 }, { sensor: "FL-1", t, value: 1 });
  }
  const res = await h.request("/api/v1/telemetry/readings/", { method: "POST", token: staff.token, json: { facility, readings } });
  expect(res.status, await res.clone().text()).toBe(202);
  await monitoringIdle(h.deps);
}

/** The executor's fields of the period's report written (an approval waits for them). */
async function fillReport(period: string) {
  const res = await h.request(`/api/v1/climate-projects/${project}/periods/${period}/report/`, {
    method: "PATCH",
    token: staff.token,
    json: { fields: FILLED_REPORT, version: 0 },
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

async function userToken(email: string, role: "reviewer" | "admin") {
  await createUser(h.deps, {
    companyId: staff.companyId,
    email,
    password: "reviewer-password",
    role,
    first_name: "Ирина",
    last_name: "Проверкина",
  });
  return ((await (await signIn(h, email, "reviewer-password")).json()) as { access: string }).access;
}

beforeAll(async () => {
  h = await createHarness();
  staff = await h.signedInUser("Компания утверждения");
  reviewer = await userToken("reviewer-a@example.test", "reviewer");
  second = await userToken("reviewer-b@example.test", "admin");
  const created = async (path: string, json: unknown) =>
    String((await ok<{ id: string }>(await h.request(path, { method: "POST", token: staff.token, json }), 201)).id);
  facility = await created("/api/v1/facilities/", { name: "Шахта Утверждения", kind: "underground_mine" });
  const point = await created(`/api/v1/facilities/${facility}/points/`, { name: "ДС", kind: "drainage_station", instrument: "АГК" });
  for (const [code, kind] of [
    ["Q-1", "flow"],
    ["C-1", "methane_high"],
    ["FL-1", "flame"],
  ]) {
    await created(`/api/v1/facilities/${facility}/sensors/`, { code, kind, point });
  }
  project = await created("/api/v1/climate-projects/", {
    name: "Факел утверждения",
    facility,
    start: "2026-06-01",
    methodology: METHODOLOGY,
    devices: [{ name: "Ф-1", point, kind: "flare_open", flow_basis: "normal_0C", sensors: { q: "Q-1", c: "C-1", flame: "FL-1" } }],
  });
  await push(0, 8);
});
afterAll(() => h.close());

describe("a climate period's approval (four eyes)", () => {
  it("is a reviewer's other than the person who computed it; it freezes the period under a snapshot's SHA-256", async () => {
    const period = await ok(await api(staff.token, "periods/", { start: "2026-06-01T00:00", end: "2026-06-01T02:00" }), 201);
    expect(period).toMatchObject({ version: 1, approval: null, readings_changed: null, computed_by: staff.email });
    expect(period.history.map((s) => s.action)).toEqual(["compute"]);
    const review = (token: string, body: Record<string, unknown>) => api(token, `periods/${period.id}/review/`, body);

    expect(await refused(await review(staff.token, { action: "approve", version: 1 }), 403)).toBe(
      "«Утвердить» может только проверяющий или администратор",
    );
    // A reviewer who computed a period may not approve it either.
    const own = await ok(await api(reviewer, "periods/", { start: "2026-06-01T02:00", end: "2026-06-01T04:00" }), 201);
    expect(await refused(await api(reviewer, `periods/${own.id}/review/`, { action: "approve", version: 1 }), 403)).toBe(
      "«Утвердить» может только другой проверяющий или администратор: период рассчитали вы",
    );
    expect(await refused(await review(reviewer, { action: "withdraw", reason: "x", version: 1 }), 409)).toBe(
      "«Отозвать утверждение» невозможно: период не утвержден",
    );
    expect(await refused(await review(reviewer, { action: "approve", version: 7 }), 409)).toMatch(/изменен другим пользователем/);

    await fillReport(period.id);
    const approved = await ok(await review(reviewer, { action: "approve", version: 1 }));
    expect(approved).toMatchObject({ version: 2, carbon_units: period.carbon_units, totals: period.totals });
    expect(approved.approval).toMatchObject({ number: 1, by: "reviewer-a@example.test" });
    expect(approved.approval?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(approved.history.map((s) => s.action)).toEqual(["compute", "approve"]);
    expect(await refused(await review(second, { action: "approve", version: 2 }), 409)).toBe(
      "«Утвердить» невозможно: период уже утвержден",
    );

    // The snapshot: the plan, the legal entity, the inputs and figures, its hash the one the period carries.
    const record = (await h.deps.repos.climateProjects.getPeriod(staff.companyId, project, period.id)) as ClimatePeriodRecord;
    const blob = await h.deps.blobs.get(snapshotKey(record, 1));
    const text = new TextDecoder().decode(blob?.body);
    expect(createHash("sha256").update(text, "utf8").digest("hex")).toBe(approved.approval?.sha256);
    const snapshot = await approvedSnapshot(h.deps, record);
    expect(snapshot.project.name).toBe("Факел утверждения");
    expect(snapshot.legal_entity.requisites.name).toBe("Компания утверждения");
    expect(snapshot.period.computed_by).toBe(staff.email);
    expect(snapshot.inputs.devices[0].hours.length).toBeGreaterThan(0);
    expect(snapshot.result.totals.er_t_co2e).toBe(period.totals.er_t_co2e);

    // Frozen: computing it again is refused, saying how to reopen it.
    expect(await refused(await api(staff.token, `periods/${period.id}/recompute/`, { version: 2 }), 409)).toBe(
      "Период утвержден: его цифры заморожены и не пересчитываются. Чтобы пересчитать, проверяющий сначала отзывает утверждение с указанием причины",
    );
    const read = await ok(await api(staff.token, `periods/${period.id}/`));
    expect(read).toEqual(approved);
  });

  it("flags readings written into an approved period's hours and never moves its figures; a withdrawal lets it be computed again", async () => {
    const period = await ok(await api(staff.token, "periods/", { start: "2026-06-01T04:00", end: "2026-06-01T06:00" }), 201);
    await fillReport(period.id);
    const approved = await ok(await api(second, `periods/${period.id}/review/`, { action: "approve", version: 1 }));
    // Readings after the period's hours: nothing flagged.
    await push(6, 1, 30);
    expect((await ok(await api(staff.token, `periods/${period.id}/`))).readings_changed).toBeNull();
    // A corrected flow inside them: flagged, figures as approved.
    await push(4, 1, 30);
    const flagged = await ok(await api(staff.token, `periods/${period.id}/`));
    expect(flagged.readings_changed?.sensors).toEqual(["C-1", "FL-1", "Q-1"]);
    expect(flagged.readings_changed!.at > approved.approval!.at).toBe(true);
    expect(flagged).toMatchObject({ totals: approved.totals, carbon_units: approved.carbon_units, approval: approved.approval });
    expect(flagged.devices).toEqual(approved.devices);
    const list = await ok<{ results: Period[] }>(await api(staff.token, "periods/"));
    expect(list.results.find((p) => p.id === period.id)?.readings_changed?.sensors).toEqual(["C-1", "FL-1", "Q-1"]);

    // Withdrawn: a reason is required, staff may not, another reviewer may.
    const withdraw = (token: string, body: Record<string, unknown>) => api(token, `periods/${period.id}/review/`, body);
    expect(await refused(await withdraw(staff.token, { action: "withdraw", reason: "поправка", version: flagged.version }), 403)).toBe(
      "«Отозвать утверждение» может только проверяющий или администратор",
    );
    expect(await refused(await withdraw(reviewer, { action: "withdraw", reason: "  ", version: flagged.version }), 400)).toBe(
      "Причина: укажите причину",
    );
    const open = await ok(await withdraw(reviewer, { action: "withdraw", reason: "поправка расхода", version: flagged.version }));
    expect(open.approval).toBeNull();
    expect(open.history.at(-1)).toMatchObject({ action: "withdraw", by: "reviewer-a@example.test", reason: "поправка расхода" });

    // Computed again by the reviewer from the readings as they are now: more methane, and the flag goes.
    const again = await ok(await api(reviewer, `periods/${period.id}/recompute/`, { version: open.version }));
    expect(again.totals.m_ch4_t).toBeGreaterThan(approved.totals.m_ch4_t);
    expect(again).toMatchObject({ computed_by: "reviewer-a@example.test", readings_changed: null, approval: null });
    // Who computed it may not approve it now; the other reviewer approves it as approval 2.
    expect(await refused(await api(reviewer, `periods/${period.id}/review/`, { action: "approve", version: again.version }), 403)).toMatch(
      /период рассчитали вы/,
    );
    const reapproved = await ok(await api(second, `periods/${period.id}/review/`, { action: "approve", version: again.version }));
    expect(reapproved.approval?.number).toBe(2);
    expect(reapproved.approval?.sha256).not.toBe(approved.approval?.sha256);
  });

  it("is refused while an executor's field of the report is empty or a deviation group has no explanation, naming them", async () => {
    // 08:00–10:00: no minutes pushed, both hours «нет данных» — a group that needs the executor's explanation.
    const period = await ok(await api(staff.token, "periods/", { start: "2026-06-01T08:00", end: "2026-06-01T10:00" }), 201);
    const approve = () => api(second, `periods/${period.id}/review/`, { action: "approve", version: 1 });
    const empty = await refused(await approve(), 409);
    expect(empty).toMatch(/^«Утвердить» невозможно: отчет о реализации не готов — не заполнены поля исполнителя \(18\): /);
    expect(empty).toContain("«Контактное лицо исполнителя (Ф. И. О., должность, телефон, e-mail)» (раздел 1)");
    expect(empty).toContain("«Пояснения к каждой группе отклонений» (раздел 10)");
    expect(empty).toContain("нет пояснения к группам отклонений (1): Ф-1, 01.06.2026 08:00 – 09:59: нет данных");
    const report = `/api/v1/climate-projects/${project}/periods/${period.id}/report/`;
    const { s10_explanations: _s10, ...others } = FILLED_REPORT;
    const saved = await h.request(report, { method: "PATCH", token: staff.token, json: { fields: others, version: 0 } });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const shown = (await saved.json()) as { empty_hand: number; missing: { fields: { key: string }[]; deviation_groups: string[] } };
    expect(shown.empty_hand).toBe(1);
    expect(shown.missing).toEqual({
      fields: [{ key: "s10_explanations", section: 10, label: "Пояснения к каждой группе отклонений" }],
      deviation_groups: ["Ф-1, 01.06.2026 08:00 – 09:59: нет данных"],
    });
    expect(await refused(await approve(), 409)).toBe(
      "«Утвердить» невозможно: отчет о реализации не готов — не заполнены поля исполнителя (1): «Пояснения к каждой группе отклонений» (раздел 10); нет пояснения к группам отклонений (1): Ф-1, 01.06.2026 08:00 – 09:59: нет данных",
    );
    // Nothing was approved meanwhile; once every field is written the period is approved.
    expect((await ok(await api(staff.token, `periods/${period.id}/`))).approval).toBeNull();
    const explained = await h.request(report, {
      method: "PATCH",
      token: staff.token,
      json: { fields: { s10_explanations: "08:00–09:59: связь с АГК прервана, часы не учтены" }, version: 1 },
    });
    expect(((await explained.json()) as { missing: unknown }).missing).toEqual({ fields: [], deviation_groups: [] });
    expect((await ok(await approve())).approval?.number).toBe(1);
  });

  it("writes approving, withdrawing and computing again to the company's change log", async () => {
    const log = await ok<{
      results: { target_type: string; target_label: string; changes: { label: string; before: string; after: string }[] }[];
    }>(await h.request("/api/v1/users/company/audit/?limit=50&offset=0", { token: reviewer }));
    const entries = log.results.filter(
      (e) => e.target_type === "climate_period" && e.target_label === "Факел утверждения, 01.06.2026 04:00 – 01.06.2026 06:00",
    );
    // The newest first: approved again, computed again, withdrawn, approved.
    const states = entries.map((e) => e.changes.find((c) => c.label === "Утверждение"));
    expect(states.map((c) => c && `${c.before} → ${c.after}`)).toEqual([
      "не утвержден → утвержден",
      undefined,
      "утвержден → не утвержден",
      "не утвержден → утвержден",
    ]);
    expect(entries[2].changes.find((c) => c.label === "Причина")?.after).toBe("поправка расхода");
    expect(entries[1].changes.find((c) => c.label === "Рассчитал")).toMatchObject({ after: "reviewer-a@example.test" });
  });

  it("answers another company 404 for a period's approval and recomputation", async () => {
    const other = (await h.signedInUser("Чужая компания")).token;
    const [period] = (await ok<{ results: Period[] }>(await api(staff.token, "periods/"))).results;
    expect(
      await refused(await api(other, `periods/${period.id}/review/`, { action: "withdraw", reason: "x", version: period.version }), 404),
    ).toBe("Климатический проект не найден");
    expect(await refused(await api(other, `periods/${period.id}/recompute/`, { version: period.version }), 404)).toBe(
      "Климатический проект не найден",
    );
  });
});
