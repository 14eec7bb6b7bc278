// The cross-package import aliases (@server, @core, @web) as tsconfig.base.json declares them, for
// Vite and Vitest: their own tsconfig lookup skips files a configuration does not include (the web
// app's tests), so they take the aliases from this one reading of the same file.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));

export function pathAliases(): Record<string, string> {
  const { compilerOptions } = JSON.parse(readFileSync(`${root}tsconfig.base.json`, "utf8")) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  return Object.fromEntries(
    Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
      alias.replace(/\/\*$/, ""),
      root + target.replace(/^\.\//, "").replace(/\/\*$/, ""),
    ]),
  );
}
