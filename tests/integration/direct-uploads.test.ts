// Direct-to-storage admin uploads (functions/src/http/UPLOADS.md): POST …/upload-url/ → PUT the file
// to the answered url → POST …/complete/. On the local host the url is the API's own
// PUT /api/v1/uploads/?token=…; with a store that presigns (S3 in AWS, a stand-in here) it is the
// store's, and downloads and playback are presigned GETs too.
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { lastAuditEntry, mp4Bytes, pdfBytes, signIn, signedInAdmin, webmBytes, type SignedIn } from "../support/admin";
import type { BlobStore } from "@server/ports";
import { sweepAbandonedUploads } from "@server/domain/files/direct-uploads";
import { fieldName } from "@server/contract/field-names";

const PDF_MAX = 64 * 1024;
const VIDEO_MAX = 256 * 1024;
const HOUR = 60 * 60 * 1000;

let h: Harness;
let admin: SignedIn;
let otherAdmin: SignedIn;
let staff: Awaited<ReturnType<Harness["signedInUser"]>>;
let now = Date.now();
const clock = { now: () => new Date(now) };

beforeAll(async () => {
  h = await createHarness({ documentMaxBytes: PDF_MAX, videoMaxBytes: VIDEO_MAX }, clock);
  admin = await signedInAdmin(h);
  otherAdmin = await signedInAdmin(h);
  staff = await h.signedInUser();
});
afterAll(() => h.close());

interface Grant {
  url: string;
  method: "PUT";
  headers: Record<string, string>;
  upload_id: string;
  expires_at: string;
}

interface Doc {
  id: string;
  title: string;
  file: { name: string; size: number } | null;
  download_url: string | null;
  version: number;
}

interface Status {
  kind: string;
  url: string | null;
  content_type: string | null;
  size: number | null;
  expires_at: string | null;
}

const post = (path: string, json: unknown, token = admin.token) => h.request(path, { method: "POST", token, json });

async function grant(path: string, json: unknown, token = admin.token): Promise<Grant> {
  const res = await post(path, json, token);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Grant;
}

/** What the browser does with a grant: PUT the bytes to the url with exactly the given headers. */
function putFile(g: Grant, bytes: Uint8Array, headers: Record<string, string> = g.headers) {
  return h.request(g.url, {
    method: g.method,
    headers: { ...headers, "Content-Length": String(bytes.byteLength) },
    body: bytes as NonNullable<RequestInit["body"]>,
  });
}

const keyOf = (g: Grant) => decodeJwt(g.upload_id).key as string;
const stored = (key: string) => h.deps.blobs.stat!(key);

const lastAudit = () =>
  lastAuditEntry<{ action: string; target_id: string; before: unknown; after: Record<string, unknown> }>(h, admin.token);

