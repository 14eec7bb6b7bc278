// A shape is written once: as the zod schema the route validates and documents with, its type
// being z.input/z.output of it. This lists exported interfaces under functions/src and web/src
// whose every field is a field of one schema of the contract (its schemas/ and routes/), whatever their names: such an
// interface only repeats the schema, and goes stale when the schema changes. So does one that holds
// every field of a schema and at most two more (a stored comment's company, a user's password
// hash): it is the schema's type and those fields. A storage record that holds much more
// (ports/calculation.ts StoredCalculation: inputs, results, file) is no twin.
// Nor is a type named as a schema's own type (exportJobSchema → ExportJob) anywhere else unless it is
// that schema's type or built on it: one name, one concept (a stored record takes another name).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod";

const ROOT = resolve(import.meta.dirname, "../../..");

/** Every module of the contract that declares schemas, the routes' own among them. */
const SCHEMA_MODULES: Array<[string, Record<string, unknown>]> = await Promise.all(
  ["schemas", "routes"].flatMap((folder) =>
    readdirSync(join(import.meta.dirname, folder))
      .filter((name) => /\.ts$/.test(name) && !/\.test\.ts$/.test(name))
      .map(async (name): Promise<[string, Record<string, unknown>]> => [`${folder}/${name}`, await import(`./${folder}/${name}`)]),
  ),
);

/** Type name → the field names of the object schema it would be the type of. */
function schemaFields(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [, module] of SCHEMA_MODULES) {
    for (const [name, value] of Object.entries(module)) {
      if (!name.endsWith("Schema") || !(value instanceof z.ZodObject)) continue;
      const type = name[0].toUpperCase() + name.slice(1, -"Schema".length);
      out.set(type, new Set(Object.keys(value.shape)));
    }
  }
  return out;
}

