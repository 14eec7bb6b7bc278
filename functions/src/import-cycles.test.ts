// No import cycle in the product's sources (functions/src, web/src, wasm-core/src), type-only imports
// included: a cycle of types still ties modules that should be read one after the other. Read from
// the source text, like layers.test.ts.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const ROOTS = ["functions/src", "web/src", "wasm-core/src"];
const ALIASES: Record<string, string> = { "@server/": "functions/src/", "@core/": "wasm-core/src/", "@web/": "web/src/" };

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx|mjs)$/.test(name) && !/\.(test|d)\.tsx?$/.test(name) ? [relative(ROOT, path)] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  const alias = Object.keys(ALIASES).find((prefix) => specifier.startsWith(prefix));
  const base = alias
    ? join(ROOT, ALIASES[alias], specifier.slice(alias.length))
    : specifier.startsWith(".")
      ? resolve(ROOT, dirname(from), specifier)
      : undefined;
  if (!base) return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    try {
      if (statSync(candidate).isFile()) return relative(ROOT, candidate);
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** Every module a file names: imports and re-exports, type-only ones too, and dynamic imports. */
function importedSpecifiers(text: string): string[] {
  return [
    ...[...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/gms)].map((m) => m[1]),
    ...[...text.matchAll(/^import\s+["']([^"']+)["']/gm)].map((m) => m[1]),
    ...[...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]),
  ];
}

/** The strongly connected components of more than one file (Tarjan), each sorted. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("the import graph", () => {
  it("has no cycle, type-only imports included", () => {
    const graph = new Map<string, string[]>();
    for (const file of ROOTS.flatMap((root) => sources(join(ROOT, root)))) {
      const targets = importedSpecifiers(readFileSync(join(ROOT, file), "utf8")).map((s) => resolveImport(file, s));
      graph.set(
        file,
        targets.filter((t): t is string => t !== undefined),
      );
    }
    expect(graph.size).toBeGreaterThan(300);
    expect(cycles(graph)).toEqual([]);
  });

  it("sees a cycle through a type-only import", () => {
    expect(importedSpecifiers('import type { A } from "./a";\nexport { b } from "@core/b";\nconst c = import("./c");\n')).toEqual([
      "./a",
      "@core/b",
      "./c",
    ]);
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(cycles(graph)).toEqual([["a", "b", "c"]]);
  });
});
