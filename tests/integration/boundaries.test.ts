// The import rules of biome.json bite: probes that break each boundary, linted with the project's
// own configuration in a scratch copy of its layout, are refused. The repository itself is linted
// by `npm run lint` in `npm test`.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const BIOME = join(ROOT, "node_modules/.bin/biome");
const scratch = mkdtempSync(join(tmpdir(), "boundaries-"));
copyFileSync(join(ROOT, "biome.json"), join(scratch, "biome.json"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A probe's path in the scratch copy: each probe a file of its own in its folder, so all are linted
 *  together; the folder is what biome.json's rules go by. */
let probes = 0;
const probePath = (path: string) => path.replace(/\/probe\.ts$/, () => `/probe-${++probes}.ts`);

const pending: Record<string, string> = {};
/** Puts `files` among the probes and returns a function that gives their diagnostics (file: text),
 *  read by one biome run over every probe put so far: a run of its own for each of the 20 probes
 *  cost the file 2 s of its 13 s of CPU (load 12-17). */
function probe(files: Record<string, string>): () => string {
  const paths = Object.keys(files);
  Object.assign(pending, files);
  return () =>
    paths
      .map((path) => {
        const found = linted().get(path);
        expect(found, `${path} was not linted`).toBeDefined();
        return found;
      })
      .join("\n");
}

let lintResult: Map<string, string> | undefined;
/** The diagnostics of every pending probe, per file ("" for a file with none), from one run. */
function linted(): Map<string, string> {
  if (lintResult) return lintResult;
  for (const [path, text] of Object.entries(pending)) {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), text);
  }
  const paths = Object.keys(pending);
  const run = spawnSync(BIOME, ["lint", `--max-diagnostics=${20 * paths.length}`, "--config-path", scratch, ...paths], {
    cwd: scratch,
    encoding: "utf8",
  });
  const out = run.stdout + run.stderr;
  expect(out).toMatch(new RegExp(`Checked ${paths.length} files`));
  // Each diagnostic begins with a line "path:line:column rule ━━━", and runs to the next such line.
  const byFile = new Map(paths.map((path) => [path, ""]));
  let current: string | undefined;
  for (const line of out.split("\n")) {
    const header = /^(\S+):\d+:\d+ /.exec(line);
    if (header) current = byFile.has(header[1]) ? header[1] : undefined;
    else if (/^Checked \d+ files/.test(line)) current = undefined;
    if (current !== undefined) byFile.set(current, `${byFile.get(current)}${line}\n`);
  }
  lintResult = byFile;
  return byFile;
}

describe("boundaries the linter enforces", () => {
  it.each(
    [
      ["functions/src/domain/probe.ts", 'import { Hono } from "hono";\nexport const x = Hono;\n', /HTTP framework/],
      ["functions/src/domain/probe.ts", 'import { S3Client } from "@aws-sdk/client-s3";\nexport const x = S3Client;\n', /AWS SDK/],
      ["functions/src/domain/probe.ts", 'import { x as y } from "../lambda/deps";\nexport const x = y;\n', /no host, adapter or route/],
      [
        "web/src/features/probe.ts",
        'import type { X } from "../../../functions/src/domain/inventory/year";\nexport type Y = X;\n',
        /only through its contract/,
      ],
      [
        "web/src/features/probe.ts",
        'import type { X } from "@server/domain/inventory/year";\nexport type Y = X;\n',
        /only through its contract/,
      ],
      ["web/src/features/probe.ts", 'import type { User } from "@server/ports";\nexport type Y = User;\n', /only through its contract/],
      [
        "web/src/features/probe.ts",
        'import { PROJECT_NAME_MAX } from "@server/contract/schemas/project";\nexport const y = PROJECT_NAME_MAX;\n',
        /only through its contract/,
      ],
      ["functions/src/export/probe.ts", 'import * as XLSX from "xlsx";\nexport const x = XLSX;\n', /xls-writer\.ts/],
      [
        "web/src/features/inventory/probe.ts",
        'import { formatAmount } from "../calculations/format";\nexport const x = formatAmount;\n',
        /A feature imports no other feature/,
      ],
      [
        "web/src/features/shell/probe.ts",
        'import { ProfilePage } from "@web/features/profile/ProfilePage";\nexport const x = ProfilePage;\n',
        /A feature imports no other feature/,
      ],
      [
        "web/src/features/monitoring/live/probe.ts",
        'import { formatAmount } from "../../calculations/format";\nexport const x = formatAmount;\n',
        /A feature imports no other feature/,
      ],
      [
        "web/src/features/monitoring/derive/probe.ts",
        'import { ProfilePage } from "@web/features/profile/ProfilePage";\nexport const x = ProfilePage;\n',
        /A feature imports no other feature/,
      ],
      [
        "web/src/features/monitoring/live/probe.ts",
        'import type { User } from "@server/ports";\nexport type Y = User;\n',
        /only through its contract/,
      ],
      [
        "web/src/shared/probe.ts",
        'import { Shell } from "../features/shell/Shell";\nexport const x = Shell;\n',
        /sit below the features and the app/,
      ],
      [
        "web/src/api/probe.ts",
        'import { signOut } from "../app/session";\nexport const x = signOut;\n',
        /sit below the features and the app/,
      ],
      [
        "functions/src/contract/routes/probe.ts",
        'import { Invalid } from "../../domain/errors";\nexport const x = Invalid;\n',
        /no domain, no ports, no implementation, no Node/,
      ],
      [
        "functions/src/contract/schemas/probe.ts",
        'import type { User } from "../../ports";\nexport type X = User;\n',
        /no domain, no ports, no implementation, no Node/,
      ],
      [
        "functions/src/contract/schemas/probe.ts",
        'import type { User } from "../../ports/user";\nexport type X = User;\n',
        /no domain, no ports, no implementation, no Node/,
      ],
      [
        "functions/src/contract/views.ts",
        'import { readFileSync } from "node:fs";\nexport const x = readFileSync;\n',
        /no domain, no ports, no implementation, no Node/,
      ],
    ].map(([path, text, message]) => [path, probe({ [probePath(path as string)]: text as string }), message] as const),
  )("refuses %s importing what it must not", (_path, diagnostics, message) => {
    expect(diagnostics()).toMatch(message);
  });

  const cycle = probe({
    "functions/src/domain/a.ts": 'import { b } from "./b";\nexport const a = () => b();\n',
    "functions/src/domain/b.ts": 'import { a } from "./a";\nexport const b = () => a();\n',
  });
  it("refuses an import cycle", () => {
    expect(cycle()).toMatch(/noImportCycles/);
  });

  const contract = probe({
    [probePath("web/src/features/probe.ts")]: 'import { PROJECT_NAME_MAX } from "@server/contract";\nexport const y = PROJECT_NAME_MAX;\n',
  });
  it("lets the web import the contract", () => {
    expect(contract()).not.toMatch(/noRestrictedImports/);
  });

  const ownImports = probe({
    [probePath("web/src/features/inventory/probe.ts")]:
      'import { a } from "./a";\nimport { b } from "../../shared/decimals";\nimport { c } from "../../api/client";\nimport { d } from "../../app/session";\nexport const x = [a, b, c, d];\n',
  });
  it("lets a feature import its own files, shared/, api/ and app/", () => {
    expect(ownImports()).not.toMatch(/noRestrictedImports/);
  });

  // web/src/shared, the web app's own folder (not the repository's neighbour), reached from a feature's subfolder.
  const WEB_SHARED_MODULE = "shared/decimals";
  const ownParts = probe({
    [probePath("web/src/features/monitoring/derive/probe.ts")]:
      'import { a } from "./a";\nimport { b } from "../minutes/b";\nimport { c } from "../MonitoringHead";\nimport { d } from "../../../' +
      WEB_SHARED_MODULE +
      '";\nimport { e } from "../../../api/client";\nexport const x = [a, b, c, d, e];\n',
  });
  it("lets a file in a feature's folder import its feature's other folders, shared/ and api/", () => {
    expect(ownParts()).not.toMatch(/noRestrictedImports/);
  });

  const xlsWriter = probe({ "functions/src/export/xls-writer.ts": 'import * as XLSX from "xlsx";\nexport const x = XLSX;\n' });
  it("lets SheetJS into the xls writer", () => {
    expect(xlsWriter()).not.toMatch(/noRestrictedImports/);
  });
});

