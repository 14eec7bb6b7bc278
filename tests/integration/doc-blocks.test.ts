// The docs' lists and counts that restate the code (the calculation types, their count, the contract's
// limits, the test files of each tier, the deep tier's sizes) are generated blocks: each document holds what tests/support/doc-blocks.ts writes from the
// code, so a new type or limit fails here until `npm run docs:generate` writes them, and no one types them.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CALCULATION_TYPES } from "@core/registry";
import { LIMITS } from "@server/contract/schemas/limits";
import { SIZES } from "../support/depth";
import { DOC_BLOCKS, testFiles, writeDocBlocks, writtenBlock } from "../support/doc-blocks";

const ROOT = join(import.meta.dirname, "../..");

describe("the docs' generated blocks", () => {
  it.each(DOC_BLOCKS.map((block) => [`${block.file}: ${block.name}`, block] as const))("%s is as the code writes it", (_, block) => {
    const written = writtenBlock(block);
    expect(written, `${block.file} has no «${block.name}» markers`).toBeDefined();
    expect(written, "run npm run docs:generate").toBe(block.text());
  });

  it("name every type of the registry and its count, and every bound of LIMITS", () => {
    const byName = (name: string) => DOC_BLOCKS.find((block) => block.name === name)!.text();
    for (const type of CALCULATION_TYPES) expect(byName("calculation types")).toContain(`\`${type}\``);
    expect(byName("type count")).toBe(String(CALCULATION_TYPES.length));
    expect(byName("limits")).toContain(`| \`email\` | ${LIMITS.email} |`);
    expect(byName("limits")).toContain(`| \`password.max\` | ${LIMITS.password.max} |`);
  });

  it("count the test files vitest collects, tier by tier, and give the deep tier's sizes", () => {
    const text = DOC_BLOCKS.find((block) => block.name === "test files")!.text();
    const files = testFiles();
    // This file is one of them, and the component tests (the unit tier's .tsx files) are its unit-dom project.
    expect(files.get("integration")).toContain("tests/integration/doc-blocks.test.ts");
    const components = files.get("unit-dom")!.length;
    expect(components).toBeGreaterThan(0);
    expect(files.get("unit-dom")!.every((file) => file.endsWith(".test.tsx"))).toBe(true);
    expect(files.get("unit")!.some((file) => file.endsWith(".tsx"))).toBe(false);
    expect(text).toContain(`| \`unit\` | ${files.get("unit")!.length + components}, of them ${components} component files`);
    expect(text).toContain(`| \`integration\` | ${files.get("integration")!.length} |`);
    const depth = DOC_BLOCKS.find((block) => block.name === "depth sizes")!.text();
    expect(depth).toContain(`${SIZES.fuzzBodiesPerJsonRoute.deep} hostile bodies per JSON route`);
    expect(depth).toContain(`${SIZES.parallelUploads.normal} uploads`);
  });

  it("sees a block edited by hand, and writes it back without touching the rest", () => {
    const root = mkdtempSync(join(tmpdir(), "doc-blocks-"));
    try {
      mkdirSync(join(root, "docs"));
      for (const file of new Set(DOC_BLOCKS.map((block) => block.file))) copyFileSync(join(ROOT, file), join(root, file));
      const count = DOC_BLOCKS.find((block) => block.name === "type count")!;
      const readme = readFileSync(join(root, count.file), "utf8");
      const marker = `<!-- type count: written by npm run docs:generate -->${count.text()}<`;
      expect(readme).toContain(marker);
      writeFileSync(
        join(root, count.file),
        readme.replace(marker, `<!-- type count: written by npm run docs:generate -->${CALCULATION_TYPES.length - 1}<`),
      );
      expect(writtenBlock(count, root)).toBe(String(CALCULATION_TYPES.length - 1));
      expect(writeDocBlocks(root)).toEqual([`${count.file}: type count`]);
      expect(readFileSync(join(root, count.file), "utf8")).toBe(readme);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
