// The layers of functions/src point one way: a module imports only from its own layer or the ones
// below it (docs/architecture.md «Contract and layers»). A type-only import may point anywhere:
// it leaves nothing in the bundle and no load order. Read from the source text, like the linter.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = import.meta.dirname;

/** Lowest first. A path is matched by its longest listed prefix. */
const LAYERS: string[][] = [
  ["dictionaries/", "documents/"],
  ["contract/"],
  ["files/", "config.ts"],
  ["ports/"],
  ["domain/"],
  ["export/"],
  ["adapters/", "events/", "http/"],
  ["app.ts", "seed.ts", "demo-year.ts", "demo-readings.ts"],
  ["lambda/", "local/", "lambda.ts", "local.ts"],
  ["admin/"],
];

function layerOf(path: string): number {
  let best = -1;
  let length = -1;
  LAYERS.forEach((prefixes, layer) => {
    for (const prefix of prefixes) {
      if ((path === prefix || path.startsWith(prefix)) && prefix.length > length) [best, length] = [layer, prefix.length];
    }
  });
  return best;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mjs)$/.test(name) && !/\.(test|d)\.ts$/.test(name) ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = specifier.startsWith("@server/")
    ? join(SRC, specifier.slice("@server/".length))
    : specifier.startsWith(".")
      ? resolve(dirname(from), specifier)
      : undefined;
  if (!base) return undefined;
  for (const candidate of [base, `${base}.ts`, join(base, "index.ts")]) {
    try {
      if (statSync(candidate).isFile()) return relative(SRC, candidate);
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** Inside the domain, lowest first: the shared files at its root (context, errors, ids, dates,
 *  the change log, heavy work, export jobs, the calculation lookup, signed tokens), then the
 *  feature folders. Type-only imports count here too: a folder's types are its own. */
const DOMAIN_FOLDERS: string[] = [
  "domain/files/",
  "domain/reference/",
  "domain/inventory/",
  "domain/company/",
  "domain/forecast/",
  "domain/calculations/",
  // The monitoring wing, in the order a reading walks it: what comes in (the register, the
  // push, the dispatch files), the minute items written and what is derived from them (day items, offers, substitution), what is
  // derived from them (events and their webhooks, the shift report), the live tiles and the forecaster.
  "domain/monitoring/ingest/",
  "domain/monitoring/minutes/",
  // the instruments' own record (checks, what is due, verifications, the facility's shifts),
  // which the journal and the handover read.
  "domain/monitoring/instruments/",
  "domain/monitoring/derive/",
  "domain/monitoring/live/",
  // the shift handover, filled from the live tiles and the checks' states.
  "domain/monitoring/handover/",
  // An assessment takes an accepted АГК month's measured hours from its evidence.
  "domain/abatement/",
  // A climate project's periods read the facility's register and its stored minutes.
  "domain/climate/",
  "domain/admin/",
];

function domainLevelOf(path: string): number {
  const folder = DOMAIN_FOLDERS.findIndex((prefix) => path.startsWith(prefix));
  if (folder >= 0) return folder + 1;
  return /^domain\/[^/]+$/.test(path) ? 0 : -1;
}

/** Every `import …`/`export … from` specifier, type-only ones included. */
function allImports(text: string): string[] {
  return [...text.matchAll(/^(?:import|export)\s+[^;]*?\s*from\s*"([^"]+)"/gms), ...text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)].map(
    (m) => m[1],
  );
}

/** `import …`/`export … from` statements that load the module at run time. */
function valueImports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^(import|export)\s+([^;]*?)\s*from\s*"([^"]+)"/gms)) {
    const clause = m[2];
    if (/^type\s/.test(clause)) continue;
    const names = /\{([^}]*)\}/.exec(clause);
    const bare = clause.replace(/\{[^}]*\}/, "").replace(/[\s,]/g, "");
    if (names && !bare && names[1].split(",").every((n) => !n.trim() || /^type\s/.test(n.trim()))) continue;
    out.push(m[3]);
  }
  for (const m of text.matchAll(/^import\s+"([^"]+)"/gm)) out.push(m[1]);
  for (const m of text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)) out.push(m[1]);
  return out;
}

describe("the layers of functions/src", () => {
  const files = sources(SRC).map((path) => relative(SRC, path));

  it("place every module", () => {
    expect(files.filter((file) => layerOf(file) < 0)).toEqual([]);
  });

  it("import nothing from a layer above (type-only imports aside)", () => {
    const upward: string[] = [];
    for (const file of files) {
      for (const specifier of valueImports(readFileSync(join(SRC, file), "utf8"))) {
        const target = resolveImport(join(SRC, file), specifier);
        if (target && layerOf(target) > layerOf(file)) upward.push(`${file} -> ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  // a port names what the domain needs from outside, never the domain's own types
  // (a module's kept state is its own, ports/runtime.ts names only the key).
  it("hold the ports apart from the domain: no port imports from domain/, type-only imports included", () => {
    const fromDomain: string[] = [];
    for (const file of files.filter((f) => f.startsWith("ports/"))) {
      for (const specifier of allImports(readFileSync(join(SRC, file), "utf8"))) {
        if (resolveImport(join(SRC, file), specifier)?.startsWith("domain/")) fromDomain.push(`${file} -> ${specifier}`);
      }
    }
    expect(fromDomain).toEqual([]);
  });

  it("sees an upward import when there is one", () => {
    expect(valueImports('import { Invalid } from "../domain/errors";\nimport type { X } from "../http/env";\n')).toEqual([
      "../domain/errors",
    ]);
    expect(valueImports('import { type A, type B } from "./a";\nexport { c } from "./c";\n')).toEqual(["./c"]);
    expect(layerOf("files/tabular.ts")).toBeLessThan(layerOf("domain/errors.ts"));
  });
});

describe("docs/architecture.md's list of the layers", () => {
  it("names every layer's files and every feature folder of the domain", () => {
    const doc = readFileSync(join(SRC, "../../docs/architecture.md"), "utf8");
    const list = doc.slice(doc.indexOf("**Layers of `functions/src`**"), doc.indexOf("\n\n", doc.indexOf("1. `dictionaries/`")));
    const named = [...LAYERS.flat(), ...DOMAIN_FOLDERS.map((folder) => folder.slice("domain/".length))];
    expect(named.filter((name) => !list.includes(`\`${name}\``))).toEqual([]);
  });
});

