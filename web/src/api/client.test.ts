import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import { fakeJwt, memoryStorage } from "../testing/fakes";
import { api, ApiError, configureClient, errorFromBody, pendingRequests, query } from "./client";

const now = () => Math.floor(Date.now() / 1000);
const fresh = () => fakeJwt({ exp: now() + 3600 });
const expired = () => fakeJwt({ exp: now() - 10 });

function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? "" : JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

let fetchMock: Mock<(url: string, init: RequestInit & { headers: Record<string, string>; body: string }) => Promise<Response>>;
let onUnauthorized: Mock<() => void>;
let onAccessToken: Mock<(access: string) => void>;

beforeEach(() => {
  vi.stubGlobal("localStorage", memoryStorage());
  fetchMock = vi.fn();
  vi.stubGlobal("fetch", fetchMock);
  onUnauthorized = vi.fn();
  onAccessToken = vi.fn();
  configureClient({ onUnauthorized, onAccessToken });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("requests", () => {
  it("sends the stored token as a bearer token under /api/", async () => {
    const token = fresh();
    localStorage.setItem("token", token);
    fetchMock.mockResolvedValue(json(200, { id: "u1" }));

    await expect(api.get("v1/users/get_me/")).resolves.toEqual({ id: "u1" });

    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe("/api/v1/users/get_me/");
    expect(init.headers.Authorization).toBe(`Bearer ${token}`);
  });

  it("refreshes an expired access token first, then uses the new one", async () => {
    const renewed = fresh();
    localStorage.setItem("token", expired());
    localStorage.setItem("refreshToken", "r1");
    fetchMock.mockResolvedValueOnce(json(200, { access: renewed })).mockResolvedValueOnce(json(200, { ok: true }));

    await api.get("v1/users/get_me/");

    const [refreshUrl, refreshInit] = fetchMock.mock.calls[0];
    expect(refreshUrl).toBe("/api/token/refresh/");
    expect(JSON.parse(refreshInit.body)).toEqual({ token: "r1" });
    expect(refreshInit.headers.Authorization).toBeUndefined();
    expect(fetchMock.mock.calls[1][1].headers.Authorization).toBe(`Bearer ${renewed}`);
    expect(localStorage.getItem("token")).toBe(renewed);
    expect(onAccessToken).toHaveBeenCalledWith(renewed);
  });

  it("refreshes once for several requests waiting at the same time", async () => {
    localStorage.setItem("token", expired());
    localStorage.setItem("refreshToken", "r1");
    const renewed = fresh();
    fetchMock.mockImplementation(async (url: string) => (url === "/api/token/refresh/" ? json(200, { access: renewed }) : json(200, {})));

    await Promise.all([api.get("a/"), api.get("b/"), api.get("c/")]);

    expect(fetchMock.mock.calls.filter(([url]) => url === "/api/token/refresh/")).toHaveLength(1);
  });

  it("ends the session when the refresh fails", async () => {
    localStorage.setItem("token", expired());
    localStorage.setItem("refreshToken", "bad");
    fetchMock.mockResolvedValue(json(401, { detail: "Токен недействителен" }));

    await expect(api.get("v1/projects/")).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalled();
  });

  it("ends the session on any 401 answer", async () => {
    localStorage.setItem("token", fresh());
    fetchMock.mockResolvedValue(json(401, { detail: "Требуется вход" }));

    const error = await api.get("v1/projects/").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, detail: "Требуется вход" });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it("keeps the session on other errors and passes the server's detail on", async () => {
    localStorage.setItem("token", fresh());
    fetchMock.mockResolvedValue(json(409, { detail: "Проект изменен другим пользователем" }));

    await expect(api.patch("v1/projects/p1/", { name: "x" })).rejects.toMatchObject({
      status: 409,
      detail: "Проект изменен другим пользователем",
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it("treats an empty GET body as 'data not found' but accepts an empty create answer", async () => {
    localStorage.setItem("token", fresh());
    fetchMock.mockResolvedValueOnce(json(200, undefined)).mockResolvedValueOnce(json(201, undefined));

    await expect(api.get("v1/projects/p1/")).rejects.toMatchObject({ detail: "Данные не найдены" });
    await expect(api.post("v1/projects/create_project/", {})).resolves.toBeUndefined();
  });

  it("reports a dropped connection as a Russian message with status 0", async () => {
    localStorage.setItem("token", fresh());
    fetchMock.mockRejectedValue(new TypeError("Failed to fetch"));

    await expect(api.get("v1/projects/")).rejects.toMatchObject({ status: 0 });
  });

  it("counts pending requests and returns to zero whatever the outcome", async () => {
    localStorage.setItem("token", fresh());
    let release!: (response: Response) => void;
    let fail!: (response: Response) => void;
    fetchMock.mockReturnValueOnce(new Promise<Response>((resolve) => (release = resolve)));
    fetchMock.mockReturnValueOnce(new Promise<Response>((resolve) => (fail = resolve)));

    const first = api.get("slow/");
    const second = api.get("failing/").catch(() => undefined);
    await vi.waitFor(() => expect(pendingRequests.get()).toBe(2));
    fail(json(500, { detail: "boom" }));
    await second;
    expect(pendingRequests.get()).toBe(1);
    release(json(200, {}));
    await first;
    expect(pendingRequests.get()).toBe(0);
  });
});

describe("login", () => {
  it("posts the credentials without a token and does not treat 401 as an ended session", async () => {
    fetchMock.mockResolvedValue(json(401, { detail: "Нужен ключ", code: "guardant_required" }));

    const error = await api.login({ email: "a@b.c", password: "p", guardant_code: "" }).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ status: 401, detail: "Нужен ключ", code: "guardant_required" });
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe("/api/token/");
    expect(init.headers.Authorization).toBeUndefined();
    expect(JSON.parse(init.body)).toEqual({ email: "a@b.c", password: "p", guardant_code: "" });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});

describe("errorFromBody", () => {
  it("takes detail and code from a JSON error body", () => {
    expect(errorFromBody(400, '{"detail":"name: введите название проекта"}')).toMatchObject({
      status: 400,
      detail: "name: введите название проекта",
      code: undefined,
    });
  });

  it("gives a plain message for a body that is not the API's JSON", () => {
    expect(errorFromBody(502, "<html>Bad Gateway</html>").detail).toBe("Ошибка сервера (502)");
    expect(errorFromBody(500, '{"error":"x"}').detail).toBe("Ошибка сервера (500)");
  });
});

describe("query", () => {
  it("keeps defined values in order and drops the rest", () => {
    expect(query({ company: "c1", is_active: true, is_deleted: false, limit: 10, offset: 0, skip: undefined })).toBe(
      "?company=c1&is_active=true&is_deleted=false&limit=10&offset=0",
    );
    expect(query({ nothing: null })).toBe("");
  });
});
