// /api/v1/documents/ (everyone signed in) and /api/v1/admin/documents/ (upload, replace, edit,
// soft remove): the shipped catalogue, PDF round trips, type and size checks, keys made of ids.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { multipart, pdfBytes, signedInAdmin, type SignedIn } from "../support/admin";
import { CATALOGUE } from "@server/documents/catalogue";
import { fieldName } from "@server/contract/field-names";

const MAX = 64 * 1024;

let h: Harness;
let admin: SignedIn;
let staff: Awaited<ReturnType<Harness["signedInUser"]>>;

beforeAll(async () => {
  h = await createHarness({ documentMaxBytes: MAX });
  admin = await signedInAdmin(h);
  staff = await h.signedInUser();
});
afterAll(() => h.close());

interface Doc {
  id: string;
  title: string;
  number: string;
  date: string;
  kind: string;
  kind_label: string;
  source_url: string;
  source_label: string;
  catalogue: boolean;
  file: { name: string; size: number } | null;
  download_url: string | null;
  is_deleted: boolean;
  version: number;
}

async function list(token = staff.token): Promise<Doc[]> {
  const res = await h.request("/api/v1/documents/", { token });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: Doc[] }).results;
}

async function upload(
  method: "POST" | "PUT",
  path: string,
  fields: Record<string, string>,
  file?: { name: string; bytes: Uint8Array; type?: string },
) {
  const { body, headers } = await multipart(fields, file);
  return h.request(path, { method, token: admin.token, body: body as NonNullable<RequestInit["body"]>, headers });
}

describe("the catalogue", () => {
  it("lists the 8 documents of the catalogue (docs/user-guide.md), each with an official source and no file yet", async () => {
    const docs = await list();
    expect(docs.map((d) => d.id)).toEqual(CATALOGUE.map((e) => e.id));
    expect(docs).toHaveLength(8);
    expect(docs.map((d) => d.number)).toEqual(
      expect.arrayContaining(["296-ФЗ", "371", "2979-р", "315", "ГОСТ Р ИСО 14064-1", "ГОСТ 2939-63"]),
    );
    for (const doc of docs) {
      expect(doc.source_url).toMatch(
        /^https?:\/\/(www\.)?(consultant\.ru|pravo\.gov\.ru|rst\.gov\.ru|ipcc-nggip\.iges\.or\.jp|un-ilibrary\.org)\//,
      );
      expect(doc).toMatchObject({ file: null, download_url: null, catalogue: true, is_deleted: false });
      expect(doc.kind_label).not.toBe("");
    }
    expect(docs.find((d) => d.id === "ipcc-2006-v2-ch4")!.source_url).toBe(
      "https://www.ipcc-nggip.iges.or.jp/public/2006gl/pdf/2_Volume2/V2_4_Ch4_Fugitive_Emissions.pdf",
    );
  });

  it("answers 404 for the download of a document without a file, 401 without a token", async () => {
    const res = await h.request("/api/v1/documents/fz-296/download/", { token: staff.token });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { detail: string }).detail).toBe("Файл документа не загружен");
    expect((await h.request("/api/v1/documents/")).status).toBe(401);
    expect((await h.request("/api/v1/documents/no-such/download/", { token: staff.token })).status).toBe(404);
  });
});

