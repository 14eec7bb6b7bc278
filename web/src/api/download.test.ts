import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import { TEST_NOW, fakeJwt, memoryStorage, onTestClock } from "../testing/fakes";
import { api, configureClient, fileNameFromDisposition, pendingRequests } from "./client";

onTestClock();

let fetchMock: Mock<(url: string, init: RequestInit & { headers: Record<string, string> }) => Promise<Response>>;
let onUnauthorized: Mock<() => void>;

beforeEach(() => {
  vi.stubGlobal("localStorage", memoryStorage());
  localStorage.setItem("token", fakeJwt({ exp: Math.floor(TEST_NOW / 1000) + 3600 }));
  fetchMock = vi.fn();
  vi.stubGlobal("fetch", fetchMock);
  onUnauthorized = vi.fn();
  configureClient({ onUnauthorized, onAccessToken: vi.fn() });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("fileNameFromDisposition", () => {
  it("prefers the UTF-8 name and falls back to the plain one", () => {
    expect(fileNameFromDisposition(`attachment; filename="_____.xlsx"; filename*=UTF-8''${encodeURIComponent("Шахта «Север».xlsx")}`)).toBe(
      "Шахта «Север».xlsx",
    );
    expect(fileNameFromDisposition('attachment; filename="Report.txt"')).toBe("Report.txt");
    expect(fileNameFromDisposition("attachment; filename=Report.xls")).toBe("Report.xls");
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''%E0%A4%A; filename=\"x.txt\"")).toBe("x.txt");
    expect(fileNameFromDisposition(null)).toBeUndefined();
    expect(fileNameFromDisposition("attachment")).toBeUndefined();
  });
});

describe("api.download", () => {
  it("returns the bytes with their type and name, reporting progress, with the bearer token", async () => {
    fetchMock.mockResolvedValue(
      new Response(new Uint8Array([1, 2, 3, 4]), {
        headers: {
          "Content-Type": "application/vnd.ms-excel",
          "Content-Disposition": `attachment; filename="x.xls"; filename*=UTF-8''${encodeURIComponent("Отчет.xls")}`,
        },
      }),
    );
    const progress: number[] = [];
    const file = await api.download("v1/projects/p1/export_to_xls/", (n) => progress.push(n));
    expect(file.fileName).toBe("Отчет.xls");
    expect(file.blob.type).toBe("application/vnd.ms-excel");
    expect([...new Uint8Array(await file.blob.arrayBuffer())]).toEqual([1, 2, 3, 4]);
    expect(progress.at(-1)).toBe(4);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe("/api/v1/projects/p1/export_to_xls/");
    expect(init.headers.Authorization).toMatch(/^Bearer /);
    expect(pendingRequests.get()).toBe(0);
  });

  it("turns an error body into ApiError and ends the session on 401", async () => {
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ detail: "Unsupported file type" }), { status: 400 }));
    await expect(api.download("v1/projects/p1/export_to_pdf/")).rejects.toMatchObject({ status: 400, detail: "Unsupported file type" });
    expect(onUnauthorized).not.toHaveBeenCalled();
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ detail: "Требуется вход" }), { status: 401 }));
    await expect(api.download("v1/projects/p1/export_to_txt/")).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(pendingRequests.get()).toBe(0);
  });
});
