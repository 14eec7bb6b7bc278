// A taken port is found before a data folder is made or seeded: a start on a port another process held
// made the folder, opened its store and seeded the demo company (1 min 26 s at load) before listening
// failed, and left the seeded folder behind. Now it is refused at once, nothing made; once the port is
// free, the start holds it and listens on it.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startLocalServer } from "./server";

const root = mkdtempSync(join(tmpdir(), "port-taken-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a start on a taken port", () => {
  it("is refused before the data folder is made or seeded, and takes the port once it is free", async () => {
    const other = createServer();
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const { port } = other.address() as AddressInfo;
    const dataDir = join(root, "data");
    const started = performance.now();
    await expect(
      startLocalServer({ dataDir, port, host: "127.0.0.1", demo: { email: "demo@example.com", password: "demo-password-1" } }),
    ).rejects.toThrow(`Порт ${port} занят другим процессом: задайте другой, например PORT=3001 npm start`);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(existsSync(dataDir)).toBe(false);

    await new Promise<void>((resolve) => other.close(() => resolve()));
    const server = await startLocalServer({ dataDir, port, host: "127.0.0.1" });
    try {
      expect(server.url).toBe(`http://127.0.0.1:${port}`);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