describe("uploads", () => {
  const pdf = pdfBytes(10_000, "Федеральный закон 296-ФЗ");

  it("attaches a PDF to a catalogue entry; everyone downloads the same bytes with a safe file name", async () => {
    const res = await upload("PUT", "/api/v1/admin/documents/fz-296/file/", {}, { name: "296-ФЗ.pdf", bytes: pdf });
    expect(res.status, await res.clone().text()).toBe(200);
    const doc = (await res.json()) as Doc;
    expect(doc).toMatchObject({ id: "fz-296", version: 1, file: { name: "296-ФЗ.pdf", size: 10_000 } });
    expect(doc.download_url).toBe("/api/v1/documents/fz-296/download/");

    const listed = (await list()).find((d) => d.id === "fz-296")!;
    const download = await h.request(listed.download_url!, { token: staff.token });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    const disposition = download.headers.get("content-disposition")!;
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+\.pdf"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("UTF-8''")[1])).toBe(
      "296-ФЗ Федеральный закон «Об ограничении выбросов парниковых газов».pdf",
    );
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(pdf);
  });

  it("creates a new document under a key made of ids, whatever the file is called", async () => {
    const res = await upload(
      "POST",
      "/api/v1/admin/documents/",
      { title: "Методические рекомендации\r\nпо дегазации", number: "МР-1", date: "2024-03-01", kind: "guidelines", source_url: "" },
      { name: '../../../etc/passwd".pdf', bytes: pdfBytes(3000) },
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const doc = (await res.json()) as Doc;
    expect(doc).toMatchObject({ number: "МР-1", date: "2024-03-01", kind: "guidelines", catalogue: false, version: 1 });
    const stored = await h.deps.repos.documents.get(doc.id);
    expect(stored!.file!.key).toMatch(/^documents\/[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await list()).at(-1)!.id).toBe(doc.id);
    const download = await h.request(doc.download_url!, { token: staff.token });
    const disposition = download.headers.get("content-disposition")!;
    expect(disposition).not.toMatch(/[\r\n]/);
    expect(disposition).not.toContain("/");
    const audit = (await (await h.request("/api/v1/admin/audit/?limit=1", { token: admin.token })).json()) as {
      results: Array<{ action: string; before: unknown; after: { file: { key: string } } }>;
    };
    expect(audit.results[0]).toMatchObject({ action: "document.create", before: null });
    expect(audit.results[0].after.file.key).toBe(stored!.file!.key);
  });

  it("refuses a file that is not a PDF with 415, whatever its name and declared type", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const res = await upload(
      "PUT",
      "/api/v1/admin/documents/order-371/file/",
      {},
      { name: "order.pdf", bytes: png, type: "application/pdf" },
    );
    expect(res.status).toBe(415);
    expect(((await res.json()) as { detail: string }).detail).toBe("Ожидается файл PDF");
    const json = await h.request("/api/v1/admin/documents/order-371/file/", { method: "PUT", token: admin.token, json: { file: "x" } });
    expect(json.status).toBe(415);
    expect((await list()).find((d) => d.id === "order-371")!.file).toBeNull();
  });

  it("refuses a PDF over the limit with 413, by its declared length and by its real size", async () => {
    const tooBig = pdfBytes(MAX + 1);
    const res = await upload("PUT", "/api/v1/admin/documents/order-371/file/", {}, { name: "big.pdf", bytes: tooBig });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/^Файл больше 64 КБ$/);
    // A body far over the form's cap is stopped before it is read.
    const declared = await h.request("/api/v1/admin/documents/", {
      method: "POST",
      token: admin.token,
      body: new Uint8Array(10),
      headers: { "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(10 * 1024 * 1024) },
    });
    expect(declared.status).toBe(413);
  });

  it("checks the metadata of a new document", async () => {
    const noTitle = await upload("POST", "/api/v1/admin/documents/", { kind: "law" }, { name: "a.pdf", bytes: pdfBytes() });
    expect(noTitle.status).toBe(400);
    const badKind = await upload("POST", "/api/v1/admin/documents/", { title: "A", kind: "poem" }, { name: "a.pdf", bytes: pdfBytes() });
    expect(((await badKind.json()) as { detail: string }).detail).toMatch(/^Вид: /);
    const badUrl = await upload(
      "POST",
      "/api/v1/admin/documents/",
      { title: "A", kind: "law", source_url: "javascript:alert(1)" },
      { name: "a.pdf", bytes: pdfBytes() },
    );
    expect(((await badUrl.json()) as { detail: string }).detail).toMatch(new RegExp(`^${fieldName("source_url")}: `));
    const noFile = await upload("POST", "/api/v1/admin/documents/", { title: "A", kind: "law" });
    expect(((await noFile.json()) as { detail: string }).detail).toMatch(/^file: /);
  });
});

describe("replace, edit, remove", () => {
  it("replaces a file: the old blob is deleted, the version moves on, a stale version is 409", async () => {
    const before = (await h.deps.repos.documents.get("fz-296"))!;
    const fresh = pdfBytes(5000, "new edition");
    const stale = await upload("PUT", "/api/v1/admin/documents/fz-296/file/", { version: "0" }, { name: "x.pdf", bytes: fresh });
    expect(stale.status).toBe(409);
    const res = await upload(
      "PUT",
      "/api/v1/admin/documents/fz-296/file/",
      { version: String(before.version) },
      { name: "ред. 2024.pdf", bytes: fresh },
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as Doc).version).toBe(before.version + 1);
    expect(await h.deps.blobs.get(before.file!.key)).toBeUndefined();
    const download = await h.request("/api/v1/documents/fz-296/download/", { token: staff.token });
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(fresh);
    const audit = (await (await h.request("/api/v1/admin/audit/?limit=1", { token: admin.token })).json()) as {
      results: Array<{ action: string; before: { file: { key: string } }; after: { file: { key: string } } }>;
    };
    expect(audit.results[0].action).toBe("document.replace");
    expect(audit.results[0].before.file.key).toBe(before.file!.key);
  });

  it("edits the metadata of a catalogue entry", async () => {
    const res = await h.request("/api/v1/admin/documents/gost-2939-63/", {
      method: "PATCH",
      token: admin.token,
      json: { title: "Газы. Условия для определения объема (ред.)", version: 0 },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await list()).find((d) => d.id === "gost-2939-63")!.title).toBe("Газы. Условия для определения объема (ред.)");
  });

  it("removes softly: hidden from /documents and its download, kept (and restorable) for admins", async () => {
    const remove = await h.request("/api/v1/admin/documents/fz-296/", { method: "PATCH", token: admin.token, json: { is_deleted: true } });
    expect(remove.status).toBe(200);
    expect((await list()).map((d) => d.id)).not.toContain("fz-296");
    expect((await h.request("/api/v1/documents/fz-296/download/", { token: staff.token })).status).toBe(404);
    const all = (await (await h.request("/api/v1/admin/documents/", { token: admin.token })).json()) as { results: Doc[] };
    expect(all.results.find((d) => d.id === "fz-296")).toMatchObject({ is_deleted: true });
    const key = (await h.deps.repos.documents.get("fz-296"))!.file!.key;
    expect(await h.deps.blobs.get(key)).toBeDefined();
    const audit = (await (await h.request("/api/v1/admin/audit/?limit=1", { token: admin.token })).json()) as {
      results: Array<{ action: string; before: { is_deleted: boolean }; after: { is_deleted: boolean } }>;
    };
    expect(audit.results[0]).toMatchObject({ action: "document.remove", before: { is_deleted: false }, after: { is_deleted: true } });
    await h.request("/api/v1/admin/documents/fz-296/", { method: "PATCH", token: admin.token, json: { is_deleted: false } });
    expect((await h.request("/api/v1/documents/fz-296/download/", { token: staff.token })).status).toBe(200);
  });
});
