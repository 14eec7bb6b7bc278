// Settings videos: streamed upload with type and size checks (/api/v1/admin/media/{kind}/), and
// playback through short-lived signed URLs with byte ranges (/api/v1/media/{kind}/?token=…).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";
import { mp4Bytes, signedInAdmin, webmBytes, type SignedIn } from "../support/admin";

const MAX = 256 * 1024;

let h: Harness;
let admin: SignedIn;
let staff: Awaited<ReturnType<Harness["signedInUser"]>>;
let now = Date.now();
const clock = { now: () => new Date(now) };

beforeAll(async () => {
  h = await createHarness({ videoMaxBytes: MAX }, clock);
  admin = await signedInAdmin(h);
  staff = await h.signedInUser();
});
afterAll(() => h.close());

interface Status {
  kind: string;
  label: string;
  url: string | null;
  content_type: string | null;
  size: number | null;
}

function put(kind: string, body: Uint8Array | ReadableStream<Uint8Array>, type = "video/mp4", length?: number, token = admin.token) {
  const headers: Record<string, string> = { "Content-Type": type };
  const declared = length ?? (body instanceof Uint8Array ? body.byteLength : undefined);
  if (declared !== undefined) headers["Content-Length"] = String(declared);
  return h.request(`/api/v1/admin/media/${kind}/`, {
    method: "PUT",
    token,
    headers: { ...headers, "X-File-Name": encodeURIComponent("Инструкция.mp4") },
    body: body as NonNullable<RequestInit["body"]>,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit & { token: string });
}

async function statuses(token = staff.token): Promise<Status[]> {
  const res = await h.request("/api/v1/media/", { token });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: Status[] }).results;
}

describe("before anything is uploaded", () => {
  it("lists both videos without URLs («Видео не загружено»)", async () => {
    expect(await statuses()).toEqual([
      expect.objectContaining({ kind: "instruction", label: "Видеоинструкция", url: null }),
      expect.objectContaining({ kind: "presentation", label: "Презентация", url: null }),
    ]);
    expect((await h.request("/api/v1/media/")).status).toBe(401);
  });
});

