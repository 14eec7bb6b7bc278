// the security review's R18: the local server's database engine (dynalite) listens on a loopback port, and any
// process of the machine reached it: dynalite checks no signature, so an unsigned call read and
// wrote every company's items. The server now starts its engine with a random secret of that start,
// written only into its data folder's dynamodb-endpoint.json (0600), and the port refuses every call
// that does not name it (an SDK client's access key id, or a header for the snapshot). The server's
// own clients reach the engine through message ports and are not slowed; the admin command and a
// backup on the same DATA_DIR read the secret from the file and keep working.
import { readFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDocumentClient } from "@server/adapters/dynamodb/client";
import { ENGINE_SECRET_HEADER, SNAPSHOT_PATH } from "@server/local/dynalite-engine";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { DEMO } from "../support/server";
import { runAdmin } from "../support/admin-command";

const root = mkdtempSync(join(tmpdir(), "engine-port-"));
const dataDir = join(root, "data");
let server: LocalServer;
let endpoint: string;
let secret: string;

beforeAll(async () => {
  server = await startLocalServer({ dataDir, port: 0, host: "127.0.0.1", demo: DEMO });
  ({ endpoint, secret } = JSON.parse(readFileSync(join(dataDir, "dynamodb-endpoint.json"), "utf8")) as {
    endpoint: string;
    secret: string;
  });
}, 90_000);
afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

const listTables = (headers: Record<string, string> = {}) =>
  fetch(endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810.ListTables", ...headers },
    body: "{}",
  });

describe("the local engine's loopback port (the security review's R18)", () => {
  it("is named with a secret of this start in a file only the folder's owner reads", () => {
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(dataDir, "dynamodb-endpoint.json")).mode & 0o777).toBe(0o600);
  });

  it("refuses an unsigned call, a call signed with any other key, and the snapshot without the secret", async () => {
    const unsigned = await listTables();
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toMatchObject({ __type: "com.amazonaws.dynamodb.v20120810#UnrecognizedClientException" });
    const other = createDocumentClient({ tableName: "fugitive", endpoint });
    await expect(other.send(new ListTablesCommand({}))).rejects.toMatchObject({ name: "UnrecognizedClientException" });
    other.destroy();
    expect((await listTables({ [ENGINE_SECRET_HEADER]: "0".repeat(64) })).status).toBe(400);
    const snapshot = await fetch(`${endpoint}${SNAPSHOT_PATH}`);
    expect(snapshot.status).toBe(400);
    await snapshot.body?.cancel();
  });

  it("answers a caller who names it, as an SDK client's key or in the snapshot's header", async () => {
    const named = createDocumentClient({ tableName: "fugitive", endpoint, engineSecret: secret });
    expect((await named.send(new ListTablesCommand({}))).TableNames?.length).toBeGreaterThan(0);
    named.destroy();
    // The backup's snapshot, a plain GET, names it in its header.
    const snapshot = await fetch(`${endpoint}${SNAPSHOT_PATH}`, { headers: { [ENGINE_SECRET_HEADER]: secret } });
    expect(snapshot.status).toBe(200);
    await snapshot.body?.cancel();
  });

  it("keeps the server's own requests and the admin command on its DATA_DIR working", async () => {
    const res = await fetch(`${server.url}/api/token/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ...DEMO, guardant_code: "" }),
    });
    expect(res.status).toBe(200);
    const users = await runAdmin(dataDir, ["list-users"]);
    expect(users.status, users.stderr).toBe(0);
    expect(users.stdout).toContain(DEMO.email);
  });
});
