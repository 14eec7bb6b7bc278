// The web app reaches the server only through its contract (functions/src/contract, biome.json):
// its built assets carry none of the server's implementation. Each marker is a text only one
// module of the server holds; the app is built into a temporary folder and every asset grepped.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Server-only module → a text that module alone holds (checked below, so a marker cannot go stale). */
const MARKERS: Record<string, string> = {
  "functions/src/domain/errors.ts": "Учетные данные не были предоставлены или недействительны",
  "functions/src/domain/projects.ts": "Проект был изменен другим пользователем",
  "functions/src/files/tabular.ts": "не удалось прочитать книгу Excel",
  "functions/src/http/multipart.ts": "Ожидается форма multipart/form-data",
};

const outDir = mkdtempSync(join(tmpdir(), "web-domain-free-"));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function assets(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? assets(join(dir, entry.name)) : /\.(js|mjs|html)$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

describe("the web bundle", () => {
  it("holds markers that are the server's own", () => {
    for (const [file, marker] of Object.entries(MARKERS)) expect(readFileSync(join(ROOT, file), "utf8")).toContain(marker);
  });

  it("carries no domain, file reader or handler code", async () => {
    // Vite builds React's development code when NODE_ENV says so (vitest sets "test").
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    try {
      await build({
        configFile: join(ROOT, "web/vite.config.ts"),
        mode: "production",
        logLevel: "error",
        build: { outDir, emptyOutDir: true },
      });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    const files = assets(outDir);
    expect(files.length).toBeGreaterThan(10);
    const found = files.flatMap((file) => {
      const text = readFileSync(file, "utf8");
      return Object.entries(MARKERS)
        .filter(([, marker]) => text.includes(marker))
        .map(([module]) => `${module} in ${file.slice(outDir.length)}`);
    });
    expect(found).toEqual([]);
  }, 300_000);
});
