// an earlier round over HTTP on the real local DynamoDB engine: a sensor's verification (поверка) carries
// its certificate's scan. The file is attached once after the verification is recorded (PUT
// …/verifications/{verification}/certificate/), marked with who and when, the verification's fields as they
// were; it is a PDF, PNG or JPEG told by its first bytes (a workbook, or a program named .pdf, is 415 in
// Russian), at most LIMITS.sensorChecks.certificateFileBytes (413), kept in the blob store under the
// company as a coefficient's evidence file, downloaded byte for byte by the company's users (another
// company 404), never swept while its verification names it, and a second file is refused (409).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "@server/contract";
import { sweepOrphanBlobs } from "@server/domain/files/orphan-blobs";
import { createHarness, type Harness } from "../support/harness";
import { multipart, pdfBytes } from "../support/admin";
import { zipOf } from "../support/zip";
import { createUser } from "@server/domain/company/users";
import { signIn } from "../support/admin";

let h: Harness;
let owner: Awaited<ReturnType<Harness["signedInUser"]>>;
let other: Awaited<ReturnType<Harness["signedInUser"]>>;
let reviewer: string;
let facility = "";
let sensor = "";

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const text = (s: string) => new TextEncoder().encode(s);
const png = () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...text("IHDR-scan")]);
const jpeg = () => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...text("JFIF-scan")]);

interface Verification {
  id: string;
  certificate: string;
  verified_on: string;
  valid_to: string;
  recorded_by: string;
  recorded_at: string;
  certificate_file?: { name: string; size: number; format: string; uploaded_at: string; uploaded_by: string };
}

const as = (path: string, init: { method?: string; json?: unknown } = {}, token = owner.token) => h.request(path, { ...init, token });
const base = () => `/api/v1/facilities/${facility}/sensors/${sensor}/verifications`;

async function verification(certificate: string): Promise<Verification> {
  return json<Verification>(
    await as(`${base()}/`, {
      method: "POST",
      json: {
        instrument_type: "ДМС 03",
        register_number: "12345-06",
        serial: "0419",
        verified_on: "2026-03-01",
        valid_to: "2027-02-28",
        certificate,
      },
    }),
    201,
  );
}

async function attach(id: string, file: { name: string; bytes: Uint8Array; type?: string }, token = owner.token) {
  const { body, headers } = await multipart({}, file);
  return h.request(`${base()}/${id}/certificate/`, { method: "PUT", token, body: body as Uint8Array<ArrayBuffer>, headers });
}

const storedFileOf = async (id: string) =>
  (await h.deps.repos.sensorChecks.verificationsOfFacility(owner.companyId, facility)).find((v) => v.id === id)?.certificate_file;

beforeAll(async () => {
  h = await createHarness();
  owner = await h.signedInUser("ООО «Свидетельства»");
  other = await h.signedInUser("ООО «Чужая шахта»");
  await createUser(h.deps, { companyId: owner.companyId, email: "reviewer@cert.example", password: "reviewer-password", role: "reviewer" });
  reviewer = ((await (await signIn(h, "reviewer@cert.example", "reviewer-password")).json()) as { access: string }).access;
  facility = (
    await json<{ id: string }>(
      await as("/api/v1/facilities/", { method: "POST", json: { name: "Шахта «Поверка»", kind: "underground_mine" } }),
      201,
    )
  ).id;
  sensor = (
    await json<{ id: string }>(
      await as(`/api/v1/facilities/${facility}/sensors/`, {
        method: "POST",
        json: { code: "М-9", kind: "methane", working: "Лава 9", place: "face_10_20m", warning: 1, alarm: 2 },
      }),
      201,
    )
  ).id;
});
afterAll(() => h.close());