describe("the feature folders of functions/src/domain", () => {
  const files = sources(join(SRC, "domain")).map((path) => relative(SRC, path));

  it("hold every module but the shared ones at the root", () => {
    expect(files.filter((file) => domainLevelOf(file) < 0)).toEqual([]);
  });

  it("import nothing from a folder above, type-only imports included", () => {
    const upward: string[] = [];
    for (const file of files) {
      for (const specifier of allImports(readFileSync(join(SRC, file), "utf8"))) {
        const target = resolveImport(join(SRC, file), specifier);
        if (target?.startsWith("domain/") && domainLevelOf(target) > domainLevelOf(file)) upward.push(`${file} -> ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("sees an import from a folder above when there is one", () => {
    expect(allImports('import type { A } from "../forecast/file";\n')).toEqual(["../forecast/file"]);
    expect(domainLevelOf("domain/inventory/year.ts")).toBeLessThan(domainLevelOf("domain/calculations/projects.ts"));
    expect(domainLevelOf("domain/context.ts")).toBe(0);
  });
});

/** Module-level state of the domain: a registry (WeakMap), a variable at the top of a module, a timer
 *  started as the module loads. The host owns what runs: its runtime, passed in Deps
 *  (domain/context.ts, Runtime: a module declares the cache, queue or watch it keeps as a KeptState,
 *  ports/runtime.ts, and the host's runtime makes it when first asked, events/runtime.ts). */
const RUNTIME_STATE =
  /new WeakMap\b|^let\s|^var\s|^(?:(?:export\s+)?(?:const|let|var)\s+\w+(?:\s*:[^=]+)?\s*=\s*)?(?:setInterval|setTimeout)\(/;

/** A collection made at the top of a module (a cache, a table of what is in flight): state when the
 *  module changes it (`.set`, `.delete`, `.add`, `.clear`), a constant lookup table when it does not. */
const TOP_COLLECTION = /^(?:export\s+)?const\s+(\w+)(?:\s*:[^=]+)?\s*=\s*(new\s+(?:Map|Set)\b|byteBudgetCache\b)/;

function runtimeStateOf(file: string, text: string): string[] {
  const lines = text.split("\n").map((line, i) => ({ line, n: i + 1 }));
  const changed = (name: string) => new RegExp(`\\b${name}\\.(?:set|delete|add|clear)\\(`).test(text);
  return lines
    .filter(({ line }) => {
      if (RUNTIME_STATE.test(line)) return true;
      const collection = TOP_COLLECTION.exec(line);
      return collection !== null && (collection[2] === "byteBudgetCache" || changed(collection[1]));
    })
    .map(({ line, n }) => `${file}:${n}: ${line.trim()}`);
}

describe("the domain's runtime", () => {
  const files = sources(join(SRC, "domain")).map((path) => relative(SRC, path));

  it("is the host's: no module of functions/src/domain holds a registry, a top-level variable or a timer", () => {
    expect(files.flatMap((file) => runtimeStateOf(file, readFileSync(join(SRC, file), "utf8")))).toEqual([]);
  });

  it("sees runtime state where there is some", () => {
    const probe = [
      "const listeners = new WeakMap<object, Set<() => void>>();",
      "let lagged: Promise<number> | undefined;",
      "const tick = setInterval(() => undefined, 1000);",
      "setTimeout(() => undefined, 10);",
      "  const local = new WeakMap();",
      "const seen = keptState('seen', () => new Map<string, number>());",
      "  let inside = 0;",
      "  const timer = setInterval(tick, 5);",
      "const kept = new Map<string, number>();",
      "const KINDS = new Map([['a', 1]]);",
      "const answers = byteBudgetCache<unknown>(1024);",
      "export function keep(k: string) { kept.set(k, KINDS.get(k) ?? 0); answers.forget(() => true); }",
      "const gone = new Set<string>();",
      "gone.add('x');",
    ].join("\n");
    expect(runtimeStateOf("domain/probe.ts", probe).map((l) => l.split(":")[1])).toEqual(["1", "2", "3", "4", "5", "9", "11", "13"]);
  });
});

describe("the local host and the engine's store", () => {
  const ROOT = join(SRC, "../..");
  /** Every file under `dir`, relative to the repository. */
  const files = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
      .map((name) => join(dir, name))
      .filter((path) => statSync(join(ROOT, path)).isFile());

  it("are TypeScript the compiler checks: no plain JavaScript, no hand-written .d.mts", () => {
    const unchecked = [...files("functions/src"), ...files("packages/dynalite/db")].filter((path) => /\.(mjs|cjs|d\.mts)$/.test(path));
    expect(unchecked).toEqual([]);
  });

  it("reach the fork's engine through its index alone: nothing requires its actions/ or validations/ by path", () => {
    const reaching = [...files("functions"), ...files("tests"), ...files("tools")]
      .filter((path) => /\.(ts|mts|mjs|js)$/.test(path))
      .filter((path) =>
        /(require\(|from |import\()\s*["'`][^"'`]*dynalite\/(actions|validations)\//.test(readFileSync(join(ROOT, path), "utf8")),
      );
    expect(reaching).toEqual([]);
  });
});