describe("a new document on the local host", () => {
  const pdf = pdfBytes(40_000, "МР-2");
  let g: Grant;
  let doc: Doc;

  it("grants a same-origin upload URL for a declared PDF", async () => {
    g = await grant("/api/v1/admin/documents/upload-url/", { content_type: "application/pdf", size: pdf.byteLength, name: "МР-2.pdf" });
    expect(g.method).toBe("PUT");
    expect(g.url).toMatch(/^\/api\/v1\/uploads\/\?token=[\w.-]+$/);
    expect(g.headers).toEqual({ "Content-Type": "application/pdf" });
    expect(Date.parse(g.expires_at)).toBe((decodeJwt(g.upload_id).iat! + 60 * 60) * 1000);
    const claims = decodeJwt(g.upload_id);
    expect(claims).toMatchObject({
      typ: "upload",
      aud: "upload",
      purpose: "document",
      create: true,
      content_type: "application/pdf",
      max: PDF_MAX,
      sub: admin.userId,
    });
    expect(claims.key).toMatch(/^documents\/[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("takes the PUT without a bearer header (the token is the credential), streamed to storage", async () => {
    const res = await putFile(g, pdf);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ detail: "Файл загружен", size: pdf.byteLength });
    expect(await stored(keyOf(g))).toEqual({ size: pdf.byteLength, contentType: "application/pdf" });
    // Written once: a URL that is still valid cannot overwrite what was uploaded (If-None-Match in S3).
    expect((await putFile(g, pdfBytes(pdf.byteLength))).status).toBe(409);
  });

  it("completes: the document is created with the audit entry, and downloads as uploaded", async () => {
    const res = await post("/api/v1/admin/documents/complete/", {
      upload_id: g.upload_id,
      title: "Методические рекомендации по дегазации",
      number: "МР-2",
      kind: "guidelines",
    });
    expect(res.status, await res.clone().text()).toBe(201);
    doc = (await res.json()) as Doc;
    expect(doc).toMatchObject({
      title: "Методические рекомендации по дегазации",
      version: 1,
      file: { name: "МР-2.pdf", size: pdf.byteLength },
    });
    expect(doc.id).toBe(decodeJwt(g.upload_id).document);
    expect((await h.deps.repos.documents.get(doc.id))!.file!.key).toBe(keyOf(g));
    expect(await lastAudit()).toMatchObject({
      action: "document.create",
      target_id: doc.id,
      before: null,
      after: { file: { key: keyOf(g) } },
    });

    const download = await h.request(doc.download_url!, { token: staff.token });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(download.headers.get("content-length")).toBe(String(pdf.byteLength));
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(pdf);
  });

  it("answers the same document when completed again, and keeps the file", async () => {
    const again = await post("/api/v1/admin/documents/complete/", { upload_id: g.upload_id, title: "Другое", kind: "law" });
    expect(again.status).toBe(200);
    expect(((await again.json()) as Doc).title).toBe("Методические рекомендации по дегазации");
    expect(await stored(keyOf(g))).toBeDefined();
    expect((await lastAudit()).action).toBe("document.create");
  });

  it("needs the metadata of a new document: 400 naming the field, the upload deleted", async () => {
    const other = await grant("/api/v1/admin/documents/upload-url/", { content_type: "application/pdf", size: 3000 });
    expect((await putFile(other, pdfBytes(3000))).status).toBe(200);
    const res = await post("/api/v1/admin/documents/complete/", { upload_id: other.upload_id, kind: "law" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(new RegExp(`^${fieldName("title")}: `));
    expect(await stored(keyOf(other))).toBeUndefined();
  });
});

describe("the same upload completed twice at once (a double click, a retry)", () => {
  it("registers the file once and keeps it; both calls succeed", async () => {
    const video = mp4Bytes(20_000);
    const before = await h.deps.repos.media.get("presentation");
    const v = await grant("/api/v1/admin/media/upload-url/", { kind: "presentation", content_type: "video/mp4", size: video.byteLength });
    expect((await putFile(v, video)).status).toBe(200);
    const answers = await Promise.all([0, 1, 2].map(() => post("/api/v1/admin/media/complete/", { upload_id: v.upload_id })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await h.deps.repos.media.get("presentation")).toMatchObject({ key: keyOf(v), version: (before?.version ?? 0) + 1 });
    expect(await stored(keyOf(v))).toEqual({ size: 20_000, contentType: "video/mp4" });

    const pdf = pdfBytes(4000);
    const d = await grant("/api/v1/admin/documents/upload-url/", { content_type: "application/pdf", size: pdf.byteLength });
    expect((await putFile(d, pdf)).status).toBe(200);
    const docs = await Promise.all(
      [0, 1, 2].map(() => post("/api/v1/admin/documents/complete/", { upload_id: d.upload_id, title: "Дважды", kind: "law" })),
    );
    expect(docs.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    expect((await h.deps.repos.documents.get(decodeJwt(d.upload_id).document as string))!.file!.key).toBe(keyOf(d));
    expect(await stored(keyOf(d))).toBeDefined();

    // Removed again: the tests below expect no live presentation video.
    expect((await h.request("/api/v1/admin/media/presentation/", { method: "DELETE", token: admin.token })).status).toBe(200);
  });
});

describe("replacing a document's PDF", () => {
  it("attaches and then replaces a catalogue document's file; the replaced file is deleted", async () => {
    const first = pdfBytes(5000, "первый");
    const g1 = await grant("/api/v1/admin/documents/upload-url/", {
      document: "fz-296",
      version: 0,
      content_type: "application/pdf",
      size: first.byteLength,
      name: "296-ФЗ.pdf",
    });
    expect(decodeJwt(g1.upload_id)).toMatchObject({ document: "fz-296", create: false });
    expect((await putFile(g1, first)).status).toBe(200);
    const done = await post("/api/v1/admin/documents/complete/", { upload_id: g1.upload_id, version: 0 });
    expect(done.status, await done.clone().text()).toBe(200);
    expect(await done.json()).toMatchObject({ id: "fz-296", version: 1, file: { name: "296-ФЗ.pdf", size: 5000 } });
    expect((await lastAudit()).action).toBe("document.upload");

    // A stale version is refused before the file travels.
    const stale = await post("/api/v1/admin/documents/upload-url/", {
      document: "fz-296",
      version: 0,
      content_type: "application/pdf",
      size: 10,
    });
    expect(stale.status).toBe(409);

    const second = pdfBytes(6000, "второй");
    const g2 = await grant("/api/v1/admin/documents/upload-url/", {
      document: "fz-296",
      version: 1,
      content_type: "application/pdf",
      size: second.byteLength,
      name: "296-ФЗ (ред.).pdf",
    });
    expect((await putFile(g2, second)).status).toBe(200);
    const replaced = await post("/api/v1/admin/documents/complete/", { upload_id: g2.upload_id, version: 1 });
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toMatchObject({ version: 2, file: { size: 6000 } });
    expect((await lastAudit()).action).toBe("document.replace");
    expect(await stored(keyOf(g1))).toBeUndefined();
    const download = await h.request("/api/v1/documents/fz-296/download/", { token: staff.token });
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(second);

    // Completing the first upload again now: its file is gone, nothing changes.
    const replay = await post("/api/v1/admin/documents/complete/", { upload_id: g1.upload_id, version: 2 });
    expect(replay.status).toBe(400);
    expect((await h.deps.repos.documents.get("fz-296"))!.version).toBe(2);
  });

  it("refuses a document that does not exist", async () => {
    const res = await post("/api/v1/admin/documents/upload-url/", { document: "no-such", content_type: "application/pdf", size: 10 });
    expect(res.status).toBe(404);
  });
});

describe("a settings video on the local host", () => {
  const video = mp4Bytes(120_000);

  it("uploads, completes and plays with byte ranges", async () => {
    const g = await grant("/api/v1/admin/media/upload-url/", {
      kind: "instruction",
      content_type: "video/mp4",
      size: video.byteLength,
      name: "Инструкция.mp4",
    });
    expect(keyOf(g)).toMatch(/^media\/instruction\/[0-9a-f-]{36}$/);
    expect((await putFile(g, video)).status).toBe(200);
    const res = await post("/api/v1/admin/media/complete/", { upload_id: g.upload_id });
    expect(res.status, await res.clone().text()).toBe(200);
    const status = (await res.json()) as Status;
    expect(status).toMatchObject({ kind: "instruction", content_type: "video/mp4", size: 120_000 });
    expect(status.url).toMatch(/^\/api\/v1\/media\/instruction\/\?v=1&token=/);
    expect(await h.deps.repos.media.get("instruction")).toMatchObject({ key: keyOf(g), name: "Инструкция.mp4", uploaded_by: admin.email });
    expect(await lastAudit()).toMatchObject({ action: "media.upload", target_id: "instruction", before: null });

    const whole = await h.request(status.url!);
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(video);
    const part = await h.request(status.url!, { headers: { Range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(video.subarray(100, 200));
  });

  it("replaces it with a WebM: the old file goes", async () => {
    const before = (await h.deps.repos.media.get("instruction"))!;
    const webm = webmBytes(30_000);
    const g = await grant("/api/v1/admin/media/upload-url/", { kind: "instruction", content_type: "video/webm", size: webm.byteLength });
    expect((await putFile(g, webm)).status).toBe(200);
    expect((await post("/api/v1/admin/media/complete/", { upload_id: g.upload_id })).status).toBe(200);
    expect(await h.deps.repos.media.get("instruction")).toMatchObject({ version: 2, content_type: "video/webm", size: 30_000 });
    expect(await stored(before.key)).toBeUndefined();
    expect((await lastAudit()).action).toBe("media.replace");
  });
});

describe("checks when the upload is granted", () => {
  it("refuses a wrong declared type with 415, too large with 413, empty with 400, an unknown kind with 404", async () => {
    const cases: Array<[string, unknown, number, RegExp]> = [
      ["/api/v1/admin/documents/upload-url/", { content_type: "text/html", size: 10 }, 415, /PDF/],
      ["/api/v1/admin/documents/upload-url/", { content_type: "application/pdf", size: PDF_MAX + 1 }, 413, /^Файл больше 64 КБ$/],
      ["/api/v1/admin/documents/upload-url/", { content_type: "application/pdf", size: 0 }, 400, /пуст/],
      ["/api/v1/admin/media/upload-url/", { kind: "instruction", content_type: "video/quicktime", size: 10 }, 415, /MP4 или WebM/],
      [
        "/api/v1/admin/media/upload-url/",
        { kind: "instruction", content_type: "video/mp4", size: VIDEO_MAX + 1 },
        413,
        /^Файл больше 256 КБ$/,
      ],
      ["/api/v1/admin/media/upload-url/", { kind: "trailer", content_type: "video/mp4", size: 10 }, 404, /не найдено/],
      ["/api/v1/admin/media/upload-url/", { kind: "instruction", content_type: "video/mp4", size: 1.5 }, 400, /^Размер: /],
      ["/api/v1/admin/media/upload-url/", { kind: "instruction", content_type: "video/mp4" }, 400, /^Размер: /],
    ];
    for (const [path, body, status, detail] of cases) {
      const res = await post(path, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(((await res.json()) as { detail: string }).detail, JSON.stringify(body)).toMatch(detail);
    }
  });

  it("answers 403 to staff on every upload route", async () => {
    for (const [path, body] of [
      ["/api/v1/admin/documents/upload-url/", { content_type: "application/pdf", size: 10 }],
      ["/api/v1/admin/documents/complete/", { upload_id: "x", title: "x", kind: "law" }],
      ["/api/v1/admin/media/upload-url/", { kind: "instruction", content_type: "video/mp4", size: 10 }],
      ["/api/v1/admin/media/complete/", { upload_id: "x" }],
    ] as const) {
      expect((await post(path, body, staff.token)).status, path).toBe(403);
    }
  });
});

describe("checks of what was stored, on completion", () => {
  it("refuses a body that is not what was declared (415) and deletes it", async () => {
    const text = new TextEncoder().encode("<html><script>alert(1)</script> not a PDF at all, just pretending to be one");
    const g = await grant("/api/v1/admin/documents/upload-url/", { content_type: "application/pdf", size: text.byteLength });
    expect((await putFile(g, text)).status).toBe(200);
    const res = await post("/api/v1/admin/documents/complete/", { upload_id: g.upload_id, title: "Подделка", kind: "law" });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ detail: "Ожидается файл PDF" });
    expect(await stored(keyOf(g))).toBeUndefined();
    expect(await h.deps.repos.documents.get(decodeJwt(g.upload_id).document as string)).toBeUndefined();

    const webm = webmBytes(5000);
    const v = await grant("/api/v1/admin/media/upload-url/", { kind: "presentation", content_type: "video/mp4", size: webm.byteLength });
    expect((await putFile(v, webm)).status).toBe(200);
    const mismatch = await post("/api/v1/admin/media/complete/", { upload_id: v.upload_id });
    expect(mismatch.status).toBe(415);
    expect(((await mismatch.json()) as { detail: string }).detail).toBe("Содержимое файла — video/webm, а заявлено video/mp4");
    expect(await stored(keyOf(v))).toBeUndefined();
    expect(await h.deps.repos.media.get("presentation")).toMatchObject({ is_deleted: true });
  });

  it("refuses an object over the limit (413) and deletes it: a presigned PUT cannot bound the size", async () => {
    const g = await grant("/api/v1/admin/media/upload-url/", { kind: "presentation", content_type: "video/mp4", size: 1000 });
    // What S3 would accept from a client that declared 1000 bytes and sent more than the limit.
    await h.deps.blobs.put(keyOf(g), mp4Bytes(VIDEO_MAX + 1), "video/mp4");
    const res = await post("/api/v1/admin/media/complete/", { upload_id: g.upload_id });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: "Файл больше 256 КБ" });
    expect(await stored(keyOf(g))).toBeUndefined();
    expect(await h.deps.repos.media.get("presentation")).toMatchObject({ is_deleted: true });
  });

  it("caps the local PUT at the granted limit and keeps nothing of an oversized body", async () => {
    const g = await grant("/api/v1/admin/documents/upload-url/", { content_type: "application/pdf", size: 1000 });
    const declared = await putFile(g, pdfBytes(PDF_MAX + 10));
    expect(declared.status).toBe(413);
    // A body larger than its Content-Length claims: the streamed count stops it.
    const lying = await h.request(g.url, {
      method: "PUT",
      headers: { "Content-Type": "application/pdf", "Content-Length": "1000" },
      body: pdfBytes(PDF_MAX + 10) as NonNullable<RequestInit["body"]>,
    });
    expect(lying.status).toBe(413);
    expect(await stored(keyOf(g))).toBeUndefined();
  });

  it("writes a granted key once even when two PUTs race: one 200, one 409, the first file intact", async () => {
    const first = pdfBytes(30_000, "первый");
    const second = pdfBytes(30_000, "второй");
    const g = await grant("/api/v1/admin/documents/upload-url/", { content_type: "application/pdf", size: first.byteLength });
    const answers = await Promise.all([putFile(g, first), putFile(g, second)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = answers[0].status === 200 ? first : second;
    expect((await h.deps.blobs.get(keyOf(g)))!.body).toEqual(winner);
  });

  it("refuses a completion before any upload (400) and a PUT of another type (415)", async () => {
    const g = await grant("/api/v1/admin/documents/upload-url/", { content_type: "application/pdf", size: 2048 });
    const early = await post("/api/v1/admin/documents/complete/", { upload_id: g.upload_id, title: "Рано", kind: "law" });
    expect(early.status).toBe(400);
    expect(((await early.json()) as { detail: string }).detail).toBe(`${fieldName("upload_id")}: файл не загружен в хранилище`);
    const wrongType = await putFile(g, pdfBytes(2048), { "Content-Type": "text/plain" });
    expect(wrongType.status).toBe(415);
    expect(await stored(keyOf(g))).toBeUndefined();
  });
});

describe("the upload_id", () => {
  async function uploaded(kind: "document" | "media") {
    const g =
      kind === "document"
        ? await grant("/api/v1/admin/documents/upload-url/", { content_type: "application/pdf", size: 2048 })
        : await grant("/api/v1/admin/media/upload-url/", { kind: "presentation", content_type: "video/mp4", size: 4096 });
    expect((await putFile(g, kind === "document" ? pdfBytes(2048) : mp4Bytes(4096))).status).toBe(200);
    return g;
  }

  it("of another kind of upload is refused, and the object is left alone", async () => {
    const doc = await uploaded("document");
    const video = await uploaded("media");
    const a = await post("/api/v1/admin/media/complete/", { upload_id: doc.upload_id });
    expect(a.status).toBe(400);
    expect(((await a.json()) as { detail: string }).detail).toBe(`${fieldName("upload_id")}: недействительный идентификатор загрузки`);
    const b = await post("/api/v1/admin/documents/complete/", { upload_id: video.upload_id, title: "x", kind: "law" });
    expect(b.status).toBe(400);
    expect(await stored(keyOf(doc))).toBeDefined();
    expect(await stored(keyOf(video))).toBeDefined();
  });

  it("naming another key (altered) or not a token at all is refused", async () => {
    const doc = await uploaded("document");
    const [header, , signature] = doc.upload_id.split(".");
    const claims = { ...decodeJwt(doc.upload_id), key: "documents/00000000-0000-7000-8000-000000000000" };
    const forged = [header, Buffer.from(JSON.stringify(claims)).toString("base64url"), signature].join(".");
    for (const upload_id of [forged, "not-a-token", doc.upload_id.slice(0, -3) + "abc"]) {
      const res = await post("/api/v1/admin/documents/complete/", { upload_id, title: "x", kind: "law" });
      expect(res.status, upload_id).toBe(400);
    }
    // A token signed with another algorithm ("none") is not accepted either.
    const unsigned = [Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url"), forged.split(".")[1], ""].join(".");
    expect((await post("/api/v1/admin/documents/complete/", { upload_id: unsigned, title: "x", kind: "law" })).status).toBe(400);
    expect((await putFile({ ...doc, url: `/api/v1/uploads/?token=${unsigned}` }, pdfBytes(100))).status).toBe(401);
  });

  it("issued to another admin is refused", async () => {
    const doc = await uploaded("document");
    const res = await post("/api/v1/admin/documents/complete/", { upload_id: doc.upload_id, title: "x", kind: "law" }, otherAdmin.token);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toBe(`${fieldName("upload_id")}: загрузка начата другим пользователем`);
    expect(await stored(keyOf(doc))).toBeDefined();
  });

  it("expires: the upload URL after an hour (401), the upload_id after two (400)", async () => {
    const late = await grant("/api/v1/admin/documents/upload-url/", { content_type: "application/pdf", size: 2048 });
    const doc = await uploaded("document");
    now += HOUR + 60_000;
    // The access token (15 minutes) has expired meanwhile: the admin signs in again.
    const fresh = async () => ((await (await signIn(h, admin.email, admin.password)).json()) as { access: string }).access;
    const original = admin.token;
    admin.token = await fresh();
    try {
      const put = await putFile(late, pdfBytes(2048));
      expect(put.status).toBe(401);
      expect(await put.json()).toEqual({ detail: "Адрес загрузки устарел: загрузите файл заново", code: "upload_token" });
      // A transfer that began in time may still be completed within the upload_id's life.
      const completed = await post("/api/v1/admin/documents/complete/", {
        upload_id: doc.upload_id,
        title: "Поздно, но вовремя",
        kind: "law",
      });
      expect(completed.status).toBe(201);
      const other = await grant("/api/v1/admin/documents/upload-url/", { content_type: "application/pdf", size: 2048 });
      expect((await putFile(other, pdfBytes(2048))).status).toBe(200);
      now += 2 * HOUR + 60_000;
      admin.token = await fresh();
      const expired = await post("/api/v1/admin/documents/complete/", { upload_id: other.upload_id, title: "x", kind: "law" });
      expect(expired.status).toBe(400);
      expect(((await expired.json()) as { detail: string }).detail).toBe(
        `${fieldName("upload_id")}: срок загрузки истек, загрузите файл заново`,
      );
    } finally {
      now = Date.now();
      admin.token = original;
    }
  });

  it("is needed by the upload route: none, or a bearer token instead, is 401", async () => {
    const res = await h.request("/api/v1/uploads/", {
      method: "PUT",
      headers: { "Content-Type": "application/pdf", "Content-Length": "100" },
      body: pdfBytes(100) as NonNullable<RequestInit["body"]>,
    });
    expect(res.status).toBe(401);
    const bearer = await h.request(`/api/v1/uploads/?token=${admin.token}`, {
      method: "PUT",
      headers: { "Content-Type": "application/pdf", "Content-Length": "100" },
      body: pdfBytes(100) as NonNullable<RequestInit["body"]>,
    });
    expect(bearer.status).toBe(401);
  });
});

describe("abandoned uploads: granted and PUT, never completed", () => {
  it("are deleted once pending for a day on the local host; completed ones stay", async () => {
    const pdf = pdfBytes(3000);
    const abandoned = await grant("/api/v1/admin/documents/upload-url/", { content_type: "application/pdf", size: pdf.byteLength });
    expect((await putFile(abandoned, pdf)).status).toBe(200);
    const video = mp4Bytes(5000);
    const abandonedVideo = await grant("/api/v1/admin/media/upload-url/", {
      kind: "presentation",
      content_type: "video/mp4",
      size: video.byteLength,
    });
    expect((await putFile(abandonedVideo, video)).status).toBe(200);
    const completed = await grant("/api/v1/admin/documents/upload-url/", { content_type: "application/pdf", size: pdf.byteLength });
    expect((await putFile(completed, pdf)).status).toBe(200);
    const done = await post("/api/v1/admin/documents/complete/", {
      upload_id: completed.upload_id,
      title: "Завершенная загрузка",
      kind: "law",
    });
    expect(done.status).toBe(201);
    const instruction = (await h.deps.repos.media.get("instruction"))!;
    const replacedDocument = (await h.deps.repos.documents.get("fz-296"))!;

    // While an upload could still be completed, nothing goes.
    expect(await sweepAbandonedUploads(h.deps)).toEqual([]);
    expect(await stored(keyOf(abandoned))).toBeDefined();

    now += 24 * HOUR + 60_000;
    try {
      const swept = await sweepAbandonedUploads(h.deps);
      expect(swept).toEqual(expect.arrayContaining([keyOf(abandoned), keyOf(abandonedVideo)]));
      expect(swept.every((key) => /^(documents|media)\//.test(key))).toBe(true);
      expect(await stored(keyOf(abandoned))).toBeUndefined();
      expect(await stored(keyOf(abandonedVideo))).toBeUndefined();
      // Completed uploads (confirmed on completion) stay, however old.
      for (const key of [keyOf(completed), instruction.key, replacedDocument.file!.key]) {
        expect(swept).not.toContain(key);
        expect(await stored(key), key).toBeDefined();
      }
      expect(await sweepAbandonedUploads(h.deps)).toEqual([]);
    } finally {
      now = Date.now();
    }
  });
});

describe("with a store that presigns (S3 in AWS)", () => {
  let local: BlobStore;
  const presigned: string[] = [];

  beforeAll(() => {
    local = h.deps.blobs;
    // The fs store plus what only S3 has; the browser's PUT to S3 is the test writing the object.
    h.deps.blobs = {
      ...local,
      async uploadUrl(key, contentType, _max, seconds) {
        presigned.push(`PUT ${key} ${seconds}`);
        return {
          url: `https://docs.s3.eu-central-1.amazonaws.com/${key}?X-Amz-Expires=${seconds}`,
          method: "PUT",
          headers: { "Content-Type": contentType, "If-None-Match": "*" },
        };
      },
      async downloadUrl(key, fileName, seconds, disposition = "attachment") {
        presigned.push(`GET ${key} ${disposition}`);
        return `https://docs.s3.eu-central-1.amazonaws.com/${key}?X-Amz-Expires=${seconds}&name=${encodeURIComponent(fileName)}`;
      },
    };
  });
  afterAll(() => {
    h.deps.blobs = local;
  });

  it("grants the store's URL, completes what arrived there, and serves downloads and playback as presigned GETs", async () => {
    const pdf = pdfBytes(9000);
    const g = await grant("/api/v1/admin/documents/upload-url/", { content_type: "application/pdf", size: pdf.byteLength, name: "x.pdf" });
    expect(g.url).toBe(`https://docs.s3.eu-central-1.amazonaws.com/${keyOf(g)}?X-Amz-Expires=3600`);
    expect(g.headers).toEqual({ "Content-Type": "application/pdf", "If-None-Match": "*" });
    // The API's own upload route is not used in AWS.
    expect((await putFile({ ...g, url: `/api/v1/uploads/?token=${g.upload_id}` }, pdf, { "Content-Type": "application/pdf" })).status).toBe(
      404,
    );
    await local.put(keyOf(g), pdf, "application/pdf");
    const done = await post("/api/v1/admin/documents/complete/", { upload_id: g.upload_id, title: "Из S3", number: "S3-1", kind: "order" });
    expect(done.status).toBe(201);
    const doc = (await done.json()) as Doc;

    const download = await h.request(doc.download_url!, { token: staff.token });
    expect(download.status).toBe(200);
    expect(download.headers.get("cache-control")).toBe("no-store");
    expect(await download.json()).toEqual({
      download_url: `https://docs.s3.eu-central-1.amazonaws.com/${keyOf(g)}?X-Amz-Expires=300&name=${encodeURIComponent("S3-1 Из S3.pdf")}`,
      file_name: "S3-1 Из S3.pdf",
    });

    const video = mp4Bytes(8000);
    const v = await grant("/api/v1/admin/media/upload-url/", {
      kind: "presentation",
      content_type: "video/mp4",
      size: video.byteLength,
      name: "Презентация.mp4",
    });
    await local.put(keyOf(v), video, "video/mp4");
    const status = (await (await post("/api/v1/admin/media/complete/", { upload_id: v.upload_id })).json()) as Status;
    expect(status.url).toBe(
      `https://docs.s3.eu-central-1.amazonaws.com/${keyOf(v)}?X-Amz-Expires=600&name=${encodeURIComponent("Презентация.mp4")}`,
    );
    expect(Date.parse(status.expires_at!) - now).toBe(600_000);
    expect(presigned).toContain(`GET ${keyOf(v)} inline`);
    expect(presigned).toContain(`GET ${keyOf(g)} attachment`);
  });
});
