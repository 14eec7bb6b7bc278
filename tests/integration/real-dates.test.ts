// Every date a real date (schemas/dates.ts, the contract's one reader of dates and times) over HTTP on the
// real local engine. A check's `at` of 30.02.2026 was stored as 02.03.2026 and 31.04 as 01.05 — in the
// «Метан» journal, whose records are never edited: now a 400 at `at` naming the day the calendar lacks,
// and nothing is written. A check dated 1970, before its sensor was put in service, and a verification
// of year 0000 are refused at their fields with the bound that applies; a sensor's day of 31.02 is a 400,
// and so is a hand measurement (D105) of 30.02.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "@server/contract/schemas/limits";
import { createHarness, type Harness } from "../support/harness";
import { signIn, signedInAdmin } from "../support/admin";

let h: Harness;
let owner = "";
let operator = "";
let facility = "";
let sensor = "";

type Refusal = { detail: string; errors?: { field: string; message: string }[] };
async function refused(res: Response, field: string): Promise<string> {
  expect(res.status, await res.clone().text()).toBe(400);
  const body = (await res.json()) as Refusal;
  expect(body.errors?.map((e) => e.field)).toEqual([field]);
  return body.detail;
}
const post = (path: string, body: unknown, token: string) => h.request(path, { method: "POST", token, json: body });

const CHECK = {
  kind: "shift_check",
  reading_pct: 0.42,
  reference_pct: 0.4,
  reference_instrument: "ШИ-11 № 4512",
  button_test_ok: true,
  result: "passed",
};

beforeAll(async () => {
  h = await createHarness();
  const { token: admin } = await signedInAdmin(h);
  let companyId: string;
  ({ companyId, token: owner } = await h.signedInUser("ООО «Настоящие даты»"));
  const email = "operator@real-dates.ru";
  const made = await h.request(`/api/v1/admin/companies/${companyId}/users/`, {
    method: "POST",
    token: admin,
    json: { email, password: "correct-horse-7", first_name: "Ольга", last_name: "Кузнецова", duty: "agk_operator" },
  });
  expect(made.status, await made.clone().text()).toBe(201);
  operator = ((await (await signIn(h, email, "correct-horse-7")).json()) as { access: string }).access;
  const f = await post("/api/v1/facilities/", { name: "Шахта «Календарная»", kind: "underground_mine" }, owner);
  facility = ((await f.json()) as { id: string }).id;
  const s = await post(
    `/api/v1/facilities/${facility}/sensors/`,
    { code: "М-30", kind: "methane", working: "Лава 2-2", place: "face_10_20m", warning: 1, alarm: 2, in_service_from: "2020-01-15" },
    owner,
  );
  expect(s.status, await s.clone().text()).toBe(201);
  sensor = ((await s.json()) as { id: string }).id;
});
afterAll(() => h.close());

describe("every date a real date", () => {
  const checks = () => `/api/v1/facilities/${facility}/sensors/${sensor}/checks/`;

  it("refuses a check of 30.02 and 31.04 at `at`, writing nothing; 28.02 is written as typed", async () => {
    expect(await refused(await post(checks(), { ...CHECK, at: "2026-02-30T10:00:00" }, operator), "at")).toContain(
      "в календаре нет дня 30.02.2026",
    );
    expect(await refused(await post(checks(), { ...CHECK, at: "2026-04-31T10:00:00+07:00" }, operator), "at")).toContain(
      "в календаре нет дня 31.04.2026",
    );
    await refused(await post(checks(), { ...CHECK, at: "2026-03-01T24:00:00" }, operator), "at");
    const list = await h.request(checks(), { token: operator });
    expect(((await list.json()) as { results: unknown[] }).results).toEqual([]);
    const written = await post(checks(), { ...CHECK, at: "2026-02-28T10:00:00" }, operator);
    expect(written.status, await written.clone().text()).toBe(201);
    expect(((await written.json()) as { at: string }).at).toBe("2026-02-28T03:00:00.000Z");
  });

  it("refuses a hand measurement (D105) of 30.02 at `measured_at`, writing nothing in its journal", async () => {
    const measurements = `/api/v1/facilities/${facility}/hand-measurements/`;
    const measurement = { instrument: "ШИ-11", instrument_number: "4512", place: "У датчика М-30", sensor, value_pct: 0.4 };
    expect(await refused(await post(measurements, { ...measurement, measured_at: "2026-02-30T10:00" }, operator), "measured_at")).toContain(
      "в календаре нет дня 30.02.2026",
    );
    const list = await h.request(`${measurements}?from=2026-02-01&to=2026-03-31`, { token: operator });
    expect(list.status, await list.clone().text()).toBe(200);
    expect(((await list.json()) as { results: unknown[] }).results).toEqual([]);
  });

  it("refuses a check dated 1970, before the sensor's service, naming its day", async () => {
    const detail = await refused(await post(checks(), { ...CHECK, at: "1970-01-01T00:00:00Z" }, operator), "at");
    expect(detail).toContain("раньше ввода датчика М-30 в эксплуатацию (15.01.2020)");
  });

  it("refuses a verification of year 0000 with the platform's first year", async () => {
    const detail = await refused(
      await post(
        `/api/v1/facilities/${facility}/sensors/${sensor}/verifications`,
        {
          instrument_type: "ДМС 03",
          register_number: "12345-06",
          serial: "0042",
          verified_on: "0000-03-01",
          valid_to: "2026-03-01",
          certificate: "С-ВЮМ/01-03-2025/123",
        },
        owner,
      ),
      "verified_on",
    );
    expect(detail).toContain(`раньше 01.01.${LIMITS.dates.earliestYear}`);
  });

  it("refuses a sensor's day of 31.02 and a journal instant of 29.02 of a common year", async () => {
    const day = await h.request(`/api/v1/facilities/${facility}/sensors/${sensor}/day/?date=2026-02-31`, { token: owner });
    expect(await refused(day, "date")).toContain("в календаре нет дня 31.02.2026");
    const events = await h.request(`/api/v1/telemetry/events/?facility=${facility}&from=2026-02-29`, { token: owner });
    expect(await refused(events, "from")).toContain("в календаре нет дня 29.02.2026");
  });
});
