// The store dynalite keeps its data folder in: SQLite (sqlite-level.mjs), put where dynalite takes
// its `level` module from, before dynalite loads (dynalite-engine.mjs imports this module first).
// dynalite's db/index.js opens a path with `new (require("level").Level)(path, {valueEncoding})`;
// the module it would load is answered from require's cache with this one, so LevelDB's binary
// (classic-level, which `level` loads) is never loaded by the engine. A store without a path stays
// dynalite's memory-level. Plain JavaScript: the engine's thread loads it without a TypeScript loader.
import { createRequire, Module } from "node:module";
import { SqliteLevel } from "./sqlite-level.mjs";

const require = createRequire(import.meta.url);
const levelPath = require.resolve("level", { paths: [require.resolve("dynalite")] });
if (require.cache[levelPath]?.exports.Level !== SqliteLevel) {
  const module = new Module(levelPath);
  module.filename = levelPath;
  module.loaded = true;
  module.exports = { Level: SqliteLevel };
  require.cache[levelPath] = module;
}
