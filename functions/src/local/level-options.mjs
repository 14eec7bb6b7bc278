// LevelDB's options for the local host's dynalite, set before dynalite loads (dynalite-engine.mjs
// imports this module first): dynalite opens its folder with `new Level(path, {valueEncoding})` and no
// other option, so LevelDB keeps up to 1 000 table files open, each mapped into the process for
// reading, and every page of them read or compacted stays in the server's resident set. A mine's year
// of readings (7 300 packed days) grew it with the data written (docs/performance.md, «A mine's year of
// readings»). MAX_OPEN_FILES bounds the tables LevelDB keeps open (ten of them it keeps for itself); a
// table closed is opened again when read.
import { createRequire } from "node:module";
import { assertFixedLevelDb } from "./leveldb/fix.mjs";

export const MAX_OPEN_FILES = 64;

const require = createRequire(import.meta.url);
// The `level` that dynalite's db/index.js requires (it takes the class when it loads).
const level = require(require.resolve("level", { paths: [require.resolve("dynalite")] }));
// And LevelDB itself: classic-level's own binary is LevelDB 1.20, whose compaction could make a key's
// older value readable again (leveldb/build.mjs); the engine opens no folder without the fixed one.
assertFixedLevelDb();
if (!level.Level.boundedOpenFiles) {
  const Level = level.Level;
  class BoundedLevel extends Level {
    constructor(location, options) {
      super(location, { maxOpenFiles: MAX_OPEN_FILES, ...options });
    }
  }
  BoundedLevel.boundedOpenFiles = true;
  level.Level = BoundedLevel;
}