// The browser's and Node's type checks (web/tsconfig.json, tsconfig.json): a probe checked alone
// with each configuration, in the repository (so its paths and types resolve) and removed after.
function typecheck(config: string, path: string, text: string, globals: string[] = []): string {
  const probeConfig = join(ROOT, `tsconfig.probe-${process.pid}.json`);
  writeFileSync(join(ROOT, path), text);
  // Not incremental: the probe's program must not overwrite the real check's build info.
  const compilerOptions = { incremental: false, tsBuildInfoFile: null };
  writeFileSync(probeConfig, JSON.stringify({ extends: `./${config}`, compilerOptions, include: [], files: [path, ...globals] }));
  try {
    // One checker: tsc's default of four each check the contract's zod types again, which cost the
    // third probe 5,5-6,3 s of CPU against 2,4-2,7 s with one (the answer is the same).
    const run = spawnSync(join(ROOT, "node_modules/.bin/tsc"), ["-p", probeConfig, "--checkers", "1"], { cwd: ROOT, encoding: "utf8" });
    return run.stdout + run.stderr;
  } finally {
    rmSync(join(ROOT, path), { force: true });
    rmSync(probeConfig, { force: true });
  }
}

// A whole tsc run each: on a loaded machine well past the default timeout.
describe("type checks per runtime", { timeout: 180_000 }, () => {
  it("the browser's has no Node types", () => {
    const out = typecheck(
      "web/tsconfig.json",
      "web/src/boundary-probe.ts",
      'export const x = Buffer.from("a").length + Number(process.env.X);\n',
    );
    expect(out).toMatch(/Cannot find name 'Buffer'/);
    expect(out).toMatch(/Cannot find name 'process'/);
  });

  it("Node's has no DOM, but has WebAssembly", () => {
    const out = typecheck(
      "tsconfig.json",
      "functions/src/boundary-probe.ts",
      "export const x = [document.title, typeof WebAssembly.Memory];\n",
      // What tsconfig.json's include adds for Node: WebAssembly's declarations.
      ["wasm-core/src/webassembly.d.ts"],
    );
    expect(out).toMatch(/Cannot find name 'document'/);
    expect(out).not.toMatch(/WebAssembly/);
  });

  it("the browser's reaches the server's contract and nothing of its implementation", () => {
    const probe =
      'import type { CalculationView, RoutesOf } from "@server/contract";\nexport type X = [RoutesOf<"calculations">, CalculationView];\n';
    expect(typecheck("web/tsconfig.json", "web/src/boundary-probe.ts", probe)).toBe("");
  });
});
