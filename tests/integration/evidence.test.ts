// The evidence file of a custom coefficient (methodology D10): a PDF, workbook or picture ≤ 10 MB,
// told by its first bytes, stored under the calculation's company, downloadable by that company
// only, named in the coefficient's record (so the orphan sweep keeps it) and in the detailed export;
// a replaced file, or one whose value is no longer custom, is deleted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { zipOf } from "../support/zip";
import { multipart, pdfBytes } from "../support/admin";
import { sweepOrphanBlobs } from "@server/domain/files/orphan-blobs";
import { EVIDENCE_MAX_BYTES } from "@server/contract/schemas/evidence";
import type { CalculationView } from "@server/contract";

let h: Harness;
let user: Awaited<ReturnType<Harness["signedInUser"]>>;
let other: Awaited<ReturnType<Harness["signedInUser"]>>;
let projectId: string;

beforeAll(async () => {
  h = await createHarness();
  user = await h.signedInUser();
  other = await h.signedInUser();
  projectId = (await h.newProject(user.token, "Шахта Восточная")).id;
});
afterAll(() => h.close());

const text = (s: string) => new TextEncoder().encode(s);
const png = () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...text("IHDR-test-image")]);
const workbook = () => zipOf({ "[Content_Types].xml": "<Types/>", "xl/workbook.xml": "<workbook/>" });

