// The whole product as `npm start` runs it, for browser tests: a fresh data folder, a random
// port, the built web app, the demo company and user.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalServer } from "../../functions/src/local/server";

export interface TestServer {
  url: string;
  demo: { email: string; password: string };
  dataDir: string;
  close(): Promise<void>;
}

export async function startTestServer(): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "fugitive-e2e-"));
  const demo = { email: "demo@example.com", password: "demo-password" };
  const server = await startLocalServer({ dataDir, port: 0, demo });
  return {
    url: server.url,
    demo,
    dataDir,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
