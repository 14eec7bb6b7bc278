// The product as `npm start` runs it: one port for the API and the web app, security headers on
// every answer, and data that survive a restart.
import { afterAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalServer, WEB_ROOT, type LocalServer } from "../../functions/src/local/server";

const dataDir = mkdtempSync(join(tmpdir(), "fugitive-local-"));
const demo = { email: "demo@example.com", password: "demo-password" };
let server: LocalServer | undefined;
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...demo, guardant_code: "" }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access: string }).access;
}

describe("local server", () => {
  it("sends the security headers on API answers and pages", async () => {
    server = await startLocalServer({ dataDir, port: 0, demo });
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

    server = await startLocalServer({ dataDir, port: 0, demo });
    token = await signIn(server.url);
    const res = await fetch(`${server.url}/api/v1/projects/${project.id}/`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: "Переживет перезапуск" });
  });
});
