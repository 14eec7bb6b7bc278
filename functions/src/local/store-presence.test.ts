// A damaged store never becomes a new one: a data folder holding `data-format.json` and its keys whose
// `items.db` was emptied started as a new installation and seeded «Демо-компания» with the public demo
// login. Now the start is refused (exit 78: StoreRefusedError), naming the file and the restore command,
// and nothing is written; a removed store is refused alike, and a new folder still starts.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startLocalServer } from "./server";
import { STORE_DIR, StoreRefusedError } from "./storage";
import { lostStoreProblem } from "./store-presence";

const root = mkdtempSync(join(tmpdir(), "store-lost-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const demo = { email: "demo@example.com", password: "demo-password-1" };

describe("a used data folder whose items.db was emptied", () => {
  it("is refused before the engine opens it, naming the file and the restore, and nothing is seeded", async () => {
    const dataDir = join(root, "data");
    const first = await startLocalServer({ dataDir, port: 0, demo });
    expect(first.firstStart).toBeDefined();
    await first.close();
    // Stopped cleanly and started again: its store holds its records, the start is not refused.
    const again = await startLocalServer({ dataDir, port: 0, demo });
    expect(again.firstStart).toBeUndefined();
    await again.close();
    const file = join(dataDir, STORE_DIR, "items.db");
    expect(existsSync(join(dataDir, "data-format.json"))).toBe(true);
    expect(existsSync(join(dataDir, "jwt-secret"))).toBe(true);

    truncateSync(file, 0);
    for (const name of readdirSync(join(dataDir, STORE_DIR))) if (name.startsWith("items.db-")) rmSync(join(dataDir, STORE_DIR, name));
    const refused = startLocalServer({ dataDir, port: 0, demo });
    await expect(refused).rejects.toBeInstanceOf(StoreRefusedError);
    const message = await refused.catch((error: Error) => error.message);
    expect(message).toContain(`База данных ${file} утрачена: файл пуст (0 байт)`);
    expect(message).toContain("DATA_DIR=<новая папка> npm run admin -- restore --from <файл копии>");
    expect(statSync(file).size).toBe(0);
    expect(existsSync(join(dataDir, "dynamodb-endpoint.json"))).toBe(false);

    rmSync(join(dataDir, STORE_DIR), { recursive: true });
    await expect(startLocalServer({ dataDir, port: 0, demo })).rejects.toThrow(`База данных ${file} утрачена: файла нет`);
    expect(existsSync(join(dataDir, STORE_DIR))).toBe(false);
  });

  it("leaves a new folder to start", () => {
    expect(lostStoreProblem(join(root, "new"), join(root, "new", STORE_DIR))).toBeUndefined();
  });
});
