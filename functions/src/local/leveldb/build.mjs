// The local host's LevelDB (classic-level 3.0.0, the engine under dynalite) built from its own sources
// with fix.mjs's PATCHES: no compaction set off by reads (no-read-compaction.patch), and LevelDB 1.21's
// compaction fix backported (boundary-inputs.patch): classic-level ships LevelDB 1.20,
// whose compaction could move the file holding a key's newest versions a level down while the file with
// its older versions stayed above, so that a read found an older value (google/leveldb issue 320). A
// sensor's day of readings, rewritten by every push, is such a key: acknowledged readings vanished
// (issue 95, docs/architecture.md «What lost acknowledged readings»). No release of classic-level carries
// the fix, so `npm install` (postinstall) builds it: node-gyp, make and g++ against Node's headers, about
// a minute on two cores, once per machine (the build cache below). The built binary is put where
// classic-level's loader looks first (build/Release), with a mark of the patch it carries, which the
// engine checks before it opens a folder (level-options.mjs).
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { classicLevelDir, fixedBinary, fixKey, PATCHES } from "./fix.mjs";

const packageDir = classicLevelDir();
const nodeModules = dirname(packageDir);
const version = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).version;
const key = fixKey(packageDir);
const { release, binary, mark } = fixedBinary(packageDir);
if (existsSync(binary) && existsSync(mark) && readFileSync(mark, "utf8").trim() === key) {
  console.log(`leveldb: classic-level ${version} with its LevelDB patches is in place (${key})`);
  process.exit(0);
}

const cacheRoot = process.env.LEVELDB_BUILD_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "fugitive-emissions-platform", "leveldb");
const cached = cacheRoot === "off" ? undefined : join(cacheRoot, key, "classic_level.node");

function install(from) {
  mkdirSync(release, { recursive: true });
  copyFileSync(from, `${binary}.new`);
  renameSync(`${binary}.new`, binary);
  writeFileSync(mark, `${key}\n`);
}

if (cached && existsSync(cached)) {
  install(cached);
  console.log(`leveldb: classic-level ${version} with its LevelDB patches taken from the build cache (${cached})`);
  process.exit(0);
}

/** npm's own node-gyp (npm ships it for exactly this), found beside the npm that runs this script. */
function nodeGyp() {
  const candidates = [];
  if (process.env.npm_execpath) candidates.push(join(dirname(process.env.npm_execpath), "..", "node_modules", "node-gyp", "bin", "node-gyp.js"));
  try {
    const root = execFileSync("npm", ["root", "-g"], { encoding: "utf8" }).trim();
    candidates.push(join(root, "npm", "node_modules", "node-gyp", "bin", "node-gyp.js"));
  } catch {
    // no npm on PATH: the candidates above only
  }
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error("node-gyp not found (it comes with npm)");
  return found;
}

const work = mkdtempSync(join(tmpdir(), "leveldb-build-"));
try {
  const source = join(work, "classic-level");
  cpSync(packageDir, source, { recursive: true, filter: (path) => !path.startsWith(join(packageDir, "build")) && !path.startsWith(join(packageDir, "prebuilds")) });
  for (const patch of PATCHES) execFileSync("git", ["apply", patch], { cwd: join(source, "deps", "leveldb", "leveldb-1.20"), stdio: "inherit" });
  // Headers from the machine (npm's nodedir, /usr here): node-gyp would otherwise download them.
  const nodedir = process.env.npm_config_nodedir ?? (existsSync("/usr/include/node/node_api.h") ? "/usr" : undefined);
  console.log(`leveldb: building classic-level ${version} with its LevelDB patches (about a minute)`);
  execFileSync(process.execPath, [nodeGyp(), "rebuild", "--jobs", "2", ...(nodedir ? [`--nodedir=${nodedir}`] : [])], {
    cwd: source,
    // binding.gyp asks node for napi-macros' headers: resolved from the project's node_modules.
    env: { ...process.env, NODE_PATH: nodeModules },
    stdio: "pipe",
  });
  const built = join(source, "build", "Release", "classic_level.node");
  install(built);
  if (cached) {
    try {
      mkdirSync(dirname(cached), { recursive: true });
      copyFileSync(built, `${cached}.new`);
      renameSync(`${cached}.new`, cached);
    } catch (error) {
      console.log(`leveldb: not cached (${error.message})`);
    }
  }
  console.log(`leveldb: classic-level ${version} built with its LevelDB patches (${key})`);
} catch (error) {
  // node-gyp's and the compiler's own words, the last of them, where the build failed.
  const said = String(error.stderr ?? "").trim().split("\n").slice(-30).join("\n");
  if (said) console.error(said);
  console.error(
    `leveldb: could not build classic-level with its LevelDB patches: ${error.message}\n` +
      "The local server refuses to open its data folder without it (readings could be lost). It needs python3, make and g++ " +
      "(Debian: apt-get install -y python3 make g++) and Node's headers; then run `npm run build:leveldb`.",
  );
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
