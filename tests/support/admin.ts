// Helpers for tests of /admin: a signed-in platform operator, multipart bodies with their length
// (the upload routes read Content-Length), and small files with real magic bytes.
import { randomBytes } from "node:crypto";
import { createCompany, createUser } from "@server/domain/company/users";
import type { Harness } from "./harness";

export interface SignedIn {
  token: string;
  email: string;
  password: string;
  companyId: string;
  userId: string;
}

export async function signIn(h: Harness, email: string, password: string): Promise<Response> {
  return h.request("/api/token/", { method: "POST", json: { email, password, guardant_code: "" } });
}

/** The newest entry of the admin audit log. */
export async function lastAuditEntry<T = Record<string, unknown>>(h: Harness, adminToken: string): Promise<T> {
  const res = await h.request("/api/v1/admin/audit/?limit=1&offset=0", { token: adminToken });
  return ((await res.json()) as { results: T[] }).results[0];
}

export async function signedInAdmin(h: Harness, companyName?: string): Promise<SignedIn> {
  const suffix = randomBytes(3).toString("hex");
  const company = await createCompany(h.deps, { name: companyName ?? `Оператор платформы ${suffix}` });
  const email = `admin-${suffix}@example.com`;
  const password = "operator-password";
  const user = await createUser(h.deps, { companyId: company.id, email, password, role: "admin" });
  const res = await signIn(h, email, password);
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${await res.text()}`);
  const { access } = (await res.json()) as { access: string };
  return { token: access, email, password, companyId: company.id, userId: user.id };
}

/** A multipart body as bytes, with its Content-Type (boundary) and Content-Length headers. */
export async function multipart(
  fields: Record<string, string>,
  file?: { name: string; bytes: Uint8Array; type?: string },
): Promise<{ body: Uint8Array; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append("file", new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type ?? "application/pdf" }));
  const request = new Request("http://localhost/", { method: "POST", body: form });
  const body = new Uint8Array(await request.arrayBuffer());
  return { body, headers: { "Content-Type": request.headers.get("content-type")!, "Content-Length": String(body.byteLength) } };
}

const text = (s: string) => new TextEncoder().encode(s);

export function pdfBytes(size = 2048, marker = "test"): Uint8Array {
  const head = text(`%PDF-1.7\n% ${marker}\n`);
  const out = new Uint8Array(Math.max(size, head.byteLength));
  out.set(head);
  out.set(randomBytes(out.byteLength - head.byteLength), head.byteLength);
  return out;
}

/** An MP4: size, "ftyp", brand "isom", then arbitrary bytes. */
export function mp4Bytes(size = 4096): Uint8Array {
  const out = new Uint8Array(size);
  out.set(randomBytes(size));
  out.set([0x00, 0x00, 0x00, 0x18, ...text("ftypisom"), 0x00, 0x00, 0x02, 0x00]);
  return out;
}

/** A WebM: the EBML magic and a header naming the "webm" DocType. */
export function webmBytes(size = 4096): Uint8Array {
  const out = new Uint8Array(size);
  out.set(randomBytes(size));
  out.set([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84, ...text("webm")]);
  return out;
}

/** An admin dates the seeded GWP set AR5 (set 2, CH4 = 28) for one reporting year only, effective from its
 *  1 January (D41: an edit reaches reporting years from its effective_from on), through the
 *  coefficient API (D12): that year's calculations and inventory then take it. */
export async function dateAr5For(h: Harness, adminToken: string, year: number): Promise<void> {
  for (const [field, version] of [
    ["year_from", 1],
    ["year_to", 2],
  ] as const) {
    const res = await h.request("/api/v1/admin/dictionary/get_gwp/2/", {
      method: "PATCH",
      token: adminToken,
      json: { field, value: year, effective_from: `${year}-01-01`, reason: `Набор для ${year} года`, version },
    });
    if (res.status !== 200) throw new Error(`dating AR5 for ${year}: ${res.status} ${await res.text()}`);
  }
}
