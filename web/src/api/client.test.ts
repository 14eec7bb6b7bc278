import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import { TEST_NOW, fakeJwt, memoryStorage, onTestClock } from "../testing/fakes";
import { api, ApiError, configureClient, errorFromBody, jsonBody, pendingRequests, query, typedClient } from "./client";

onTestClock();
const NOW_S = Math.floor(TEST_NOW / 1000);
const fresh = () => fakeJwt({ exp: NOW_S + 3600 });
const expired = () => fakeJwt({ exp: NOW_S - 10 });

function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? "" : JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

let fetchMock: Mock<(url: string | URL | Request, init: RequestInit & { body: string }) => Promise<Response>>;
let onUnauthorized: Mock<() => void>;
let onAccessToken: Mock<(access: string) => void>;

/** A header of a fetch call, whether given as an object (sign in, refresh) or as Headers (typed client). */
const header = (init: RequestInit, name: string) => new Headers(init.headers).get(name);
/** The address of a fetch call as sent. */
const address = (url: string | URL | Request) => (url instanceof Request ? url.url : String(url));

// Two typed clients over the server's route declarations, as the features build them.
const users = typedClient("users");
const projects = typedClient("projects");
const getMe = () => users((c) => c.get_me.$get());
const getProject = (id: string) => projects((c) => c[":id"].$get({ param: { id } }));

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

