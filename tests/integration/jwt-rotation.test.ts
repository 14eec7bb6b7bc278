// `npm run admin -- rotate-jwt-secret` on a local installation: tokens signed before the rotation
// still work after the server restarts, for the overlap and no longer; new ones use the new secret.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runAdmin } from "../support/admin-command";
import { DEMO, signInAsDemo } from "../support/server";
import { startLocalServer } from "@server/local/server";

const dataDir = mkdtempSync(join(tmpdir(), "jwt-rotation-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function rotate(args: string[] = []) {
  const out = await runAdmin(dataDir, ["rotate-jwt-secret", ...args]);
  expect(out.status, out.stderr).toBe(0);
  return out.stdout;
}

async function withServer<T>(use: (url: string) => Promise<T>): Promise<T> {
  const server = await startLocalServer({ dataDir, port: 0, demo: DEMO });
  try {
    return await use(server.url);
  } finally {
    await server.close();
  }
}

const me = (url: string, access: string) =>
  fetch(`${url}/api/v1/users/get_me/`, { headers: { Authorization: `Bearer ${access}` } }).then((r) => r.status);
const refresh = (url: string, token: string) =>
  fetch(`${url}/api/token/refresh/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ refresh: token }),
  }).then((r) => r.status);

describe("rotate-jwt-secret (local)", () => {
  it("keeps old tokens valid for the overlap, signs new ones with the new secret, and drops the old secret after", async () => {
    const before = await withServer(signInAsDemo);
    const secretBefore = readFileSync(join(dataDir, "jwt-secret"), "utf8");

    expect(await rotate(["--overlap-hours", "1"])).toMatch(/прежний действует до/);
    expect(readFileSync(join(dataDir, "jwt-secret"), "utf8")).not.toBe(secretBefore);

    const after = await withServer(async (url) => {
      expect(await me(url, before.access)).toBe(200);
      expect(await refresh(url, before.refresh)).toBe(200);
      const fresh = await signInAsDemo(url);
      expect(await me(url, fresh.access)).toBe(200);
      return fresh;
    });

    // A second rotation without overlap: the first secret is gone, the second one is the previous.
    await rotate(["--overlap-hours", "0"]);
    await withServer(async (url) => {
      expect(await me(url, before.access)).toBe(401);
      expect(await refresh(url, before.refresh)).toBe(401);
      expect(await me(url, after.access)).toBe(401);
    });
  }, 60_000);

  it("refuses a negative overlap", async () => {
    const out = await runAdmin(dataDir, ["rotate-jwt-secret", "--overlap-hours", "-1"]);
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/--overlap-hours/);
  });

  // hostile: 1 000 000 000 hours kept the old secret valid for ever.
  it("refuses an overlap longer than the refresh token's lifetime, or not a plain number, and keeps the secret", async () => {
    const secretFile = join(dataDir, "jwt-secret");
    const secret = () => (existsSync(secretFile) ? readFileSync(secretFile, "utf8") : null);
    const before = secret();
    for (const [hours, message] of [
      ["1000000000", "--overlap-hours: не больше срока действия токена обновления (24 ч)"],
      ["0x10", "--overlap-hours: неотрицательное число часов"],
    ]) {
      const out = await runAdmin(dataDir, ["rotate-jwt-secret", "--overlap-hours", hours], {
        REFRESH_TOKEN_TTL_SECONDS: String(24 * 3600),
      });
      expect(out.status, hours).toBe(2);
      expect(out.stderr).toContain(message);
    }
    expect(secret()).toBe(before);
  });
});
