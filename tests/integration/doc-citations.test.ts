// Code comments cite the repository's own documents (docs/…, a decision such as D18), never files
// outside it: not the product specification, not the shared methodology, design or style notes.
// Comments are read with a TypeScript parser (oxc, through rolldown, Vite's bundler), so strings (a
// test reading a fixture's origin, an import of web/src/shared) are not comments; markdown notes
// beside the code are read whole.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseSync } from "rolldown/utils";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const AREAS = ["functions", "web/src", "wasm-core/src", "infra", "tests"];

/** What a comment must not cite: the specification by its short name, or a document outside the repository. */
const OUTSIDE = [
  /\bSPEC\b(?!_)/,
  /(?<!docs\/)\bmethodology(?:-uncertainty)?\.md\b/,
  /\bDESIGN\.md\b/,
  /\bSTYLE\.md\b/,
  /\/work\/shared\b/,
  /(?<![./\w])\.\.\/shared\/(?:spec|methodology|DESIGN|STYLE)/,
];

/** The shared folder a probe names, put together so that this file itself names no such path. */
const SHARED_FOLDER = ["", "work", "shared"].join("/");

function trackedFiles(): string[] {
  return execFileSync("git", ["ls-files", "-z", ...AREAS], { cwd: ROOT, encoding: "utf8" })
    .split("\0")
    .filter((path) => /\.(ts|tsx|mts|md)$/.test(path));
}

/** Every comment of a TypeScript source, JSX comments included. */
function commentsOf(path: string, text: string): string[] {
  const parsed = parseSync(path, text, { lang: path.endsWith("x") ? "tsx" : "ts" });
  if (parsed.errors.length > 0) throw new Error(`${path}: ${parsed.errors[0].message}`);
  return parsed.comments.map((comment) => text.slice(comment.start, comment.end));
}

describe("citations in code comments", () => {
  it("finds comments and only comments", () => {
    const text = [
      'import { x } from "../../shared/decimals"; // see docs/api.md',
      `const origin = "${SHARED_FOLDER}/methodology.md";`,
      "/** (SPEC 7) */",
      "export const y = <div>{/* SPEC 2 */}</div>;",
      "const r = /[\"']/; // D18",
    ].join("\n");
    const comments = commentsOf("probe.tsx", text);
    expect(comments).toEqual(expect.arrayContaining(["// see docs/api.md", "/** (SPEC 7) */", "/* SPEC 2 */", "// D18"]));
    expect(comments.join("\n")).not.toContain(SHARED_FOLDER);
    expect(comments.filter((c) => OUTSIDE.some((re) => re.test(c)))).toEqual(["/** (SPEC 7) */", "/* SPEC 2 */"]);
  });

  it("cite no document outside the repository", () => {
    const found: string[] = [];
    for (const path of trackedFiles()) {
      const text = readFileSync(join(ROOT, path), "utf8");
      if (!OUTSIDE.some((re) => re.test(text))) continue;
      const comments = path.endsWith(".md") ? [text] : commentsOf(path, text);
      for (const comment of comments) {
        for (const line of comment.split("\n")) {
          if (OUTSIDE.some((re) => re.test(line))) found.push(`${path}: ${line.trim()}`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});

// The tests need nothing outside the repository (.ci/run runs them in a clone with no folder beside
// it): no test names an absolute path into a shared or home folder. The pattern is the one .ci/run
// greps for before that run (tests/support/outside-paths.ere).
describe("tests read nothing outside the repository", () => {
  const pattern = new RegExp(readFileSync(join(ROOT, "tests/support/outside-paths.ere"), "utf8").trim());

  it("the pattern finds such a path and leaves the repository's own alone", () => {
    expect(pattern.test(`readFileSync("${SHARED_FOLDER}/methodology.md")`)).toBe(true);
    expect(pattern.test(`const home = "/${"home"}/ci/shared/spec/SPEC.md";`)).toBe(true);
    expect(pattern.test('import { x } from "../../shared/decimals";')).toBe(false);
    expect(pattern.test('const chromium = "/usr/bin/chromium";')).toBe(false);
    expect(pattern.test('"s3:GetObject /documents/* /media/*"')).toBe(false);
  });

  it("no test file names an absolute path outside the repository", () => {
    const files = execFileSync("git", ["ls-files", "-z", "tests", "web/src/testing", "*.test.ts", "*.test.tsx"], {
      cwd: ROOT,
      encoding: "utf8",
    })
      .split("\0")
      .filter((path) => path !== "" && !path.endsWith(".ere"));
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((path) =>
      readFileSync(join(ROOT, path), "utf8")
        .split("\n")
        .flatMap((line, i) => (pattern.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
