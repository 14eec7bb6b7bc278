// Initial JavaScript of each web route, gzipped: what a browser downloads before the page can
// render — the entry chunk with its static imports (index.html's script and modulepreloads), plus
// the route's lazy page chunks (web/src/app/router.tsx: Shell and the page, or the login page)
// with their static imports, each file counted once. And the plotly chunk the charts load later.
// The web app is built here, with Vite's manifest, into a temporary folder (web/dist is left alone);
// gzip is zlib's default level, as a server would send it.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "vite";

interface Chunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
  isDynamicEntry?: boolean;
}

const WEB = fileURLToPath(new URL("../../web/", import.meta.url));

/** Each SPEC 2 route and the lazy modules (router.tsx) it renders. */
const ROUTES: Array<[route: string, modules: string[]]> = [
  ["/login", ["auth/LoginPage"]],
  ["/", ["shell/Shell", "landing/LandingPage"]],
  ["/projects", ["shell/Shell", "projects/ProjectsPage"]],
  ["/projects/:id/calculations", ["shell/Shell", "calculations/CalculationsPage"]],
  ["/projects/:id/graphs", ["shell/Shell", "graphs/GraphsPage"]],
  ["/export", ["shell/Shell", "export/ExportPage"]],
  ["/dictionary", ["shell/Shell", "dictionary/DictionaryPage"]],
  ["/profile", ["shell/Shell", "profile/ProfilePage"]],
  ["/settings", ["shell/Shell", "settings/SettingsPage"]],
  ["/widgets", ["shell/Shell", "widgets/WidgetsPage"]],
  ["/documents", ["shell/Shell", "documents/DocumentsPage"]],
  ["/admin", ["shell/Shell", "admin/AdminPage"]],
  ["(unknown path)", ["shell/Shell", "shell/NotFoundPage"]],
];

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1).padStart(7)} KB`;

export async function run(): Promise<void> {
  const outDir = mkdtempSync(join(tmpdir(), "web-bench-"));
  try {
    await build({
      configFile: join(WEB, "vite.config.ts"),
      logLevel: "error",
      build: { outDir, emptyOutDir: true, manifest: true },
    });
    const manifest = JSON.parse(readFileSync(join(outDir, ".vite/manifest.json"), "utf8")) as Record<string, Chunk>;
    const sizes = new Map<string, { raw: number; gzip: number }>();
    const size = (file: string) => {
      if (!sizes.has(file)) {
        const bytes = readFileSync(join(outDir, file));
        sizes.set(file, { raw: bytes.byteLength, gzip: gzipSync(bytes).byteLength });
      }
      return sizes.get(file)!;
    };
    /** A chunk's file and, recursively, the files it imports statically. */
    const closure = (key: string, into = new Set<string>()): Set<string> => {
      const chunk = manifest[key];
      if (!chunk || into.has(chunk.file)) return into;
      into.add(chunk.file);
      for (const imported of chunk.imports ?? []) closure(imported, into);
      return into;
    };
    const total = (files: Set<string>) =>
      [...files].filter((f) => f.endsWith(".js")).reduce((sum, f) => ({ raw: sum.raw + size(f).raw, gzip: sum.gzip + size(f).gzip }), { raw: 0, gzip: 0 });

    // What index.html makes the browser fetch at once, checked against the manifest's entry.
    const html = readFileSync(join(outDir, "index.html"), "utf8");
    const fromHtml = new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]));
    const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
    const entry = closure(entryKey);
    for (const file of fromHtml) entry.add(file);

    // Every lazy page of the router is measured.
    const router = readFileSync(join(WEB, "src/app/router.tsx"), "utf8");
    const lazy = [...router.matchAll(/lazy\(\(\) => import\("\.\.\/features\/([^"]+)"\)\)/g)].map((m) => m[1]);
    const measured = new Set(ROUTES.flatMap(([, modules]) => modules));
    const unmeasured = lazy.filter((m) => !measured.has(m));

    const moduleKey = (module: string) => Object.keys(manifest).find((k) => k.replace(/\.tsx?$/, "") === `src/features/${module}`);
    const entryTotal = total(entry);
    console.log(`entry (index.html script + modulepreloads): ${entry.size} files, ${kb(entryTotal.raw)} raw, ${kb(entryTotal.gzip)} gzip`);
    console.log("initial JS per route (entry + lazy page chunks + their imports), gzip:");
    for (const [route, modules] of ROUTES) {
      const files = new Set(entry);
      for (const module of modules) {
        const key = moduleKey(module);
        if (!key) throw new Error(`no chunk for ${module} in the Vite manifest`);
        closure(key, files);
      }
      const t = total(files);
      console.log(`  ${route.padEnd(28)} ${kb(t.gzip)}  (${kb(t.raw)} raw, ${files.size} files)`);
    }
    const plotlyKey = Object.keys(manifest).find((k) => /features\/graphs\/plotly\.tsx?$/.test(k))!;
    const plotly = total(closure(plotlyKey));
    const plotlyOwn = size(manifest[plotlyKey].file);
    console.log(`plotly chunk (loaded by the charts with import()): ${kb(plotlyOwn.gzip)} gzip, ${kb(plotlyOwn.raw)} raw; with its imports ${kb(plotly.gzip)} gzip`);
    if (unmeasured.length) console.log(`  NOT MEASURED (add to ROUTES in web.bench.ts): ${unmeasured.join(", ")}`);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