describe("a verification's certificate file", () => {
  it("is added to the recorded verification, marked with who and when, and read back byte for byte", async () => {
    const made = await verification("С-501");
    expect(made.certificate_file).toBeUndefined();
    const scan = pdfBytes(5000, "certificate C-501");
    const view = await json<Verification>(await attach(made.id, { name: "Свидетельство С-501.pdf", bytes: scan }), 200);
    // The verification's own fields are as recorded: the file is an addition.
    const { certificate_file, ...fields } = view;
    expect(fields).toEqual(made);
    expect(certificate_file).toMatchObject({ name: "Свидетельство С-501.pdf", size: 5000, format: "pdf" });
    expect(certificate_file!.uploaded_by).toMatch(/[А-ЯЁA-Z]/);
    expect(Date.parse(certificate_file!.uploaded_at)).toBeGreaterThanOrEqual(Date.parse(made.recorded_at));
    expect(certificate_file).not.toHaveProperty("key");
    const key = (await storedFileOf(made.id))!.key;
    expect(key).toMatch(new RegExp(`^uploads/${owner.companyId}/${made.id}/[0-9a-f-]+\\.pdf$`));

    const listed = await json<{ results: Verification[] }>(await as(`${base()}/`), 200);
    expect(listed.results.find((v) => v.id === made.id)?.certificate_file).toEqual(certificate_file);

    const download = await as(`${base()}/${made.id}/certificate/`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(download.headers.get("content-disposition")).toContain("attachment");
    // Streamed from the folder with its length, not read whole first (domain/files/stored-file.ts).
    expect(download.headers.get("content-length")).toBe(String(scan.byteLength));
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(scan);
  });

  it("takes a PNG or a JPEG scan by its first bytes, whatever its name", async () => {
    for (const [bytes, format] of [
      [png(), "png"],
      [jpeg(), "jpg"],
    ] as const) {
      const made = await verification(`С-${format}`);
      const view = await json<Verification>(await attach(made.id, { name: "скан", bytes, type: "application/octet-stream" }), 200);
      expect(view.certificate_file).toMatchObject({ format, size: bytes.byteLength });
      const download = await as(`${base()}/${made.id}/certificate/`);
      expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
    }
  });

  it("is downloaded by the company's users only: another company is answered 404", async () => {
    const made = await verification("С-502");
    await json(await attach(made.id, { name: "С-502.pdf", bytes: pdfBytes() }), 200);
    expect((await h.request(`${base()}/${made.id}/certificate/`, { token: reviewer })).status).toBe(200);
    const foreign = await h.request(`${base()}/${made.id}/certificate/`, { token: other.token });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { detail: string }).detail).toMatch(/[а-я]/);
    // Nor may another company attach one to it.
    expect((await attach(made.id, { name: "чужой.pdf", bytes: pdfBytes() }, other.token)).status).toBe(404);
  });

  it("refuses another type with 415 in Russian, whatever its name and declared type, and stores nothing", async () => {
    const made = await verification("С-503");
    for (const file of [
      { name: "свидетельство.pdf", bytes: text("MZ\x90\x00 not a pdf"), type: "application/pdf" },
      { name: "свидетельство.xlsx", bytes: zipOf({ "[Content_Types].xml": "<Types/>", "xl/workbook.xml": "<workbook/>" }) },
      { name: "свидетельство.txt", bytes: text("С-503"), type: "text/plain" },
    ]) {
      const res = await attach(made.id, file);
      expect(res.status, file.name).toBe(415);
      expect(((await res.json()) as { detail: string }).detail).toBe(
        "Неподдерживаемый тип файла: приложите скан свидетельства о поверке в PDF или изображение PNG или JPEG",
      );
    }
    expect(await storedFileOf(made.id)).toBeUndefined();
    expect(await h.deps.repos.sensorChecks.certificateKeysOfCompany(owner.companyId)).not.toContain(expect.stringContaining(made.id));
  });

  it("refuses a form without a file (400) and an empty file (400), in Russian", async () => {
    const made = await verification("С-504");
    const { body, headers } = await multipart({});
    const none = await h.request(`${base()}/${made.id}/certificate/`, {
      method: "PUT",
      token: owner.token,
      body: body as Uint8Array<ArrayBuffer>,
      headers,
    });
    expect(none.status).toBe(400);
    expect(JSON.stringify(await none.json())).toContain("приложите файл");
    const empty = await attach(made.id, { name: "пусто.pdf", bytes: new Uint8Array() });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(await empty.json())).toContain("файл пуст");
  });

  it("refuses a file over the limit with 413 and says the limit", async () => {
    const made = await verification("С-505");
    const res = await attach(made.id, { name: "большой скан.pdf", bytes: pdfBytes(LIMITS.sensorChecks.certificateFileBytes + 1) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { detail: string }).detail).toBe("Файл больше 10 МБ");
    expect(await storedFileOf(made.id)).toBeUndefined();
  });

  it("is attached once (409: a correction is a newer verification), never by a reviewer (403), and 404 for an unknown verification", async () => {
    const made = await verification("С-506");
    await json(await attach(made.id, { name: "первый.pdf", bytes: pdfBytes(2048, "first") }), 200);
    const first = await storedFileOf(made.id);
    const again = await attach(made.id, { name: "второй.pdf", bytes: pdfBytes(2048, "second") });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { detail: string }).detail).toContain("уже приложен");
    expect(await storedFileOf(made.id)).toEqual(first);
    // The refused second file is not left in the store.
    const keys = await h.deps.repos.sensorChecks.certificateKeysOfCompany(owner.companyId);
    expect([...keys].filter((k) => k.includes(made.id))).toEqual([first!.key]);

    const fresh = await verification("С-507");
    expect((await attach(fresh.id, { name: "скан.pdf", bytes: pdfBytes() }, reviewer)).status).toBe(403);
    expect((await attach("0190a000-0000-7000-8000-000000000000", { name: "скан.pdf", bytes: pdfBytes() })).status).toBe(404);
    const missing = await as(`${base()}/${fresh.id}/certificate/`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { detail: string }).detail).toBe("Скан свидетельства о поверке не приложен");
  });

  it("is kept by the orphan sweep while its verification names it; a file no record names goes", async () => {
    const made = await verification("С-508");
    await json(await attach(made.id, { name: "С-508.pdf", bytes: pdfBytes() }), 200);
    const key = (await storedFileOf(made.id))!.key;
    const stray = `uploads/${owner.companyId}/${made.id}/0190a000-0000-7000-8000-000000000001.pdf`;
    await h.deps.blobs.put(stray, pdfBytes(), "application/pdf");
    const later = { ...h.deps, clock: { now: () => new Date(Date.now() + 2 * 24 * 60 * 60 * 1000) } };
    const swept = await sweepOrphanBlobs(later);
    expect(swept).not.toContain(key);
    expect(swept).toContain(stray);
    expect(await h.deps.blobs.get(key)).toBeDefined();
  });
});