async function customCalculation(): Promise<CalculationView> {
  const res = await h.request("/api/v1/underground_emission_ch4/", {
    method: "POST",
    token: user.token,
    json: {
      name: "Замеренный коэффициент",
      project: projectId,
      volume: 1_000_000,
      ef: 14.3,
      dictionary_items: { get_underground_emission_ch4: null },
      justifications: { ef: "Замеры газовыделения 2024 г., протокол № 17" },
    },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as CalculationView;
}

async function attach(calc: CalculationView, file: { name: string; bytes: Uint8Array; type?: string }, token = user.token, field = "ef") {
  const { body, headers } = await multipart({ version: String(calc.version) }, file);
  return h.request(`/api/v1/underground_emission_ch4/${calc.id}/evidence/${field}/`, {
    method: "PUT",
    token,
    body: body as Uint8Array<ArrayBuffer>,
    headers,
  });
}

const evidenceKeysOf = async (id: string) => {
  const stored = await h.deps.repos.calculations.get(user.companyId, "underground_emission_ch4", id);
  return Object.values(stored!.coefficients).flatMap((use) => (use.evidence ? [use.evidence.key] : []));
};

describe("the evidence file of a custom coefficient", () => {
  it("is stored under the company, shown by name and size, and downloads as uploaded", async () => {
    const calc = await customCalculation();
    const pdf = pdfBytes(4096, "protocol");
    const res = await attach(calc, { name: "Протокол замеров № 17.pdf", bytes: pdf });
    expect(res.status).toBe(200);
    const view = (await res.json()) as CalculationView;
    expect(view.version).toBe(calc.version + 1);
    expect(view.coefficients.ef).toMatchObject({
      source: "custom",
      justification: "Замеры газовыделения 2024 г., протокол № 17",
      evidence: { name: "Протокол замеров № 17.pdf", size: 4096, format: "pdf" },
    });
    // The storage key stays inside the server.
    expect(view.coefficients.ef.evidence).not.toHaveProperty("key");
    const [key] = await evidenceKeysOf(calc.id);
    expect(key).toMatch(new RegExp(`^uploads/${user.companyId}/${calc.id}/[0-9a-f-]+\\.pdf$`));

    const read = (await (await h.request(`/api/v1/underground_emission_ch4/${calc.id}/`, { token: user.token })).json()) as CalculationView;
    expect(read.coefficients.ef.evidence).toMatchObject({ name: "Протокол замеров № 17.pdf", size: 4096 });

    const download = await h.request(`/api/v1/underground_emission_ch4/${calc.id}/evidence/ef/`, { token: user.token });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(download.headers.get("content-disposition")).toContain(encodeURIComponent("Протокол замеров № 17.pdf"));
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(pdf);
  });

  it("takes a workbook and a picture by their first bytes, whatever they are called", async () => {
    const calc = await customCalculation();
    const asXlsx = await attach(calc, { name: "замеры.xlsx", bytes: workbook(), type: "application/octet-stream" });
    expect(asXlsx.status).toBe(200);
    const after = (await asXlsx.json()) as CalculationView;
    expect(after.coefficients.ef.evidence).toMatchObject({ format: "xlsx" });
    const asPng = await attach(after, { name: "фото прибора", bytes: png(), type: "application/pdf" });
    expect(asPng.status).toBe(200);
    expect(((await asPng.json()) as CalculationView).coefficients.ef.evidence).toMatchObject({ name: "фото прибора", format: "png" });
    const download = await h.request(`/api/v1/underground_emission_ch4/${calc.id}/evidence/ef/`, { token: user.token });
    expect(download.headers.get("content-type")).toBe("image/png");
  });

  it("refuses another type with 415, whatever its name and declared type, and stores nothing", async () => {
    const calc = await customCalculation();
    const refused = [
      { name: "setup.pdf", bytes: text("MZ\x90\x00 not a pdf"), type: "application/pdf" },
      { name: "отчет.xlsx", bytes: zipOf({ "word/document.xml": "<w/>" }) },
      { name: "данные.csv", bytes: text("year,value\n2024,1\n"), type: "text/csv" },
    ];
    for (const file of refused) {
      const res = await attach(calc, file);
      expect(res.status, file.name).toBe(415);
      expect(((await res.json()) as { detail: string }).detail).toContain("PDF");
    }
    expect(await evidenceKeysOf(calc.id)).toEqual([]);
    expect(await h.deps.repos.calculations.blobKeysOfCompany(user.companyId)).not.toContain(expect.stringContaining(calc.id));
  });

  it("refuses a file over 10 MB with 413 and a clear message", async () => {
    const calc = await customCalculation();
    const res = await attach(calc, { name: "скан.pdf", bytes: pdfBytes(EVIDENCE_MAX_BYTES + 1) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { detail: string }).detail).toBe("Файл больше 10 МБ");
    expect(await evidenceKeysOf(calc.id)).toEqual([]);
  });

  it("is refused for a coefficient that is not the user's own value, and without a file", async () => {
    const res = await h.request("/api/v1/underground_emission_ch4/", {
      method: "POST",
      token: user.token,
      json: { name: "Из справочника", project: projectId, volume: 1000, dictionary_items: { get_underground_emission_ch4: 1 } },
    });
    const calc = (await res.json()) as CalculationView;
    const refused = await attach(calc, { name: "протокол.pdf", bytes: pdfBytes() });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/^ef: .*фактическому значению/);
    const custom = await customCalculation();
    const { body, headers } = await multipart({});
    const empty = await h.request(`/api/v1/underground_emission_ch4/${custom.id}/evidence/ef/`, {
      method: "PUT",
      token: user.token,
      body: body as Uint8Array<ArrayBuffer>,
      headers,
    });
    expect(empty.status).toBe(400);
  });

  it("is another company's 404, to download, replace and remove", async () => {
    const calc = await customCalculation();
    const attached = (await (await attach(calc, { name: "протокол.pdf", bytes: pdfBytes() })).json()) as CalculationView;
    const path = `/api/v1/underground_emission_ch4/${calc.id}/evidence/ef/`;
    const download = await h.request(path, { token: other.token });
    expect(download.status).toBe(404);
    expect(await download.text()).not.toContain("протокол");
    expect((await attach(attached, { name: "подмена.pdf", bytes: pdfBytes() }, other.token)).status).toBe(404);
    expect((await h.request(path, { method: "DELETE", token: other.token })).status).toBe(404);
    expect((await h.request(path, { token: user.token })).status).toBe(200);
  });

  it("replacing the file deletes the old blob; so does an edit that drops the custom value", async () => {
    const calc = await customCalculation();
    const first = (await (await attach(calc, { name: "старый.pdf", bytes: pdfBytes() })).json()) as CalculationView;
    const [oldKey] = await evidenceKeysOf(calc.id);
    const second = (await (await attach(first, { name: "новый.png", bytes: png() })).json()) as CalculationView;
    const [newKey] = await evidenceKeysOf(calc.id);
    expect(newKey).not.toBe(oldKey);
    expect(await h.deps.blobs.get(oldKey)).toBeUndefined();
    expect(await h.deps.blobs.get(newKey)).toBeDefined();

    // An edit that keeps the custom value keeps its file.
    const renamed = await h.request(`/api/v1/underground_emission_ch4/${calc.id}/`, {
      method: "PATCH",
      token: user.token,
      json: { volume: 2_000_000, version: second.version },
    });
    const kept = (await renamed.json()) as CalculationView;
    expect(kept.coefficients.ef.evidence).toMatchObject({ name: "новый.png" });
    expect(await h.deps.blobs.get(newKey)).toBeDefined();

    const toDictionary = await h.request(`/api/v1/underground_emission_ch4/${calc.id}/`, {
      method: "PATCH",
      token: user.token,
      json: { ef: 18, dictionary_items: { get_underground_emission_ch4: 1 }, version: kept.version },
    });
    expect(toDictionary.status, await toDictionary.clone().text()).toBe(200);
    expect(((await toDictionary.json()) as CalculationView).coefficients.ef.evidence).toBeUndefined();
    expect(await h.deps.blobs.get(newKey)).toBeUndefined();
  });

  it("is removed on request, its blob with it", async () => {
    const calc = await customCalculation();
    await attach(calc, { name: "протокол.pdf", bytes: pdfBytes() });
    const [key] = await evidenceKeysOf(calc.id);
    const removed = await h.request(`/api/v1/underground_emission_ch4/${calc.id}/evidence/ef/`, { method: "DELETE", token: user.token });
    expect(removed.status).toBe(200);
    expect(((await removed.json()) as CalculationView).coefficients.ef).toMatchObject({
      source: "custom",
      justification: expect.any(String),
    });
    expect(await h.deps.blobs.get(key)).toBeUndefined();
    expect((await h.request(`/api/v1/underground_emission_ch4/${calc.id}/evidence/ef/`, { token: user.token })).status).toBe(404);
  });

  it("counts as named for the orphan sweep and is listed in the detailed export", async () => {
    const calc = await customCalculation();
    await attach(calc, { name: "Протокол № 17.pdf", bytes: pdfBytes() });
    const [key] = await evidenceKeysOf(calc.id);
    expect(await h.deps.repos.calculations.blobKeysOfCompany(user.companyId)).toContain(key);
    const later = { ...h.deps, clock: { now: () => new Date(Date.now() + 2 * 24 * 60 * 60 * 1000) } };
    expect(await sweepOrphanBlobs(later)).not.toContain(key);
    expect(await h.deps.blobs.get(key)).toBeDefined();

    const exported = await h.request(`/api/v1/projects/${projectId}/export_to_txt/?detail=true`, { token: user.token });
    expect(exported.status).toBe(200);
    expect(await exported.text()).toContain("Коэффициент выбросов CH4 при подземной добыче: подтверждающий документ «Протокол № 17.pdf»");
  });
});
