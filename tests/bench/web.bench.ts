// Initial JS per web route against the budget (measured as web-weight.ts describes), and the
// plotly chunk the charts load later. Before an earlier release: 300–491 KB per route (entry 229 KB).
import { INITIAL_JS_BUDGET_KB, measureWebWeight } from "./web-weight";

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1).padStart(7)} KB`;

export async function run(): Promise<void> {
  const weight = await measureWebWeight();
  console.log(
    `entry (index.html script + modulepreloads): ${weight.entry.files} files, ${kb(weight.entry.raw)} raw, ${kb(weight.entry.gzip)} gzip`,
  );
  console.log(`initial JS per route (entry + lazy page chunks + their imports), gzip, budget ${INITIAL_JS_BUDGET_KB} KB:`);
  for (const r of weight.routes) {
    const verdict =
      r.gzip <= INITIAL_JS_BUDGET_KB * 1024 ? "ok" : `OVER by ${((r.gzip - INITIAL_JS_BUDGET_KB * 1024) / 1024).toFixed(1)} KB`;
    console.log(`  ${r.route.padEnd(28)} ${kb(r.gzip)}  (${kb(r.raw)} raw, ${String(r.files).padStart(2)} files)  ${verdict}`);
  }
  console.log(
    `stylesheets index.html links (every route): ${weight.css.files} files, ${kb(weight.css.raw)} raw, ${kb(weight.css.gzip)} gzip`,
  );
  console.log(
    `plotly chunk (loaded by the charts with import()): ${kb(weight.plotly.gzip)} gzip, ${kb(weight.plotly.raw)} raw; with its imports ${kb(weight.plotly.withImports)} gzip`,
  );
}
