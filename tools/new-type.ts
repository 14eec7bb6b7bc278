// `npm run new-type -- <name>`: scaffolds a formula calculation type through the recipe of
// docs/architecture.md («Adding a calculation type»): its module (wasm-core/src/types/<name>.ts), its
// line in the registry, a kernel stub in the core (assembly/emissions.ts: `kernel_<name>`, which the
// facade's typed map of kernels needs to compile) and a dictionary entry (reference-data.json), four
// files, then writes the docs' generated blocks. What it cannot know is left as FILL_IN, which the type check refuses wherever it
// stands, and the kernel stub refuses every row, so the type's worked examples fail until its formula
// is written: nothing half-made passes `npm run typecheck` or the unit tier.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

const ROOT = join(import.meta.dirname, "..");
const at = (path: string) => join(ROOT, path);

/** Puts `text` before the first match of `anchor` in the file, failing when the anchor is not there. */
function insertBefore(path: string, anchor: RegExp, text: string): void {
  const source = readFileSync(at(path), "utf8");
  const match = anchor.exec(source);
  if (!match) throw new Error(`${path}: no place for the new type (${anchor})`);
  writeFileSync(at(path), source.slice(0, match.index) + text + source.slice(match.index));
}

export function moduleText(name: string): string {
  return `// ${name}: the type's registry entry, scaffolded by \`npm run new-type -- ${name}\`. Every FILL_IN is a
// compile error until it is replaced by the type's own part (docs/architecture.md, «Adding a calculation type»).
import type { BalanceRole, CalculationDefinition, InventorySource, MethaneDestruction, ReferenceCategory, VectorRow, WorkedExamples } from "./definition";
import { FILL_IN } from "./definition";
import { CH4_RESULTS, emissionsCore } from "./fields";

export const definition = {
  title: FILL_IN,
  kind: "formula",
  methodology: FILL_IN,
  inputs: FILL_IN,
  ...CH4_RESULTS,
  dictionaries: [{ dictionary: "get_${name}", fields: FILL_IN }],
  editable: true,
  core: emissionsCore("${name}"),
} as const satisfies CalculationDefinition;

/** What the type contributes to the year's inventory, or null: it never counts. Its \`since\` is the
 *  day it is offered (${new Date().toISOString().slice(0, 10)}): a version approved before keeps its pack's
 *  rules.json without it. */
export const inventory: InventorySource | null = FILL_IN;

/** Its part in the methane balance, or null; a destruction type gives its destroyed methane too. */
export const balance: BalanceRole | null = FILL_IN;
export const destroys: MethaneDestruction | null = FILL_IN;

/** Its category on the reference page (/dictionary), or null. */
export const reference: ReferenceCategory | null = FILL_IN;

/** Its worked examples: the methodology's section and the rows of inputs and results. */
export const vectors: WorkedExamples<readonly VectorRow[]> = {
  section: FILL_IN,
  examples: [],
};
`;
}

function kernelStub(name: string): string {
  return `// ${name}: scaffolded by \`npm run new-type -- ${name}\`. Until its formula is written here it refuses
// every batch (-1), so no calculation of the type computes and its worked examples fail.
export function kernel_${name}(inp: usize, out: usize, stride: i32, rows: i32, gwp_ch4: f64, checked: bool): i32 {
  return -1;
}

`;
}

export function newType(name: string): string[] {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`«${name}»: a type's key is lower case letters, digits and _`);
  const modulePath = `wasm-core/src/types/${name}.ts`;
  if (existsSync(at(modulePath))) throw new Error(`${modulePath} exists already`);
  const touched: string[] = [];

  writeFileSync(at(modulePath), moduleText(name));
  touched.push(modulePath);

  const registry = readFileSync(at("wasm-core/src/registry.ts"), "utf8");
  const lastModule = [...registry.matchAll(/^import \* as \w+ from "\.\/types\/\w+";\n/gm)].at(-1);
  if (!lastModule) throw new Error("wasm-core/src/registry.ts: no type module imported");
  const after = lastModule.index + lastModule[0].length;
  writeFileSync(
    at("wasm-core/src/registry.ts"),
    `${registry.slice(0, after)}import * as ${name} from "./types/${name}";\n${registry.slice(after)}`,
  );
  insertBefore("wasm-core/src/registry.ts", /\} as const satisfies Record<string, CalculationModule>;/, `  ${name},\n`);
  touched.push("wasm-core/src/registry.ts");

  const kernel = "wasm-core/assembly/emissions.ts";
  insertBefore(kernel, /\/\/ Row i of column c of the fixed buffers, for 4\.11 and 4\.12\./, kernelStub(name));
  touched.push(kernel);

  const dataPath = "functions/src/dictionaries/reference-data.json";
  // The entry goes in as text at the end of the dictionaries' list, the rest of the file as it was.
  const data = readFileSync(at(dataPath), "utf8");
  const end = closingBracket(data, data.indexOf("[", data.indexOf('"dictionaries"')));
  const entry = { name: `get_${name}`, title: "FILL IN: the dictionary's title", labels: {}, items: [] };
  const before = data.slice(0, end).replace(/\s*$/, "");
  writeFileSync(at(dataPath), `${before},\n    ${JSON.stringify(entry)}\n  ${data.slice(end)}`);
  JSON.parse(readFileSync(at(dataPath), "utf8"));
  touched.push(dataPath);

  return touched;
}

/** The index of the `]` that closes the `[` at `open`, strings skipped. */
function closingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      depth--;
      if (depth === 0) return i;
    }
  }
  throw new Error("reference-data.json: the dictionaries' list does not close");
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const name = process.argv[2];
  if (!name) {
    console.error("usage: npm run new-type -- <type_key>");
    process.exit(2);
  }
  const touched = newType(name);
  console.log(`scaffolded ${name}:\n  ${touched.join("\n  ")}`);
  // The docs' lists are written from the registry as a new process reads it (this one read it before).
  const docs = spawnSync(process.execPath, ["--import", "tsx", at("tests/support/doc-blocks.ts"), "--write"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  console.log(docs.status === 0 ? docs.stdout.trim() : "the docs' blocks: run npm run docs:generate once the module is filled");
  console.log(
    "Fill in every FILL_IN of the module, the kernel kernel_" +
      `${name} in wasm-core/assembly/emissions.ts and the dictionary's items; npm run typecheck and the unit tier say what is left.`,
  );
}