describe("upload and playback", () => {
  const video = mp4Bytes(100_000);
  let url: string;

  it("stores an MP4 streamed in as the request body", async () => {
    const res = await put("instruction", video);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ kind: "instruction", content_type: "video/mp4", size: 100_000 });
    const item = (await h.deps.repos.media.get("instruction"))!;
    expect(item.key).toMatch(/^media\/instruction\/[0-9a-f-]{36}$/);
    expect(item).toMatchObject({ name: "Инструкция.mp4", version: 1, uploaded_by: admin.email });
    const audit = (await (await h.request("/api/v1/admin/audit/?limit=1", { token: admin.token })).json()) as {
      results: Array<{ action: string; before: unknown; after: { size: number } }>;
    };
    expect(audit.results[0]).toMatchObject({ action: "media.upload", before: null, after: { size: 100_000 } });
  });

  it("gives any signed-in user a signed same-origin URL that needs no bearer header", async () => {
    const instruction = (await statuses()).find((s) => s.kind === "instruction")!;
    expect(instruction.url).toMatch(/^\/api\/v1\/media\/instruction\/\?v=1&token=[\w.-]+$/);
    url = instruction.url!;
    const res = await h.request(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("video/mp4");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("content-length")).toBe("100000");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(video);
  });

  it("serves byte ranges for seeking", async () => {
    const middle = await h.request(url, { headers: { Range: "bytes=1000-1999" } });
    expect(middle.status).toBe(206);
    expect(middle.headers.get("content-range")).toBe("bytes 1000-1999/100000");
    expect(middle.headers.get("content-length")).toBe("1000");
    expect(new Uint8Array(await middle.arrayBuffer())).toEqual(video.subarray(1000, 2000));

    const open = await h.request(url, { headers: { Range: "bytes=99990-" } });
    expect(open.status).toBe(206);
    expect(new Uint8Array(await open.arrayBuffer())).toEqual(video.subarray(99_990));

    const suffix = await h.request(url, { headers: { Range: "bytes=-10" } });
    expect(suffix.headers.get("content-range")).toBe("bytes 99990-99999/100000");

    const beyond = await h.request(url, { headers: { Range: "bytes=100000-" } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe("bytes */100000");

    const past = await h.request(url, { headers: { Range: "bytes=99000-200000" } });
    expect(past.headers.get("content-range")).toBe("bytes 99000-99999/100000");
  });

  it("refuses a missing, altered, other-kind or expired token with 401", async () => {
    expect((await h.request("/api/v1/media/instruction/")).status).toBe(401);
    const token = new URL(url, "http://x").searchParams.get("token")!;
    const altered = token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA");
    expect((await h.request(`/api/v1/media/instruction/?token=${altered}`)).status).toBe(401);
    expect((await h.request(`/api/v1/media/presentation/?token=${token}`)).status).toBe(401);
    // An access token is not a media token.
    expect((await h.request(`/api/v1/media/instruction/?token=${staff.token}`)).status).toBe(401);
    expect((await h.request(`/api/v1/media/nothing/?token=${token}`)).status).toBe(404);
    now += 11 * 60 * 1000;
    try {
      const expired = await h.request(url);
      expect(expired.status).toBe(401);
      expect(((await expired.json()) as { detail: string }).detail).toMatch(/устарела/);
    } finally {
      now -= 11 * 60 * 1000;
    }
  });

  it("replaces the video: the old file goes, old URLs still work until they expire", async () => {
    const before = (await h.deps.repos.media.get("instruction"))!;
    const webm = webmBytes(50_000);
    const res = await put("instruction", webm, "video/webm");
    expect(res.status, await res.clone().text()).toBe(200);
    const after = (await h.deps.repos.media.get("instruction"))!;
    expect(after).toMatchObject({ version: 2, content_type: "video/webm", size: 50_000 });
    expect(await h.deps.blobs.get(before.key)).toBeUndefined();
    const played = await h.request(url);
    expect(played.headers.get("content-type")).toBe("video/webm");
    expect(new Uint8Array(await played.arrayBuffer())).toEqual(webm);
  });

  it("removes the video: the page shows «Видео не загружено» again", async () => {
    const res = await h.request("/api/v1/admin/media/instruction/", { method: "DELETE", token: admin.token });
    expect(res.status).toBe(200);
    expect((await statuses()).find((s) => s.kind === "instruction")!.url).toBeNull();
    expect((await h.request(url)).status).toBe(404);
    expect((await h.request("/api/v1/admin/media/instruction/", { method: "DELETE", token: admin.token })).status).toBe(404);
  });
});

describe("checks", () => {
  it("refuses what is not MP4 or WebM with 415: declared type, content, or the two disagreeing", async () => {
    expect((await put("presentation", mp4Bytes(), "image/png")).status).toBe(415);
    const text = new TextEncoder().encode("just some text pretending to be a video, long enough to sniff it properly....");
    const notVideo = await put("presentation", text, "video/mp4");
    expect(notVideo.status).toBe(415);
    expect(((await notVideo.json()) as { detail: string }).detail).toBe("Файл не является видео MP4 или WebM");
    expect((await put("presentation", webmBytes(), "video/mp4")).status).toBe(415);
    expect(await h.deps.repos.media.get("presentation")).toBeUndefined();
  });

  it("refuses a video over the limit with 413 by declared length, and when the body outgrows it", async () => {
    const declared = await put("presentation", mp4Bytes(1000), "video/mp4", MAX + 1);
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { detail: string }).detail).toBe("Файл больше 256 КБ");
    // The body turns out larger than it claimed: the streamed check stops it and nothing is kept.
    const lying = await put("presentation", mp4Bytes(MAX + 10), "video/mp4", 1000);
    expect(lying.status).toBe(413);
    expect(await h.deps.repos.media.get("presentation")).toBeUndefined();
  });

  it("needs a declared length (411), an empty body is 400, an unknown kind 404", async () => {
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(mp4Bytes(1000));
        controller.close();
      },
    });
    expect((await put("presentation", chunks, "video/mp4")).status).toBe(411);
    expect((await put("presentation", new Uint8Array(0), "video/mp4")).status).toBe(400);
    expect((await put("trailer", mp4Bytes(), "video/mp4")).status).toBe(404);
    expect((await put("presentation", mp4Bytes(), "video/mp4", undefined, staff.token)).status).toBe(403);
  });
});
