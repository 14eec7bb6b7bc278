// Initial JavaScript of each web route, gzipped: what a browser downloads before the page can
// render — the entry chunk with its static imports (index.html's script and modulepreloads), plus
// the route's lazy page chunks (web/src/app/routes.tsx: Shell and the page, or the login page)
// with their static imports, each file counted once. Chunks a page loads later with import() (a
// table, a dialog, an admin tab, plotly) are not initial. The web app is built with Vite's manifest
// into a temporary folder (web/dist is left alone); gzip is zlib's default level, as a server sends
// it. Shared by the bench (web.bench.ts) and the budget test (tests/web/bundle.test.ts). The
// stylesheets index.html links (antd's pre-built one, web/src/main.tsx) are weighed beside it.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "vite";

/** docs/performance.md / an earlier round: no route needs more than this before it can paint. */
export const INITIAL_JS_BUDGET_KB = 300;

interface Chunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}

export interface RouteWeight {
  route: string;
  gzip: number;
  raw: number;
  files: number;
}

export interface WebWeight {
  entry: { gzip: number; raw: number; files: number };
  routes: RouteWeight[];
  /** The stylesheets index.html links, which every route loads before it paints. */
  css: { gzip: number; raw: number; files: number };
  /** The plotly chunk the charts load with import(), gzip bytes (own file, and with its imports). */
  plotly: { gzip: number; raw: number; withImports: number };
}

const WEB = fileURLToPath(new URL("../../web/", import.meta.url));

/** The router's lazy pages by their paths (docs/user-guide.md); a page not listed is measured under its module name. */
const PATHS: Record<string, string> = {
  "auth/LoginPage": "/login",
  "landing/LandingPage": "/",
  "projects/ProjectsPage": "/projects",
  "app/CalculationsRoute": "/projects/:id/calculations",
  "graphs/GraphsPage": "/projects/:id/graphs",
  "uncertainty/ProjectUncertaintyPage": "/projects/:id/uncertainty",
  "export/ExportPage": "/export",
  "dictionary/DictionaryPage": "/dictionary",
  "profile/ProfilePage": "/profile",
  "inventory/InventoryPage": "/inventory",
  "settings/SettingsPage": "/settings",
  "widgets/WidgetsPage": "/widgets",
  "documents/DocumentsPage": "/documents",
  "admin/AdminPage": "/admin",
  "shell/NotFoundPage": "(unknown path)",
};

/** Builds the web app for production with Vite's manifest into `outDir`. */
export async function buildWebApp(outDir: string): Promise<void> {
  // Vite builds React's development code when NODE_ENV says so (vitest sets "test").
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({
      configFile: join(WEB, "vite.config.ts"),
      mode: "production",
      logLevel: "error",
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/** Builds the web app into a temporary folder and weighs it. */
export async function measureWebWeight(): Promise<WebWeight> {
  const outDir = mkdtempSync(join(tmpdir(), "web-weight-"));
  try {
    await buildWebApp(outDir);
    return weighWebBuild(outDir);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** The initial JavaScript of each route of a web build in `outDir` (web/dist, or buildWebApp's). */
export function weighWebBuild(outDir: string): WebWeight {
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
    [...files]
      .filter((f) => f.endsWith(".js"))
      .reduce((sum, f) => ({ raw: sum.raw + size(f).raw, gzip: sum.gzip + size(f).gzip }), { raw: 0, gzip: 0 });

  // What index.html makes the browser fetch at once, checked against the manifest's entry.
  const html = readFileSync(join(outDir, "index.html"), "utf8");
  const fromHtml = new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]));
  const stylesheets = [...html.matchAll(/<link rel="stylesheet"[^>]* href="\/(assets\/[^"]+\.css)"/g)].map((m) => m[1]);
  const css = stylesheets.reduce((sum, f) => ({ raw: sum.raw + size(f).raw, gzip: sum.gzip + size(f).gzip }), { raw: 0, gzip: 0 });
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  const entry = closure(entryKey);
  for (const file of fromHtml) entry.add(file);

  // Every lazy page of the router is a route: the login page alone, any other inside the Shell.
  const table = readFileSync(join(WEB, "src/app/routes.tsx"), "utf8");
  // A page is a feature's module ("../features/x/Page" → "x/Page") or one of app/ ("./Route" → "app/Route").
  const lazy = [...table.matchAll(/import\("(\.\.\/features\/|\.\/)([^"]+)"\)/g)].map((m) => (m[1] === "./" ? `app/${m[2]}` : m[2]));
  const pages = lazy.filter((m) => m !== "shell/Shell");
  const moduleKey = (module: string) => {
    const key = Object.keys(manifest).find((k) => [`src/features/${module}`, `src/${module}`].includes(k.replace(/\.tsx?$/, "")));
    if (!key) throw new Error(`no chunk for ${module} in the Vite manifest`);
    return key;
  };
  const routes = pages.map((page): RouteWeight => {
    const files = new Set(entry);
    for (const module of page === "auth/LoginPage" ? [page] : ["shell/Shell", page]) closure(moduleKey(module), files);
    return { route: PATHS[page] ?? page, ...total(files), files: files.size };
  });
  const order = Object.values(PATHS);
  routes.sort((a, b) => (order.indexOf(a.route) + 1 || 99) - (order.indexOf(b.route) + 1 || 99));

  const plotlyKey = Object.keys(manifest).find((k) => /shared\/charts\/plotly\.tsx?$/.test(k))!;
  const plotlyOwn = size(manifest[plotlyKey].file);
  return {
    entry: { ...total(entry), files: entry.size },
    routes,
    css: { ...css, files: stylesheets.length },
    plotly: { ...plotlyOwn, withImports: total(closure(plotlyKey)).gzip },
  };
}
