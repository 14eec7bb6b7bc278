// The parts of the docs that restate a list or a count the code holds are written from the code, never
// typed by hand: each between markers of its own, `npm run docs:generate` writes them all, and
// tests/integration/doc-blocks.test.ts fails when one differs from what the code says. A new
// calculation type (docs/architecture.md, «Adding a calculation type») thus edits no doc by hand.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { SENSOR_KIND_NAMES, SENSOR_KINDS } from "@core/monitoring";
import { CALCULATION_TYPES } from "@core/registry";
import { LIMITS } from "@server/contract/schemas/limits";
import { SIZES } from "./depth";

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

/** A count as the docs print it: «1 000». */
const count = (value: number) => value.toLocaleString("ru-RU").replace(/\s/g, " ");

/** The sizes the deep tier runs its hostile-input, property and load tests at, and the other tiers. */
function depthSizes(): string {
  const at = (depth: "normal" | "deep") =>
    [
      SIZES.fuzzBodiesPerJsonRoute[depth] === SIZES.fuzzBodiesPerMultipartRoute[depth]
        ? `${count(SIZES.fuzzBodiesPerJsonRoute[depth])} hostile bodies per route`
        : `${count(SIZES.fuzzBodiesPerJsonRoute[depth])} hostile bodies per JSON route and ${count(SIZES.fuzzBodiesPerMultipartRoute[depth])} per multipart route`,
      `${count(SIZES.statisticsRuns[depth])} × ${count(SIZES.statisticsWritesPerRun[depth])} writes`,
      `${count(SIZES.parallelUploads[depth])} uploads`,
      `a year of ${count(SIZES.approvalCalculations[depth])} calculations`,
    ].join(", ");
  return `${at("deep")}; the other tiers run them smaller, ${at("normal")}`;
}

/** The test files each vitest project collects, as vitest itself lists them (every tier, and test:fast's
 *  service tests): read once per process, a second or two of CPU. */
let collected: ReadonlyMap<string, readonly string[]> | undefined;
export function testFiles(): ReadonlyMap<string, readonly string[]> {
  if (collected) return collected;
  const listed = spawnSync(process.execPath, [join(ROOT, "node_modules/vitest/vitest.mjs"), "list", "--filesOnly", "--json"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, TEST_FAST: "1", TEST_DEPTH: "deep", VITE_CONFIG_NATIVE_IGNORE_WARNING: "true" },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (listed.status !== 0) throw new Error(`vitest list failed: ${listed.stderr}`);
  const byProject = new Map<string, string[]>();
  for (const { file, projectName } of JSON.parse(listed.stdout) as { file: string; projectName: string }[]) {
    const files = byProject.get(projectName) ?? [];
    files.push(relative(ROOT, file));
    byProject.set(projectName, files);
  }
  collected = byProject;
  return collected;
}

/** docs/testing.md's table of how many test files each tier and each loop runs. */
function testFileCounts(): string {
  const of = (project: string) => testFiles().get(project) ?? [];
  // The unit tier: its Node project and its component tests' (happy-dom).
  const unit = of("unit").length + of("unit-dom").length;
  const tiers = ["integration", "e2e", "infra"];
  return [
    "| tier or loop | test files |",
    "| --- | --- |",
    `| \`unit\` | ${count(unit)}, of them ${count(of("unit-dom").length)} component files (\`web/src/**/*.test.tsx\`, project \`unit-dom\`) |`,
    ...tiers.map((tier) => `| \`${tier}\` | ${count(of(tier).length)} |`),
    `| \`npm test\` (the four tiers) | ${count(tiers.reduce((sum, tier) => sum + of(tier).length, unit))} |`,
    `| \`npm run test:fast\` (unit and the service tests) | ${count(unit + of("fast").length)} |`,
    `| \`npm run test:deep\` | ${count(of("deep").length)} |`,
  ].join("\n");
}

/** A number as the docs print it: a decimal comma, thousands apart («1 000», «0,45»); ∞ without a bound. */
const figure = (value: number) =>
  Number.isFinite(value) ? value.toLocaleString("ru-RU", { maximumFractionDigits: 6 }).replace(/[\s\u00a0\u202f]/g, " ") : "∞";

/** docs/architecture.md's table of the sensor kinds, from their specs (SENSOR_KINDS). */
function sensorKindTable(): string {
  return [
    "| kind | label | unit | range (D58) | gas | levels W, A | example | words of a sensor list |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...SENSOR_KIND_NAMES.map((kind) => {
      const spec = SENSOR_KINDS[kind];
      const range = `${spec.minExclusive ? "(" : "["}${figure(spec.min)}; ${figure(spec.max)}${Number.isFinite(spec.max) ? "]" : ")"}`;
      return `| \`${kind}\` | ${spec.label} | ${spec.unit} | ${range} | ${spec.gas ?? "—"} | ${spec.levels ? "yes" : "no"} | ${figure(spec.example)} | ${spec.words.map((word) => `«${word}»`).join(" ")} |`;
    }),
  ].join("\n");
}

export const DOC_BLOCKS: readonly DocBlock[] = [
  { file: "docs/api.md", name: "sensor kinds", text: () => SENSOR_KIND_NAMES.join("\\|"), inline: true },
  { file: "docs/architecture.md", name: "sensor kinds table", text: sensorKindTable },
  { file: "docs/api.md", name: "calculation types", text: typeList },
  { file: "README.md", name: "type count", text: () => String(CALCULATION_TYPES.length), inline: true },
  { file: "README.md", name: "depth sizes", text: depthSizes, inline: true },
  { file: "docs/testing.md", name: "test files", text: testFileCounts },
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
