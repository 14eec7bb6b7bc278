// The built web app as `npm test` builds it before the tiers run (web/dist, with Vite's manifest),
// the one the browser tier serves.
// Its domain: the app reaches the server only through its contract (functions/src/contract,
// biome.json), so its assets carry none of the server's implementation; each marker is a text only
// one module of the server holds, and every asset is grepped.
// Its weight: the browser-weight budget an earlier round, a route's initial JavaScript (the entry and the
// route's lazy page chunks with their static imports, gzip) within 300 KB, measured as
// `npm run bench -- web` measures it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { INITIAL_JS_BUDGET_KB, weighWebBuild } from "../bench/web-weight";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Server-only module → a text that module alone holds (checked below, so a marker cannot go stale). */
const MARKERS: Record<string, string> = {
  "functions/src/domain/errors.ts": "Учетные данные не были предоставлены или недействительны",
  "functions/src/domain/calculations/projects.ts": "Проект был изменен другим пользователем",
  "functions/src/files/tabular.ts": "не удалось прочитать книгу Excel",
  "functions/src/http/multipart.ts": "Ожидается форма multipart/form-data",
};

const outDir = join(ROOT, "web/dist");
beforeAll(() => {
  if (!existsSync(join(outDir, ".vite/manifest.json")))
    throw new Error('web/dist is missing or has no manifest: run "npm run build:web" first');
});

function assets(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? assets(join(dir, entry.name)) : /\.(js|mjs|html)$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

describe("the web bundle", () => {
  it("holds markers that are the server's own", () => {
    for (const [file, marker] of Object.entries(MARKERS)) expect(readFileSync(join(ROOT, file), "utf8")).toContain(marker);
  });

  it("carries no domain, file reader or handler code", () => {
    const files = assets(outDir);
    expect(files.length).toBeGreaterThan(10);
    const found = files.flatMap((file) => {
      const text = readFileSync(file, "utf8");
      return Object.entries(MARKERS)
        .filter(([, marker]) => text.includes(marker))
        .map(([module]) => `${module} in ${file.slice(outDir.length)}`);
    });
    expect(found).toEqual([]);
  });
});

describe("web app weight", () => {
  it(`keeps every route's initial JS within ${INITIAL_JS_BUDGET_KB} KB gzip`, () => {
    const weight = weighWebBuild(outDir);
    expect(weight.routes.length).toBeGreaterThanOrEqual(15);
    const over = weight.routes
      .filter((r) => r.gzip > INITIAL_JS_BUDGET_KB * 1024)
      .map((r) => `${r.route}: ${(r.gzip / 1024).toFixed(1)} KB`);
    expect(over).toEqual([]);
  });

  it("links antd's pre-built stylesheet as antd ships it, which the app's zeroRuntime theme needs", () => {
    const weight = weighWebBuild(outDir);
    const antd = readFileSync(join(ROOT, "node_modules/antd/dist/antd.css"));
    const linked = readdirSync(join(outDir, "assets")).filter(
      (f) => f.endsWith(".css") && readFileSync(join(outDir, "assets", f)).equals(antd),
    );
    expect(linked).toHaveLength(1);
    expect(readFileSync(join(outDir, "index.html"), "utf8")).toContain(`href="/assets/${linked[0]}"`);
    expect(weight.css.files).toBe(1);
  });
});