describe("typed client requests", () => {
  it("sends the stored token as a bearer token under /api/, at the route's path without a trailing slash", async () => {
    const token = fresh();
    localStorage.setItem("token", token);
    fetchMock.mockResolvedValue(json(200, { id: "u1" }));

    await expect(getMe()).resolves.toEqual({ id: "u1" });

    const [url, init] = fetchMock.mock.calls[0];
    expect(address(url)).toBe("/api/v1/users/get_me");
    expect(init.method).toBe("GET");
    expect(header(init, "Authorization")).toBe(`Bearer ${token}`);
    expect(header(init, "Accept")).toBe("application/json");
  });

  it("fills path parameters and sends a JSON body", async () => {
    localStorage.setItem("token", fresh());
    fetchMock.mockResolvedValue(json(200, { id: "p1" }));

    await projects((c) => c[":id"].$patch({ param: { id: "p1" }, json: { name: "x", version: 2 } }));

    const [url, init] = fetchMock.mock.calls[0];
    expect(address(url)).toBe("/api/v1/projects/p1");
    expect(init.method).toBe("PATCH");
    expect(header(init, "Content-Type")).toContain("application/json");
    expect(JSON.parse(init.body)).toEqual({ name: "x", version: 2 });
  });

  it("sends a body the route cannot type (jsonBody) as JSON", async () => {
    localStorage.setItem("token", fresh());
    fetchMock.mockResolvedValue(json(201, { id: "c1" }));
    const calculations = typedClient("calculations");

    await calculations<unknown>((c) => c[":type"].$post({ param: { type: "torch_ch4" }, query: {} }, jsonBody({ name: "y", volume: 1 })));

    const [url, init] = fetchMock.mock.calls[0];
    expect(address(url)).toBe("/api/v1/torch_ch4");
    expect(init.method).toBe("POST");
    expect(header(init, "Content-Type")).toBe("application/json");
    expect(JSON.parse(init.body)).toEqual({ name: "y", volume: 1 });
  });

  it("refreshes an expired access token first, then uses the new one", async () => {
    const renewed = fresh();
    localStorage.setItem("token", expired());
    localStorage.setItem("refreshToken", "r1");
    fetchMock.mockResolvedValueOnce(json(200, { access: renewed })).mockResolvedValueOnce(json(200, { ok: true }));

    await getMe();

    const [refreshUrl, refreshInit] = fetchMock.mock.calls[0];
    expect(refreshUrl).toBe("/api/token/refresh/");
    expect(JSON.parse(refreshInit.body)).toEqual({ token: "r1" });
    expect(header(refreshInit, "Authorization")).toBeNull();
    expect(header(fetchMock.mock.calls[1][1], "Authorization")).toBe(`Bearer ${renewed}`);
    expect(localStorage.getItem("token")).toBe(renewed);
    expect(onAccessToken).toHaveBeenCalledWith(renewed);
  });

  it("refreshes once for several requests waiting at the same time", async () => {
    localStorage.setItem("token", expired());
    localStorage.setItem("refreshToken", "r1");
    const renewed = fresh();
    fetchMock.mockImplementation(async (url) => (address(url) === "/api/token/refresh/" ? json(200, { access: renewed }) : json(200, {})));

    await Promise.all([getMe(), getProject("p1"), users((c) => c.statistics.$get())]);

    expect(fetchMock.mock.calls.filter(([url]) => address(url) === "/api/token/refresh/")).toHaveLength(1);
  });

  it("ends the session when the refresh fails", async () => {
    localStorage.setItem("token", expired());
    localStorage.setItem("refreshToken", "bad");
    fetchMock.mockResolvedValue(json(401, { detail: "Токен недействителен" }));

    await expect(getProject("p1")).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalled();
  });

  it("ends the session on any 401 answer", async () => {
    localStorage.setItem("token", fresh());
    fetchMock.mockResolvedValue(json(401, { detail: "Требуется вход" }));

    const error = await getProject("p1").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, detail: "Требуется вход" });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it("keeps the session on other errors and passes the server's detail on", async () => {
    localStorage.setItem("token", fresh());
    fetchMock.mockResolvedValue(json(409, { detail: "Проект изменен другим пользователем" }));

    await expect(projects((c) => c[":id"].$patch({ param: { id: "p1" }, json: { name: "x" } }))).rejects.toMatchObject({
      status: 409,
      detail: "Проект изменен другим пользователем",
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it("treats an empty body as 'data not found' and a body that is not JSON as an unexpected answer", async () => {
    localStorage.setItem("token", fresh());
    fetchMock
      .mockResolvedValueOnce(json(200, undefined))
      .mockResolvedValueOnce(new Response("<html>", { status: 200, headers: { "Content-Type": "text/html" } }));

    await expect(getProject("p1")).rejects.toMatchObject({ status: 200, detail: "Данные не найдены" });
    await expect(getProject("p1")).rejects.toMatchObject({ status: 200, detail: "Сервер вернул неожиданный ответ" });
  });

  it("reports a dropped connection as a Russian message with status 0", async () => {
    localStorage.setItem("token", fresh());
    fetchMock.mockRejectedValue(new TypeError("Failed to fetch"));

    await expect(getProject("p1")).rejects.toMatchObject({ status: 0 });
  });

  it("counts pending requests and returns to zero whatever the outcome", async () => {
    localStorage.setItem("token", fresh());
    let release!: (response: Response) => void;
    let fail!: (response: Response) => void;
    fetchMock.mockReturnValueOnce(new Promise<Response>((resolve) => (release = resolve)));
    fetchMock.mockReturnValueOnce(new Promise<Response>((resolve) => (fail = resolve)));

    const first = getProject("slow");
    const second = getProject("failing").catch(() => undefined);
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
    expect(header(init, "Authorization")).toBeNull();
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

describe("routePath", () => {
  it("writes a declared route's address from the mount table, its parameters and query, with the trailing slash", async () => {
    const { routePath, encoded } = await import("./client");
    expect(await routePath("calculations", (c) => c[":type"][":id"].file.$path({ param: encoded({ type: "torch_ch4", id: "a b" }) }))).toBe(
      "v1/torch_ch4/a%20b/file/",
    );
    expect(await routePath("calculations", (c) => c[":type"].$path({ param: { type: "regres_methane" }, query: { dry_run: "1" } }))).toBe(
      "v1/regres_methane/?dry_run=1",
    );
    expect(await routePath("inventoryReport", (c) => c[":year"].report.$path({ param: { year: "2025" }, query: { format: "pdf" } }))).toBe(
      "v1/inventory/2025/report/?format=pdf",
    );
  });
});
