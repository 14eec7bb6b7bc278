// The production calendar kept in the table (/api/v1/admin/calendar/): seeded 2024–2026 on first
// start and into a store from before, loaded and edited by an admin with its decree, each change in
// the change log before → after, refused in Russian when a day is wrong; the review deadline of a
// notice reads it as it is now.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { lastAuditEntry, signIn, signedInAdmin, type SignedIn } from "../support/admin";
import { createUser } from "@server/domain/company/users";
import { seedProductionCalendar } from "@server/domain/reference/production-calendar";
import { openMemoryStorage } from "@server/local/storage";
import { fieldName } from "@server/contract/field-names";

// «Today» is in February 2027, so a notice of December 2026 is no date in the future.
const NOW = new Date("2027-02-01T09:00:00Z");

let h: Harness;
let admin: SignedIn;

beforeAll(async () => {
  h = await createHarness({}, { now: () => NOW });
  admin = await signedInAdmin(h);
});
afterAll(() => h.close());

interface CalendarYear {
  year: number;
  decree: { title: string; number: string; date: string };
  days_off: string[];
  working_days: string[];
  version: number;
  updated_by: string;
}

const DECREE_2027 = { title: "Постановление Правительства РФ «О переносе выходных дней в 2027 году»", number: "1234", date: "2026-09-15" };
const DAYS_2027 = {
  days_off: ["2027-01-01", "2027-01-04", "2027-01-05", "2027-01-06", "2027-01-07", "2027-01-08", "2027-02-23", "2027-03-08"],
  working_days: [],
};

/** Every Monday to Friday of 2027: as days off, they leave the year no working day. */
const WEEKDAYS_2027 = Array.from({ length: 365 }, (_, i) => new Date(Date.UTC(2027, 0, 1 + i)))
  .filter((day) => day.getUTCDay() % 6 !== 0)
  .map((day) => day.toISOString().slice(0, 10));

const list = async (token = admin.token) => {
  const res = await h.request("/api/v1/admin/calendar/", { token });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: CalendarYear[] }).results;
};
const post = (json: unknown, token = admin.token) => h.request("/api/v1/admin/calendar/", { method: "POST", token, json });
const put = (year: number | string, json: unknown) =>
  h.request(`/api/v1/admin/calendar/${year}/`, { method: "PUT", token: admin.token, json });
const detail = async (res: Response, status: number) => {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  return ((await res.json()) as { detail: string }).detail;
};

