// A forecast's or a calibration's history sent straight to storage, as the browser sends it
// (docs/api.md, «Large histories»): POST v1/forecast/upload-url/, then the bytes PUT to the answered
// url with exactly its headers and no bearer; the form then names the key (file_upload).
import { expect } from "vitest";
import type { Harness } from "./harness";

export interface ForecastUploadGrant {
  url: string;
  method: "PUT";
  headers: Record<string, string>;
  upload_id: string;
  expires_at: string;
  file_upload: string;
}

/** The grant of an upload of `bytes` (its declared type and size), checked to be a 200. */
export async function grantForecastUpload(
  h: Harness,
  token: string,
  bytes: Uint8Array,
  name = "телеметрия.csv",
  contentType = "text/csv",
): Promise<ForecastUploadGrant> {
  const res = await h.request("/api/v1/forecast/upload-url/", {
    method: "POST",
    token,
    json: { content_type: contentType, size: bytes.byteLength, name },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as ForecastUploadGrant;
}

/** What the browser does with a grant: PUT the bytes with exactly the given headers, no bearer. */
export function putGranted(h: Harness, g: ForecastUploadGrant, bytes: Uint8Array): Promise<Response> {
  return h.request(g.url, {
    method: g.method,
    headers: { ...g.headers, "Content-Length": String(bytes.byteLength) },
    body: bytes as NonNullable<RequestInit["body"]>,
  });
}

/** `bytes` granted and PUT: the key a form names. */
export async function forecastUploaded(h: Harness, token: string, bytes: Uint8Array, name?: string): Promise<string> {
  const g = await grantForecastUpload(h, token, bytes, name);
  const res = await putGranted(h, g, bytes);
  expect(res.status, await res.clone().text()).toBe(200);
  return g.file_upload;
}
