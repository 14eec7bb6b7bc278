// The product as `npm start` runs it: one port for the API and the web app, security headers on
// every answer, data that survive a restart, and the web app's files served compressed and with
// the right caching.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import { DEMO, signInAsDemo } from "../support/server";
import { startLocalServer, WEB_ROOT, type LocalServer } from "@server/local/server";
import { LOCAL_TABLE, openServerStorage } from "@server/local/storage";
import { POINTS_MIGRATION } from "@server/domain/company/emission-points-migration";
import * as keys from "@server/adapters/dynamodb/keys";

const dataDir = mkdtempSync(join(tmpdir(), "fugitive-local-"));
let server: LocalServer | undefined;
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const signIn = async (url: string) => (await signInAsDemo(url)).access;

describe("local server", () => {
  it("sends the security headers on API answers and pages", async () => {
    server = await startLocalServer({ dataDir, port: 0, demo: DEMO });
    const paths = ["/api/v1/users/get_me/", ...(existsSync(WEB_ROOT) ? ["/", "/projects/123/calculations"] : [])];
    for (const path of paths) {
      const res = await fetch(`${server.url}${path}`);
      const csp = res.headers.get("content-security-policy") ?? "";
      const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? "";
      expect(scriptSrc.split(" "), path).not.toContain("'unsafe-inline'");
      expect(scriptSrc.split(" "), path).not.toContain("'unsafe-eval'");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("x-frame-options"), path).toBe("SAMEORIGIN");
    }
  });

  it("serves the web app shell for every client route (SPA fallback) and JSON 404s under /api/", async () => {
    if (!existsSync(WEB_ROOT)) return;
    const page = await fetch(`${server!.url}/projects/abc/graphs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const api = await fetch(`${server!.url}/api/v1/nothing/`, { headers: { Authorization: "Bearer x" } });
    expect(api.status).toBe(401);
    const unknown = await fetch(`${server!.url}/api/unknown`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ detail: expect.any(String) });
  });

  it("keeps projects across a restart on the same data folder", async () => {
    let token = await signIn(server!.url);
    const created = await fetch(`${server!.url}/api/v1/projects/create_project/`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: "Переживет перезапуск", start_date: "2024-01-01", end_date: "2024-12-31" }),
    });
    const project = (await created.json()) as { id: string };
    await server!.close();

    server = await startLocalServer({ dataDir, port: 0, demo: DEMO });
    token = await signIn(server.url);
    const res = await fetch(`${server.url}/api/v1/projects/${project.id}/`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: "Переживет перезапуск" });
  });

  it("gives a company stored before emission points «Шахта в целом» on start, the year's figures unchanged", async () => {
    const call = async <T>(token: string, path: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${server!.url}/api/v1/${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.ok, `${path}: ${res.status}`).toBe(true);
      return (await res.json()) as T;
    };
    let token = await signIn(server!.url);
    const me = await call<{ company: { id: string } }>(token, "users/get_me/");
    const mine = await call<{ id: string }>(token, "facilities/", { name: "Шахта «До источников»", kind: "underground_mine" });
    const project = await call<{ id: string }>(token, "projects/create_project/", {
      name: "До источников 2021",
      start_date: "2021-01-01",
      end_date: "2021-12-31",
      facility: mine.id,
    });
    // Stored as before points: a measured calculation of no point.
    const measured = await call<{ id: string; point?: string }>(token, "underground/", {
      project: project.id,
      name: "Вентиляция и дегазация",
      volume: 300_000,
      ef_ch4: 40,
      ef_co2: 2,
      p_ch4: 0.668,
      p_co2: 1.8393,
      basis: "gross",
    });
    expect(measured.point ?? null).toBeNull();
    const year = async () => {
      const { checks: _checks, review: _review, ...figures } = await call<Record<string, unknown>>(token, "inventory/?year=2021");
      return figures;
    };
    const before = await year();
    await server!.close();
    server = undefined;
    // …and without the mark the company made after points gets: an installation stored before them.
    const storage = await openServerStorage(dataDir);
    await storage.doc!.send(new DeleteCommand({ TableName: LOCAL_TABLE, Key: keys.migration(me.company.id, POINTS_MIGRATION) }));
    await storage.close();

    server = await startLocalServer({ dataDir, port: 0, demo: DEMO });
    token = await signIn(server.url);
    const points = await call<Array<{ id: string; name: string; kind: string }>>(token, `facilities/${mine.id}/points/`);
    expect(points.map((p) => [p.name, p.kind])).toEqual([["Шахта в целом", "whole_mine"]]);
    expect((await call<{ point: string }>(token, `underground/${measured.id}/`)).point).toBe(points[0].id);
    // D35: the netting's line per mining point names the point its calculations belong to, so the
    // calculation of no point (null) now reads as «Шахта в целом»'s; every figure stays as it was.
    const beforeOnWholeMine = JSON.parse(JSON.stringify(before).replaceAll('"point":null', `"point":${JSON.stringify(points[0].id)}`));
    expect(beforeOnWholeMine).not.toEqual(before);
    expect(await year()).toEqual(beforeOnWholeMine);
  });
});

/** One GET or HEAD with the bytes as they came over the wire (fetch would decompress them). */
function rawGet(url: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((done, fail) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", fail);
    });
    req.on("error", fail);
    req.end();
  });
}

describe("local server, web app files", () => {
  // A built app of its own: a hashed chunk, a wasm and a shell, whatever web/dist holds now.
  const webRoot = mkdtempSync(join(tmpdir(), "fugitive-webroot-"));
  const chunk = "assets/index-AbC123xY.js";
  const wasm = "assets/gbdt-Dm8Xk_BC.wasm";
  const chunkText = Array.from({ length: 2000 }, (_, i) => `export const value${i} = "значение ${i}";`).join("\n");
  const shell =
    '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/index-AbC123xY.js"></script></body></html>';
  let web: LocalServer;
  beforeAll(async () => {
    mkdirSync(join(webRoot, "assets"));
    writeFileSync(join(webRoot, chunk), chunkText);
    writeFileSync(join(webRoot, wasm), Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), Buffer.alloc(4000)]));
    writeFileSync(join(webRoot, "index.html"), shell);
    web = await startLocalServer({ port: 0, webRoot });
  });
  afterAll(async () => {
    await web?.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  const expectAssetHeaders = (headers: Record<string, string | string[] | undefined>) => {
    expect(headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(headers.vary).toMatch(/accept-encoding/i);
  };

  it("sends a hashed asset brotli-compressed to a browser that takes br, cached for a year", async () => {
    const res = await rawGet(`${web.url}/${chunk}`, { "Accept-Encoding": "gzip, deflate, br, zstd" });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toMatch(/javascript/);
    expectAssetHeaders(res.headers);
    expect(Number(res.headers["content-length"])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(Buffer.byteLength(chunkText) / 4);
    expect(brotliDecompressSync(res.body).toString("utf8")).toBe(chunkText);
  });

  it("sends gzip when brotli is not taken, and the file as it is when neither is", async () => {
    for (const accept of ["gzip, deflate", "br;q=0, gzip"]) {
      const res = await rawGet(`${web.url}/${chunk}`, { "Accept-Encoding": accept });
      expect(res.headers["content-encoding"], accept).toBe("gzip");
      expectAssetHeaders(res.headers);
      expect(gunzipSync(res.body).toString("utf8"), accept).toBe(chunkText);
    }
    for (const headers of [{}, { "Accept-Encoding": "identity" }] as Record<string, string>[]) {
      const res = await rawGet(`${web.url}/${chunk}`, headers);
      expect(res.headers["content-encoding"]).toBeUndefined();
      expectAssetHeaders(res.headers);
      expect(res.body.toString("utf8")).toBe(chunkText);
    }
  });

  it("compresses the WebAssembly files too, with their own content type", async () => {
    const res = await rawGet(`${web.url}/${wasm}`, { "Accept-Encoding": "br" });
    expect(res.headers["content-type"]).toBe("application/wasm");
    expect(res.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(res.body)).toEqual(readFileSync(join(webRoot, wasm)));
  });

  it("answers HEAD with the headers and length of the compressed file", async () => {
    const get = await rawGet(`${web.url}/${chunk}`, { "Accept-Encoding": "br" });
    const head = await rawGet(`${web.url}/${chunk}`, { "Accept-Encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.headers["content-length"]).toBe(String(get.body.length));
  });

  it("revalidates the app shell on every load, at / and at every client route", async () => {
    for (const path of ["/", "/index.html", "/projects/abc/graphs", "/login"]) {
      const res = await rawGet(`${web.url}${path}`, { "Accept-Encoding": "gzip, deflate, br" });
      expect(res.status, path).toBe(200);
      expect(res.headers["cache-control"], path).toBe("no-cache");
      expect(res.headers.vary, path).toMatch(/accept-encoding/i);
      expect(res.headers["content-type"], path).toMatch(/text\/html/);
      expect(res.body.toString("utf8"), path).toBe(shell);
    }
  });

  it("answers a missing asset with a JSON 404, never the app shell", async () => {
    for (const path of ["/assets/index-Gone0000.js", "/assets/..%2Findex.html", "/assets/.hidden"]) {
      const res = await fetch(`${web.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toEqual({ detail: "Не найдено" });
    }
  });
});
