// The numbers README.md and docs/ repeat from the code are held against the code: each Lambda
// function's memory and timeout (infra/lib/function-sizes.ts, which the stack reads), the number of
// calculation types (the registry), the upload check's sizes and the calls that need no bearer
// token (the routes' declarations). A figure typed by hand that contradicts them fails here.
// (docs/security.md's bounds are held by security-bounds-doc.test.ts, the magnitudes by magnitudes.test.ts.)
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CALCULATION_TYPES } from "@core/registry";
import { EVIDENCE_MAX_BYTES } from "@server/contract/schemas/evidence";
import { MAX_FORECAST_UPLOAD_BYTES } from "@server/contract/schemas/uploads";
import { OPERATIONS } from "@server/http/openapi";
import { FUNCTION_SIZES } from "../../infra/lib/function-sizes";
import { PERFORMANCE_DOC, checkedBlocks, generatedBlock, writeGeneratedBlock } from "../support/generated-doc";
import { cpuModel } from "../support/machine";

const ROOT = join(import.meta.dirname, "../..");
const DOCS = ["README.md", ...readdirSync(join(ROOT, "docs")).map((name) => `docs/${name}`)].filter((path) => path.endsWith(".md"));
// Each document as markdown reads it: one space between any two words.
const TEXT = new Map(DOCS.map((path) => [path, readFileSync(join(ROOT, path), "utf8").replace(/\s+/g, " ")]));
const n = (value: number) => value.toLocaleString("ru-RU").replace(/\s/g, " ");
const MB = 1024 * 1024;
const WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
const numberOf = (text: string) => (/^\d[\d ]*$/.test(text) ? Number(text.replace(/ /g, "")) : WORDS.indexOf(text.toLowerCase()));

/** Every place a document names a function and then, in the same sentence and within 80
 *  characters, a figure with the unit given: [document, the figure as written, its value in that
 *  unit, minutes as seconds]. */
function figuresAfter(name: string, unit: RegExp): [string, string, number][] {
  const found: [string, string, number][] = [];
  for (const [path, text] of TEXT) {
    for (const at of text.matchAll(new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"))) {
      const after = text.slice(at.index + at[0].length, at.index + at[0].length + 80).split(/[.!?](?:\s|$)/)[0];
      const figure = new RegExp(`(\\d[\\d ]*\\d|\\d)\\s?(${unit.source})\\b`).exec(after);
      if (figure) found.push([path, figure[0], Number(figure[1].replace(/ /g, "")) * (figure[2] === "MB" ? 1 : 60)]);
    }
  }
  return found;
}

describe("the numbers the documents repeat", () => {
  it.each(Object.entries(FUNCTION_SIZES))("give the %s's memory and timeout as the stack sets them", (id, size) => {
    for (const name of size.docNames) {
      for (const [path, written, value] of figuresAfter(name, /MB/)) expect(value, `${path}: «${name} … ${written}»`).toBe(size.memoryMb);
      // Times only in minutes: seconds after a function's name are what something took in it.
      for (const [path, written, value] of figuresAfter(name, /min(?:utes?)?/)) {
        expect(value, `${path}: «${name} … ${written}»`).toBe(size.timeoutSeconds);
      }
    }
  });

  it("sees a function's figure when a document gives one", () => {
    expect(figuresAfter("job function", /MB/).length).toBeGreaterThan(0);
    expect(figuresAfter("API function", /MB/).length).toBeGreaterThan(0);
  });

  it("count the calculation types as the registry does", () => {
    // A generated count (tests/support/doc-blocks.ts) sits between comments markdown does not show.
    const counts = [...TEXT].flatMap(([path, text]) =>
      [
        ...text
          .replace(/<!--[\s\S]*?-->/g, "")
          .matchAll(
            /calculations\*{0,2} of (\w+) types|\b(\d+|[A-Za-z]+teen|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) calculation types/gi,
          ),
      ].map((m) => [path, numberOf(m[1] ?? m[2])]),
    );
    expect(counts.length).toBeGreaterThan(0);
    for (const [path, count] of counts) expect(count, path as string).toBe(CALCULATION_TYPES.length);
  });

  it("give the upload check's sizes as it holds them", () => {
    for (const path of ["docs/architecture.md", "docs/deployment.md"]) {
      const text = TEXT.get(path) ?? "";
      expect(text, path).toContain(`over their type's size (${n(MAX_FORECAST_UPLOAD_BYTES / MB)} MB for a workbook or CSV`);
      expect(text, path).toContain(`${n(EVIDENCE_MAX_BYTES / MB)} MB for an evidence file`);
    }
  });

  it("name every call that needs no bearer token", () => {
    const api = TEXT.get("docs/api.md") ?? "";
    const sentence = /every call needs `Authorization: Bearer \{access\}` except.*?\)\.(?= )/.exec(api)?.[0] ?? "";
    const tokenless = OPERATIONS.filter((op) => op.auth === "public" || op.auth === "signed");
    expect(tokenless.length).toBeGreaterThan(0);
    for (const op of tokenless) expect(sentence, `${op.method} ${op.docPath}`).toContain(`${op.method.toUpperCase()} ${op.docPath}`);
    expect([...sentence.matchAll(/`(GET|POST|PUT|PATCH|DELETE) \/api\//g)].length).toBe(tokenless.length);
  });
});

describe("the figures a bench writes into docs/performance.md", () => {
  it("are the bench's own: each block with a checksum still has the lines it was written with", () => {
    const blocks = checkedBlocks();
    expect(blocks.map((b) => b.bench)).toContain("emissions");
    for (const { bench, written, actual } of blocks) expect(actual, `the ${bench} figures were edited by hand`).toBe(written);
  });

  it("name the run's day, commit, processor and load average", () => {
    const copy = join(mkdtempSync(join(tmpdir(), "generated-doc-")), "performance.md");
    copyFileSync(PERFORMANCE_DOC, copy);
    writeGeneratedBlock("create", ["create p50 1.0 ms"], copy, new Date("2026-11-27T12:00:00Z"));
    const [line] = generatedBlock("create", copy)!.filter(Boolean);
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    expect(line).toMatch(new RegExp(`^Measured 2026-11-27 on commit ${commit}( \\+ changes)?, node v\\d+`));
    expect(line).toContain(`cores of ${cpuModel()}, load average `);
    expect(cpuModel()).not.toBe("unknown");
  });

  it("no longer match their checksum once a figure is edited", () => {
    const copy = join(mkdtempSync(join(tmpdir(), "generated-doc-")), "performance.md");
    copyFileSync(PERFORMANCE_DOC, copy);
    writeGeneratedBlock("emissions", ["facade 123.4 M evaluations/s"], copy, new Date(), { checksum: true });
    expect(checkedBlocks(copy).find((b) => b.bench === "emissions")).toMatchObject({ written: expect.any(String) });
    const [block] = checkedBlocks(copy).filter((b) => b.bench === "emissions");
    expect(block.actual).toBe(block.written);
    writeFileSync(copy, readFileSync(copy, "utf8").replace("123.4", "193.4"));
    const [edited] = checkedBlocks(copy).filter((b) => b.bench === "emissions");
    expect(edited.actual).not.toBe(edited.written);
  });
});