/** Every schema's type name (exportJobSchema → ExportJob), whatever its kind, across the contract. */
function schemaTypeNames(): Set<string> {
  const out = new Set<string>();
  for (const [, module] of SCHEMA_MODULES) {
    for (const [name, value] of Object.entries(module)) {
      if (!name.endsWith("Schema") || name === "Schema" || !(value instanceof z.ZodType)) continue;
      out.add(name[0].toUpperCase() + name.slice(1, -"Schema".length));
    }
  }
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Exported interfaces, and type aliases of an object literal, with their own top-level field
 *  names (from the source text). */
function exportedInterfaces(text: string): Array<{ name: string; fields: string[] }> {
  const out: Array<{ name: string; fields: string[] }> = [];
  for (const m of text.matchAll(/^export (?:interface (\w+)[^{=]*|type (\w+)(?:<[^=]*>)? = )\{\n([\s\S]*?)^\}/gm)) {
    const fields = [...m[3].matchAll(/^ {2}(?:readonly )?["']?(\w+)["']?\??:/gm)].map((f) => f[1]);
    out.push({ name: m[1] ?? m[2], fields });
  }
  return out;
}

/** Exported interfaces and type aliases by name, with the text that declares them (an alias up to
 *  the next blank line or export, enough to see what it is built on). */
function exportedTypes(text: string): Array<{ name: string; declaration: string }> {
  return [...text.matchAll(/^export (interface|type) (\w+)([\s\S]*?)(?=\n\n|\nexport |$(?![\s\S]))/gm)].map((m) => ({
    name: m[2],
    declaration: `${m[1]} ${m[2]}${m[3]}`,
  }));
}

/** A type named as a schema's type that is not built on it: an interface, an object literal, or an
 *  alias built on another schema (another shape under the schema's name). One built on the schema
 *  (its `typeof …Schema`, the contract's view of it) or on the typed client's answer is its type. */
function isNameTwin(schemaTypes: Set<string>, { name, declaration }: { name: string; declaration: string }): boolean {
  if (!schemaTypes.has(name)) return false;
  const own = `${name[0].toLowerCase()}${name.slice(1)}Schema`;
  if (new RegExp(String.raw`\b(?:${own}|${name}View)\b`).test(declaration)) return false;
  return declaration.startsWith("interface ") || /^type \w+(?:<[^=]*>)? = \{/.test(declaration) || /\b\w+Schema\b/.test(declaration);
}

/** Interfaces that share a schema's field names with other types on purpose. */
const NOT_TWINS: Record<string, string> = {
  // The project dialog's fields as typed (the reporting year as text, blank allowed), before parsing.
  "web/src/features/projects/projectForm.ts: ProjectDraft": "the form as typed",
  // The shipped catalogue's documents: every requisite given, where a create may leave them out.
  "functions/src/documents/catalogue.ts: CatalogueEntry": "the catalogue as shipped",
};

/** The schemas an interface repeats, whatever its name: every field of it is the schema's, and it
 *  declares at least half of the schema's fields, or it declares every field of the schema and at
 *  most two more (four fields at least either way, so that a small shape such as { id, name } is
 *  no twin of every schema that has them). */
function twinsOf(schemas: Map<string, Set<string>>, fields: string[]): string[] {
  if (fields.length < 4) return [];
  const repeats = (own: Set<string>) => fields.every((field) => own.has(field)) && fields.length * 2 >= own.size;
  const holdsAll = (own: Set<string>) =>
    own.size >= 4 && [...own].every((field) => fields.includes(field)) && fields.length - own.size <= 2;
  return [...schemas].filter(([, own]) => repeats(own) || holdsAll(own)).map(([type]) => type);
}

describe("no interface twins of the contract's schemas", () => {
  it("reads an interface's fields", () => {
    expect(exportedInterfaces("export interface A {\n  id: string;\n  b?: {\n    c: number;\n  };\n}\n")).toEqual([
      { name: "A", fields: ["id", "b"] },
    ]);
    expect(exportedInterfaces("export type B = {\n  id: string;\n  name?: string;\n};\n")).toEqual([{ name: "B", fields: ["id", "name"] }]);
    const schemas = new Map([["Model", new Set(["id", "version", "library", "objective", "file_name", "uploaded_by"])]]);
    expect(twinsOf(schemas, ["id", "version", "library", "file_name"])).toEqual(["Model"]);
    expect(twinsOf(schemas, ["id", "version", "library", "blob_key"])).toEqual([]);
    // A stored record of the schema's every field and its key.
    expect(twinsOf(schemas, ["id", "version", "library", "objective", "file_name", "uploaded_by", "blob_key"])).toEqual(["Model"]);
    expect(twinsOf(schemas, ["id", "version", "library", "objective", "file_name", "uploaded_by", "a", "b", "c"])).toEqual([]);
  });

  it("tells a type built on its schema from a name twin", () => {
    const names = new Set(["ExportJob", "Calculation"]);
    expect(isNameTwin(names, exportedTypes("export interface ExportJob {\n  job: string;\n}\n")[0])).toBe(true);
    expect(isNameTwin(names, exportedTypes("export type ExportJob = z.output<typeof exportJobSchema>;\n")[0])).toBe(false);
    expect(isNameTwin(names, exportedTypes("export type Calculation = CalculationView & {\n  type: string;\n};\n")[0])).toBe(false);
    expect(isNameTwin(names, exportedTypes("export type Calculation = {\n  id: string;\n};\n")[0])).toBe(true);
    expect(isNameTwin(names, exportedTypes("export type Calculation = z.output<typeof storedSchema>;\n")[0])).toBe(true);
    expect(isNameTwin(names, exportedTypes('export type ExportJob = InferResponseType<Client<"jobs">["$get"], 200>;\n')[0])).toBe(false);
    expect(isNameTwin(names, exportedTypes("export type Other = { a: 1 };\n")[0])).toBe(false);
    expect(schemaTypeNames()).toContain("ExportJob");
  });

  it("finds no type under functions/src and web/src named as a schema's and not built on it", () => {
    const names = schemaTypeNames();
    const contract = join(ROOT, "functions/src/contract");
    const twins = [join(ROOT, "functions/src"), join(ROOT, "web/src")]
      .flatMap(sources)
      .filter((file) => !file.startsWith(contract))
      .flatMap((file) =>
        exportedTypes(readFileSync(file, "utf8"))
          .filter((type) => isNameTwin(names, type))
          .map(({ name }) => `${relative(ROOT, file)}: ${name}`),
      );
    expect(twins).toEqual([]);
  });

  it("finds none under functions/src and web/src", () => {
    const schemas = schemaFields();
    expect(schemas.get("Company")?.has("ogrn")).toBe(true);
    const twins = [join(ROOT, "functions/src"), join(ROOT, "web/src")].flatMap(sources).flatMap((file) =>
      exportedInterfaces(readFileSync(file, "utf8"))
        .filter(({ name }) => !NOT_TWINS[`${relative(ROOT, file)}: ${name}`])
        .flatMap(({ name, fields }) => twinsOf(schemas, fields).map((schema) => `${relative(ROOT, file)}: ${name} (${schema})`)),
    );
    expect(twins).toEqual([]);
  });
});
