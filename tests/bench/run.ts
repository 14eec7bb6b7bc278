// `npm run bench`: builds the core and the web app (benches serve the app and open it in a browser),
// then runs every tests/bench/*.bench.ts in name order; each prints its own figures.
// `npm run bench -- api --write-docs` also writes docs/performance.md's call counts from the run.
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { join } from "node:path";

const dir = fileURLToPath(new URL(".", import.meta.url));
// Names choose the benches; flags (`--write-docs`) are the benches' own.
const only = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

// The servers the benches start log only their 5xx requests (as in the tests): the output is the figures.
process.env.REQUEST_LOG ??= "errors";

console.log(`node ${process.version}, ${process.platform}/${process.arch}`);
for (const file of files) {
  console.log(`\n== ${file.replace(/\.bench\.ts$/, "")} ==`);
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as { run: () => Promise<void> };
  await mod.run();
}
// Done once every bench has printed: a handle a bench's in-process API left (forecast-channels' harness keeps
// one after its 6-hour forecasts) does not keep the process waiting.
process.exit(0);
