// Slow bodies and disk. The certificates' scans of a company are held to their quota
// (LIMITS.sensorChecks.certificateScansPerCompanyBytes): a scan that would pass it is 409 naming the
// figures, nothing stored; what a refused or failed attach took is given back. The body's deadline by
// its size: functions/src/local/body-deadline.test.ts; a user's bodies in flight capped:
// functions/src/local/open-bodies.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "@server/contract";
import { createHarness, type Harness } from "../support/harness";
import { multipart, pdfBytes } from "../support/admin";

let h: Harness;
let owner: Awaited<ReturnType<Harness["signedInUser"]>>;
let facility = "";
let sensor = "";

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

beforeAll(async () => {
  h = await createHarness();
  owner = await h.signedInUser("ООО «Медленные тела»");
  facility = (
    await json<{ id: string }>(
      await h.request("/api/v1/facilities/", {
        method: "POST",
        token: owner.token,
        json: { name: "Шахта «Квота»", kind: "underground_mine" },
      }),
      201,
    )
  ).id;
  sensor = (
    await json<{ id: string }>(
      await h.request(`/api/v1/facilities/${facility}/sensors/`, {
        method: "POST",
        token: owner.token,
        json: { code: "М-1", kind: "methane", working: "Лава 1", place: "face_10_20m", warning: 1, alarm: 2 },
      }),
      201,
    )
  ).id;
});
afterAll(() => h.close());

describe("the certificates' scans of a company", () => {
  const base = () => `/api/v1/facilities/${facility}/sensors/${sensor}/verifications`;
  async function verification(certificate: string): Promise<string> {
    const made = await h.request(`${base()}/`, {
      method: "POST",
      token: owner.token,
      json: {
        instrument_type: "ДМС 03",
        register_number: "12345-06",
        serial: "0419",
        verified_on: "2026-03-01",
        valid_to: "2027-02-28",
        certificate,
      },
    });
    return (await json<{ id: string }>(made, 201)).id;
  }
  async function attach(id: string, bytes: Uint8Array) {
    const { body, headers } = await multipart({}, { name: "свидетельство.pdf", bytes });
    return h.request(`${base()}/${id}/certificate/`, { method: "PUT", token: owner.token, body: body as Uint8Array<ArrayBuffer>, headers });
  }

  it("are held to the company's quota: a scan past it is 409 naming the figures, nothing stored", async () => {
    const scan = pdfBytes(4096, "С-1");
    const first = await verification("С-ВЮМ/01-03-2026/1");
    await json(await attach(first, scan), 200);
    const quota = LIMITS.sensorChecks.certificateScansPerCompanyBytes;
    const counted = await h.deps.repos.caps.taken(owner.companyId, "CERTIFICATE_SCANS");
    expect(counted).toBe(scan.byteLength);
    // The company's other scans fill the quota but for less than this file.
    const filler = quota - counted - Math.floor(scan.byteLength / 2);
    expect(await h.deps.repos.caps.take(owner.companyId, "CERTIFICATE_SCANS", quota, async () => 0, filler)).toBe(true);

    const second = await verification("С-ВЮМ/01-03-2026/2");
    const refused = await attach(second, scan);
    expect(refused.status, await refused.clone().text()).toBe(409);
    const detail = ((await refused.json()) as { detail: string }).detail;
    expect(detail).toContain("Место для сканов свидетельств организации исчерпано");
    expect(detail).toContain("из 2 ГБ");
    const stored = (await h.deps.repos.sensorChecks.verificationsOfFacility(owner.companyId, facility)).find((v) => v.id === second);
    expect(stored?.certificate_file).toBeUndefined();
    expect(await h.deps.repos.caps.taken(owner.companyId, "CERTIFICATE_SCANS")).toBe(counted + filler);

    // Room made (the filler given back): the same scan is taken.
    await h.deps.repos.caps.give(owner.companyId, "CERTIFICATE_SCANS", filler);
    await json(await attach(second, scan), 200);
    expect(await h.deps.repos.caps.taken(owner.companyId, "CERTIFICATE_SCANS")).toBe(2 * scan.byteLength);
    // A second scan of the same verification is refused (409) and takes nothing.
    expect((await attach(second, scan)).status).toBe(409);
    expect(await h.deps.repos.caps.taken(owner.companyId, "CERTIFICATE_SCANS")).toBe(2 * scan.byteLength);
  });
});
