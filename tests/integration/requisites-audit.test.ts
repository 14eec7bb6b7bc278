// GET /api/v1/users/company/audit/: a company's reviewers see who changed its requisites and its
// facilities, from what to what and when (Профиль, «История изменений реквизитов»); staff get 403;
// no company ever sees another's changes. Kept under the company by the same write as the admin log.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import { signIn, signedInAdmin } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let staffA: Awaited<ReturnType<Harness["signedInUser"]>>;
let staffB: Awaited<ReturnType<Harness["signedInUser"]>>;
let reviewerA: string;
let reviewerB: string;
let admin: string;

type Change = {
  id: string;
  at: string;
  actor_email: string;
  target_type: string;
  target_label: string;
  created: boolean;
  changes: Array<{ field: string; label: string; before: string; after: string }>;
};

async function reviewer(companyId: string, email: string) {
  await createUser(h.deps, { companyId, email, password: "reviewer-password", role: "reviewer" });
  return ((await (await signIn(h, email, "reviewer-password")).json()) as { access: string }).access;
}
const audit = (token: string, query = "") => h.request(`/api/v1/users/company/audit/${query}`, { token });
const page = async (token: string, query = "") => {
  const res = await audit(token, query);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { results: Change[]; count: number };
};
const me = async (token: string) =>
  ((await (await h.request("/api/v1/users/get_me/", { token })).json()) as { company: { version?: number } }).company;

beforeAll(async () => {
  h = await createHarness();
  staffA = await h.signedInUser("Шахта Аудиторская");
  staffB = await h.signedInUser("Разрез Соседний");
  reviewerA = await reviewer(staffA.companyId, "reviewer-a@audit.example");
  reviewerB = await reviewer(staffB.companyId, "reviewer-b@audit.example");
  admin = (await signedInAdmin(h)).token;
});
afterAll(() => h.close());

describe("the company's audit of its requisites", () => {
  it("shows a reviewer who changed КПП and the person responsible, from what to what, newest first", async () => {
    const version = (await me(staffA.token)).version ?? 0;
    const first = await h.request("/api/v1/users/company/", {
      method: "PATCH",
      token: staffA.token,
      json: { inn: "7707083893", kpp: "773601005", version },
    });
    expect(first.status, await first.clone().text()).toBe(200);
    const second = await h.request("/api/v1/users/company/", {
      method: "PATCH",
      token: staffA.token,
      json: { kpp: "420501001", responsible_name: "Петров Пётр Петрович", version: version + 1 },
    });
    expect(second.status, await second.clone().text()).toBe(200);

    const { results, count } = await page(reviewerA, "?limit=20&offset=0");
    expect(count).toBe(2);
    expect(results[0]).toMatchObject({
      actor_email: staffA.email,
      target_type: "company",
      target_label: "Шахта Аудиторская",
      created: false,
    });
    expect(results[0].changes).toEqual([
      { field: "kpp", label: "КПП", before: "773601005", after: "420501001" },
      { field: "responsible_name", label: "Ответственный за отчет: ФИО", before: "", after: "Петров Пётр Петрович" },
    ]);
    expect(results[1].changes).toEqual([
      { field: "inn", label: "ИНН", before: "", after: "7707083893" },
      { field: "kpp", label: "КПП", before: "", after: "773601005" },
    ]);
    expect(results[0].at > results[1].at).toBe(true);
    // Only the listed fields, never the stored object (no ids, versions or times).
    expect(JSON.stringify(results)).not.toContain("updated_at");
  });

  it("pages: limit and offset, the count of all", async () => {
    const second = await page(reviewerA, "?limit=1&offset=1");
    expect(second.count).toBe(2);
    expect(second.results.map((r) => r.changes[0].field)).toEqual(["inn"]);
    const res = await audit(reviewerA, "?limit=0");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ detail: expect.any(String) });
  });

  it("keeps a facility's name, licence and address changes with the requisites", async () => {
    const created = await h.request("/api/v1/facilities/", {
      method: "POST",
      token: staffA.token,
      json: { name: "Шахта № 1", kind: "underground_mine", licence_number: "КЕМ 00001 ТЭ", address: "Кемерово" },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const facility = (await created.json()) as { id: string; version: number };
    const patched = await h.request(`/api/v1/facilities/${facility.id}/`, {
      method: "PATCH",
      token: staffA.token,
      json: { name: "Шахта № 2", licence_number: "КЕМ 00002 ТЭ", version: facility.version },
    });
    expect(patched.status, await patched.clone().text()).toBe(200);
    const { results } = await page(reviewerA);
    expect(results[0]).toMatchObject({ target_type: "facility", target_label: "Шахта № 2", created: false });
    expect(results[0].changes).toEqual([
      { field: "name", label: "Название", before: "Шахта № 1", after: "Шахта № 2" },
      { field: "licence_number", label: "Номер лицензии", before: "КЕМ 00001 ТЭ", after: "КЕМ 00002 ТЭ" },
    ]);
    expect(results[1]).toMatchObject({ target_type: "facility", created: true });
    expect(results[1].changes).toContainEqual({ field: "kind", label: "Тип", before: "", after: "Шахта (подземная добыча)" });
  });

  it("answers staff 403 with a Russian detail", async () => {
    const res = await audit(staffA.token);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ detail: expect.stringMatching(/^Недостаточно прав: .*проверяющий/) });
  });

  it("never shows another company's changes: B's reviewer sees only B's, an admin only the admin's own company's", async () => {
    const version = (await me(staffB.token)).version ?? 0;
    expect(
      (await h.request("/api/v1/users/company/", { method: "PATCH", token: staffB.token, json: { kpp: "421101001", version } })).status,
    ).toBe(200);
    const b = await page(reviewerB);
    expect(b.count).toBe(1);
    expect(b.results[0]).toMatchObject({ actor_email: staffB.email, target_label: "Разрез Соседний" });
    expect(JSON.stringify(b)).not.toContain("Аудиторская");
    const a = await page(reviewerA);
    expect(JSON.stringify(a)).not.toContain("Соседний");
    expect(JSON.stringify(await page(admin))).not.toMatch(/Аудиторская|Соседний/);
    // The admin's log still has every change.
    const log = (await (await h.request("/api/v1/admin/audit/?limit=100", { token: admin })).json()) as {
      results: Array<{ target_label: string }>;
    };
    expect(log.results.map((e) => e.target_label)).toEqual(expect.arrayContaining(["Шахта Аудиторская", "Разрез Соседний", "Шахта № 2"]));
  });
});
