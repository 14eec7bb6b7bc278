// Which LevelDB the local host's engine runs: classic-level's binary built with this folder's patches
// (PATCHES: LevelDB 1.21's compaction fix, no compactions set off by reads; built by build.mjs at
// `npm install`), told by the mark beside it. Plain
// JavaScript: the engine's thread loads it without a TypeScript loader.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** The patches to LevelDB 1.20's sources, applied in this order:
 *  - boundary-inputs.patch: 1.21's fix of a compaction that could make a key's older value readable
 *    again (google/leveldb issue 320);
 *  - no-read-compaction.patch: no compaction set off by reads (each put of a new key is one, in dynalite),
 *    which rewrote tens of times the bytes written (docs/performance.md, «Bytes written per reading»). */
export const PATCHES = ["boundary-inputs.patch", "no-read-compaction.patch"].map((name) => join(here, name));

/** The classic-level that dynalite's `level` loads. */
export function classicLevelDir() {
  const levelDir = dirname(require.resolve("level/package.json", { paths: [dirname(require.resolve("dynalite"))] }));
  return dirname(require.resolve("classic-level/package.json", { paths: [levelDir] }));
}

/** The fix's key: the patch, the package's version and the machine's kind. */
export function fixKey(packageDir = classicLevelDir()) {
  const version = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).version;
  const hash = createHash("sha256");
  for (const patch of PATCHES) hash.update(readFileSync(patch));
  return hash
    .update(`classic-level@${version} ${process.platform}-${process.arch}`)
    .digest("hex")
    .slice(0, 16);
}

/** Where the fixed binary lies (classic-level's loader looks there first) and its mark. */
export function fixedBinary(packageDir = classicLevelDir()) {
  const release = join(packageDir, "build", "Release");
  return { release, binary: join(release, "classic_level.node"), mark: join(release, "boundary-inputs.key") };
}

/** Throws unless the binary classic-level loads carries the fix. */
export function assertFixedLevelDb() {
  const { binary, mark } = fixedBinary();
  const key = fixKey();
  if (existsSync(binary) && existsSync(mark) && readFileSync(mark, "utf8").trim() === key) return;
  throw new Error(
    "LevelDB без исправлений уплотнения (classic-level собран не этим проектом): показания могли бы теряться. " +
      "Выполните `npm run build:leveldb` (или `npm install`).",
  );
}
