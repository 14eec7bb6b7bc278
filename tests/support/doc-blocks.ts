// The parts of the docs that restate a list or a count the code holds are written from the code, never
// typed by hand: each between markers of its own, `npm run docs:generate` writes them all, and
// tests/integration/doc-blocks.test.ts fails when one differs from what the code says. A new
// calculation type (docs/architecture.md, «Adding a calculation type») thus edits no doc by hand.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CALCULATION_TYPES } from "@core/registry";
import { LIMITS } from "@server/contract/schemas/limits";

const ROOT = join(import.meta.dirname, "../..");

export interface DocBlock {
  /** The document, from the repository's root. */
  readonly file: string;
  readonly name: string;
  /** What goes between the markers. */
  readonly text: () => string;
  /** Inline: the block sits inside a line (a count in a sentence), not on lines of its own. */
  readonly inline?: boolean;
}

/** Every bound of a table, by its path («password.max»). */
function tableEntries(table: object, prefix = ""): [string, number][] {
  return Object.entries(table).flatMap(([key, value]): [string, number][] =>
    typeof value === "number" ? [[`${prefix}${key}`, value]] : tableEntries(value as object, `${prefix}${key}.`),
  );
}

/** The registry's types as docs/api.md lists them, wrapped at about 100 characters. */
function typeList(): string {
  const lines: string[] = [];
  let line = "";
  for (const [i, type] of CALCULATION_TYPES.entries()) {
    const word = `\`${type}\`${i === CALCULATION_TYPES.length - 1 ? "." : ","}`;
    if (line && line.length + 1 + word.length > 100) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join("\n");
}

export const DOC_BLOCKS: readonly DocBlock[] = [
  { file: "docs/api.md", name: "calculation types", text: typeList },
  { file: "README.md", name: "type count", text: () => String(CALCULATION_TYPES.length), inline: true },
  {
    file: "docs/api.md",
    name: "limits",
    text: () =>
      ["| limit | value |", "| --- | --- |", ...tableEntries(LIMITS).map(([path, value]) => `| \`${path}\` | ${value} |`)].join("\n"),
  },
];

const begin = (block: DocBlock) => `<!-- ${block.name}: written by npm run docs:generate -->`;
const end = (block: DocBlock) => `<!-- end of ${block.name} -->`;

/** What stands between a block's markers in its document now, or undefined without the markers. */
export function writtenBlock(block: DocBlock, root = ROOT): string | undefined {
  const text = readFileSync(join(root, block.file), "utf8");
  const start = text.indexOf(begin(block));
  const stop = text.indexOf(end(block));
  if (start < 0 || stop < start) return undefined;
  const inside = text.slice(start + begin(block).length, stop);
  return block.inline ? inside : inside.replace(/^\n/, "").replace(/\n$/, "");
}

/** Writes every block into its document (the repository's, or the copies under `root`). */
export function writeDocBlocks(root = ROOT): string[] {
  const written: string[] = [];
  for (const block of DOC_BLOCKS) {
    const path = join(root, block.file);
    const text = readFileSync(path, "utf8");
    const start = text.indexOf(begin(block));
    const stop = text.indexOf(end(block));
    if (start < 0 || stop < start) throw new Error(`${block.file}: the markers of «${block.name}» are missing`);
    const inside = block.inline ? block.text() : `\n${block.text()}\n`;
    const next = text.slice(0, start + begin(block).length) + inside + text.slice(stop);
    if (next !== text) {
      writeFileSync(path, next);
      written.push(`${block.file}: ${block.name}`);
    }
  }
  return written;
}

if (process.argv[1] && import.meta.filename === process.argv[1] && process.argv.includes("--write")) {
  const written = writeDocBlocks();
  console.log(written.length > 0 ? `written: ${written.join("; ")}` : "the docs' generated blocks are up to date");
}
