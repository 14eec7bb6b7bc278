// A bench's figures written into docs/performance.md from one run (`npm run bench -- NAME
// --write-docs`, `npm run load -- --write-docs`), between markers of their own, with the day, the machine and its load average:
// the document's figures of that bench are never typed by hand. The api bench's call counts have
// their own table (tests/support/api-call-counts.ts).
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { PERFORMANCE_DOC } from "./api-call-counts";
import { machineLine } from "./machine";

export { PERFORMANCE_DOC };

/** The command that writes a block: the bench's, or `npm run load`'s for the load. */
const writtenBy = (bench: string) => (bench === "load" ? "npm run load -- --write-docs" : `npm run bench -- ${bench} --write-docs`);

const markers = (bench: string) => ({
  begin: `<!-- ${bench} figures: written by \`${writtenBy(bench)}\` from one run; not edited by hand -->`,
  end: `<!-- end of ${bench} figures -->`,
});

const CHECKSUM = /^Checksum of the lines above: ([0-9a-f]{16})$/;

/** The first 16 hex digits of the SHA-256 of a block's lines (machine line and figures). */
export function blockChecksum(lines: readonly string[]): string {
  return createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 16);
}

/**
 * Writes `lines` (a bench's printed figures) into the document between the bench's markers.
 * With `checksum`, a last line carries the checksum of the block's lines, so a figure edited by
 * hand afterwards no longer matches it (checkedBlocks).
 */
export function writeGeneratedBlock(
  bench: string,
  lines: readonly string[],
  path = PERFORMANCE_DOC,
  when = new Date(),
  { checksum = false } = {},
): void {
  const { begin, end } = markers(bench);
  const text = readFileSync(path, "utf8");
  const start = text.indexOf(begin);
  const stop = text.indexOf(end);
  if (start < 0 || stop < start) throw new Error(`${path}: the ${bench} figures' markers are missing`);
  const body = [machineLine(when), "", "```", ...lines, "```"];
  const block = [begin, ...body, ...(checksum ? [`Checksum of the lines above: ${blockChecksum(body)}`] : []), end].join("\n");
  writeFileSync(path, text.slice(0, start) + block + text.slice(stop + end.length));
}

/** Every generated block of the document that ends in a checksum line: its bench, the checksum
 *  written and the one its lines have now. */
export function checkedBlocks(path = PERFORMANCE_DOC): { bench: string; written: string; actual: string }[] {
  const text = readFileSync(path, "utf8");
  const found: { bench: string; written: string; actual: string }[] = [];
  for (const match of text.matchAll(/<!-- (\S+) figures: written by [^\n]*-->\n([\s\S]*?)\n<!-- end of \1 figures -->/g)) {
    const lines = match[2].split("\n");
    const written = CHECKSUM.exec(lines.at(-1) ?? "")?.[1];
    if (written) found.push({ bench: match[1], written, actual: blockChecksum(lines.slice(0, -1)) });
  }
  return found;
}

/** The lines between a bench's markers (its fenced figures), or undefined without the markers. */
export function generatedBlock(bench: string, path = PERFORMANCE_DOC): string[] | undefined {
  const { begin, end } = markers(bench);
  const text = readFileSync(path, "utf8");
  const start = text.indexOf(begin);
  const stop = text.indexOf(end);
  if (start < 0 || stop < start) return undefined;
  return text.slice(start + begin.length, stop).split("\n");
}