describe("the production calendar as data", () => {
  it("is seeded with 2024–2026 and their decrees, for admins only", async () => {
    const years = await list();
    expect(years.map((y) => y.year)).toEqual([2024, 2025, 2026]);
    expect(years[0]).toMatchObject({
      decree: { number: "1306", date: "2023-08-10" },
      working_days: ["2024-04-27", "2024-11-02", "2024-12-28"],
      version: 1,
      updated_by: "system",
    });
    expect(years[0].days_off).toContain("2024-05-09");
    const staff = await h.signedInUser();
    expect(await detail(await h.request("/api/v1/admin/calendar/", { token: staff.token }), 403)).toMatch(/администратор/);
    expect((await post({ year: 2027, decree: DECREE_2027, ...DAYS_2027 }, staff.token)).status).toBe(403);
  });

  it("refuses a day outside the year, a day twice or in both lists, a weekday made working and a date not ГГГГ-ММ-ДД, in Russian", async () => {
    const refused = async (body: Record<string, unknown>, pattern: RegExp) => {
      expect(await detail(await post({ year: 2027, decree: DECREE_2027, ...DAYS_2027, ...body }), 400)).toMatch(pattern);
    };
    await refused(
      { days_off: ["2027-01-01", "2028-01-03"] },
      new RegExp(`^${fieldName("days_off")}: нерабочие дни — 03\\.01\\.2028 не относится к 2027 году$`),
    );
    await refused({ days_off: ["2027-01-01", "2027-01-01"] }, /01\.01\.2027 указан дважды/);
    await refused(
      { working_days: ["2027-01-01"] },
      new RegExp(`^${fieldName("working_days")}: .*01\\.01\\.2027 указан и среди нерабочих, и среди рабочих выходных дней`),
    );
    await refused({ working_days: ["2027-11-03"] }, /03\.11\.2027 — среда: будний день и так рабочий/);
    await refused(
      { days_off: ["2027-01-01", "2027-01-02"] },
      new RegExp(`^${fieldName("days_off")}: нерабочие дни — 02\\.01\\.2027 — суббота: выходной и так нерабочий$`),
    );
    await refused(
      { days_off: WEEKDAYS_2027 },
      new RegExp(`^${fieldName("days_off")}: нерабочие дни — в 2027 году не остается ни одного рабочего дня$`),
    );
    await refused({ days_off: ["01.01.2027"] }, /«01\.01\.2027» — не дата ГГГГ-ММ-ДД/);
    await refused({ days_off: "2027-01-01" }, new RegExp(`^${fieldName("days_off")}: `));
    await refused(
      { decree: { ...DECREE_2027, date: "15.09.2026" } },
      new RegExp(`^${fieldName("decree.date")}: укажите дату в формате ГГГГ-ММ-ДД`),
    );
    await refused({ decree: { ...DECREE_2027, title: "  " } }, new RegExp(`^${fieldName("decree.title")}: заполните поле`));
    await refused({ year: 1999 }, /^Год: не раньше 2000/);
    await refused({ year: "2027" }, /^Год: /);
    expect(await detail(await post({ year: 2026, decree: DECREE_2027, ...DAYS_2027, days_off: [] }), 409)).toBe(
      "Производственный календарь на 2026 год уже есть",
    );
    expect((await list()).map((y) => y.year)).toEqual([2024, 2025, 2026]);
  });

  it("keeps the review deadline Monday to Friday with a warning until the admin loads 2027, then counts by it", async () => {
    const staff = await h.signedInUser("ООО Календарь");
    const reviewer = `reviewer-${Date.now()}@example.com`;
    await createUser(h.deps, { companyId: staff.companyId, email: reviewer, password: "reviewer-password", role: "reviewer" });
    const reviewerToken = ((await (await signIn(h, reviewer, "reviewer-password")).json()) as { access: string }).access;
    const act = async (token: string, body: Record<string, unknown>) => {
      const res = await h.request("/api/v1/inventory/2025/review/", { method: "POST", token, json: body });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as { version: number; rework_deadline?: string; rework_deadline_warning?: string };
    };
    let review = await act(staff.token, { action: "send_to_review", version: 0 });
    review = await act(reviewerToken, { action: "approve", version: review.version });
    review = await act(reviewerToken, { action: "submit", date: "2026-03-20", version: review.version });
    review = await act(reviewerToken, { action: "refuse", reason: "Замечания", notice_date: "2026-12-20", version: review.version });
    // 1–8 January 2027 counted as working days: no calendar for 2027.
    expect(review.rework_deadline).toBe("2027-01-18");
    expect(review.rework_deadline_warning).toMatch(/^производственный календарь на 2027 год не загружен/);

    const created = await post({ year: 2027, decree: DECREE_2027, ...DAYS_2027 });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ year: 2027, decree: DECREE_2027, version: 1, updated_by: admin.email });
    const create = await lastAuditEntry<{ action: string; target_label: string; before: unknown; after: CalendarYear }>(h, admin.token);
    expect(create).toMatchObject({ action: "calendar.create", target_label: "Производственный календарь на 2027 год", before: null });
    expect(create.after.days_off).toEqual(DAYS_2027.days_off);

    const inventory = await h.request("/api/v1/inventory/?year=2025", { token: staff.token });
    const { review: now } = (await inventory.json()) as { review: { rework_deadline: string; rework_deadline_warning?: string } };
    expect(now.rework_deadline).toBe("2027-01-26");
    expect(now.rework_deadline_warning).toBeUndefined();
  });

  it("edits a year's days and decree by its version, logging the year before and after", async () => {
    const [year2027] = (await list()).filter((y) => y.year === 2027);
    const edited = {
      decree: { ...DECREE_2027, number: "1235" },
      days_off: [...DAYS_2027.days_off, "2027-05-03"],
      working_days: ["2027-11-06"],
    };
    const res = await put(2027, { ...edited, version: year2027.version });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ...edited, version: 2 });
    const entry = await lastAuditEntry<{ action: string; before: CalendarYear; after: CalendarYear }>(h, admin.token);
    expect(entry.action).toBe("calendar.update");
    expect(entry.before).toMatchObject({ decree: { number: "1234" }, working_days: [], version: 1 });
    expect(entry.after).toMatchObject({ decree: { number: "1235" }, working_days: ["2027-11-06"], version: 2 });

    expect(await detail(await put(2027, { ...edited, version: 1 }), 409)).toMatch(/уже изменен другим пользователем/);
    expect(await detail(await put(2030, { ...edited, version: 1 }), 404)).toBe("Производственный календарь на 2030 год не загружен");
    expect(await detail(await put(2027, { ...edited, days_off: ["2026-12-31"], version: 2 }), 400)).toMatch(/не относится к 2027 году/);
    for (const year of ["02027", "2027.0", "+2027", "%202027", "0x7eb", "27"]) {
      expect(await detail(await put(year, { ...edited, version: 2 }), 400), year).toBe("Год: ожидается год из четырех цифр");
    }
    expect(await detail(await put(2027, { ...edited, working_days: [], days_off: WEEKDAYS_2027, version: 2 }), 400)).toMatch(
      /не остается ни одного рабочего дня/,
    );
    expect((await list()).find((y) => y.year === 2027)).toMatchObject({ version: 2 });
  });

  it("gives a store from before the shipped years on its next start, leaving an admin's own years alone", async () => {
    const storage = await openMemoryStorage();
    try {
      const deps = { repos: storage.repos, clock: { now: () => NOW } };
      expect(await storage.repos.productionCalendar.list()).toEqual([]);
      expect(await seedProductionCalendar(deps)).toBe(3);
      const [first] = await storage.repos.productionCalendar.list();
      await storage.repos.productionCalendar.put({ ...first, working_days: [], version: 2, updated_by: "admin@example.com" }, 1);
      expect(await seedProductionCalendar(deps)).toBe(0);
      expect(await storage.repos.productionCalendar.get(2024)).toMatchObject({ working_days: [], version: 2 });
    } finally {
      await storage.close();
    }
  });
});
