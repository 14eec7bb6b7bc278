// The README a newcomer reads in ten minutes: the two commands at the top and true, at most 200
// lines, every docs/ file linked, and the links of README and docs/ pointing at files that exist.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const DOCS = readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md"));

/** The relative link targets of a markdown text (no web addresses, no anchors of the same page). */
function localLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1].split("#")[0])
    .filter((target) => target !== "" && !/^[a-z]+:/.test(target));
}

describe("README.md", () => {
  it("opens with the two commands a newcomer runs, and both are scripts of package.json", () => {
    const firstBlock = README.match(/```bash\n([\s\S]*?)```/);
    expect(firstBlock, "a bash block").not.toBeNull();
    const line = README.slice(0, firstBlock?.index).split("\n").length;
    expect(line, "the first code block, at the top").toBeLessThanOrEqual(20);
    const commands = (firstBlock?.[1] ?? "")
      .trim()
      .split("\n")
      .map((line) => line.replace(/#.*$/, "").trim());
    expect(commands).toEqual(["npm install && npm start", "npm test"]);
    const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts;
    expect(scripts.start).toMatch(/npm run build && exec npm run serve/);
    expect(scripts.test).toBe("bash tests/run.sh");
  });

  it("says what the warnings of the first install and start mean, and that the first start compiles the core", () => {
    expect(README).toContain("`install-scripts`");
    expect(README).toContain("`node@24.21.0`");
    expect(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).allowScripts.node).toBe(true);
    expect(README).toMatch(/Vite warns twice[\s\S]*`\.\.\/path-aliases` without an extension[\s\S]*over 1 200 kB/);
    expect(README).toMatch(/first `npm start` on a clean machine compiles the core/);
  });

  it("is at most 200 lines, none over 400 characters", () => {
    const lines = README.split("\n");
    expect(lines.length).toBeLessThanOrEqual(200);
    expect(lines.filter((line) => [...line].length > 400)).toEqual([]);
  });

  it("links every file of docs/", () => {
    expect(DOCS.length).toBeGreaterThanOrEqual(8);
    const linked = new Set(localLinks(README));
    expect(DOCS.filter((name) => !linked.has(`docs/${name}`))).toEqual([]);
  });

  it("links, as docs/ do, only files that exist", () => {
    const broken: string[] = [];
    for (const [file, text] of [
      ["README.md", README],
      ...DOCS.map((name) => [`docs/${name}`, readFileSync(join(ROOT, "docs", name), "utf8")]),
    ]) {
      for (const target of localLinks(text)) {
        if (!existsSync(resolve(ROOT, dirname(file), target))) broken.push(`${file} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
