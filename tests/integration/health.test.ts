// GET /healthz of the local server (functions/src/local/health.ts): without signing in, 200 with the
// release, the folder's format and whether the scheduled backups are on time, and nothing of a
// company's; 503 with a Russian detail once the database no longer answers.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startLocalServer } from "@server/local/server";
import { CURRENT_DATA_FORMAT } from "@server/local/data-format";
import { DEMO } from "../support/server";

const root = mkdtempSync(join(tmpdir(), "fugitive-health-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("GET /healthz", () => {
  it("answers the release, the format and the backups' state while the database answers, 503 once it does not", async () => {
    const dataDir = join(root, "data");
    const server = await startLocalServer({
      dataDir,
      port: 0,
      demo: DEMO,
      backups: { dir: join(root, "backups"), everyMs: 24 * 3600_000, keep: 2 },
    });
    try {
      const res = await fetch(`${server.url}/healthz`);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ status: "ok", version: "0.1.0", data_format: CURRENT_DATA_FORMAT, backup: { overdue: false } });
      expect(Object.keys(body).sort()).toEqual(["backup", "data_format", "database_ms", "status", "uptime_s", "version"]);
      expect(JSON.stringify(body)).not.toMatch(/Демо|demo@|fugitive-health/);
      // The database stopped under a server still answering HTTP.
      const { repos } = server.deps;
      repos.companies.list = () => Promise.reject(new Error("соединение закрыто"));
      const down = await fetch(`${server.url}/healthz`);
      expect(down.status).toBe(503);
      expect(await down.json()).toEqual({ status: "error", detail: "база данных не отвечает: соединение закрыто" });
    } finally {
      await server.close();
    }
  });
});
