// A damaged store never becomes a new one. A data folder whose `items.db` was emptied (a clean-up, a disk
// full at the wrong moment, a copy gone wrong) or removed still holds `data-format.json` and its keys: it
// started as a new installation — a new table, the «Демо-компания» seeded with the public demo login, on
// the keys of the lost one. Before the engine opens such a folder the start is refused, naming the file
// and the way back (a restore into a new folder, docs/operations.md, «Резервные копии»); nothing is
// written. A new folder (none of these files) and a folder whose store holds its records start as before.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

/** What a start leaves in a data folder beside its store: the folder's format and its keys. */
export const FOLDER_MARKS = ["data-format.json", "jwt-secret", "version-signing-key.pem", "version-signing-keys.json"] as const;
/** The store's database in its folder (sqlite-level.mjs, DATA_FILE). */
const DATA_FILE = "items.db";

/** Why the store at `storePath` of a used folder is no store, or undefined: missing, empty or with no record. */
function lostStore(file: string): string | undefined {
  if (!existsSync(file)) return "файла нет";
  if (statSync(file).size === 0) return "файл пуст (0 байт)";
  // Records not yet checkpointed into the file (a start killed) are in its WAL: the engine reads them.
  const wal = `${file}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) return undefined;
  let db: DatabaseSync | undefined;
  try {
    // Read only by its statements; opened as the engine opens it (a read-only connection to a WAL
    // database without its -shm file does not open).
    db = new DatabaseSync(file);
    const table = db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'kv'").get();
    if (!table) return "в файле нет таблицы записей";
    return db.prepare("SELECT 1 AS found FROM kv LIMIT 1").get() ? undefined : "в файле нет ни одной записи";
  } catch {
    // A file that does not open whole is the engine's own check's to name (PRAGMA quick_check).
    return undefined;
  } finally {
    db?.close();
  }
}

/** The message of a used folder's lost store, or undefined when the folder is new or its store holds records. */
export function lostStoreProblem(dataDir: string, storePath: string): string | undefined {
  const marks = FOLDER_MARKS.filter((name) => existsSync(join(dataDir, name)));
  if (marks.length === 0) return undefined;
  const file = join(storePath, DATA_FILE);
  const lost = lostStore(file);
  if (!lost) return undefined;
  return (
    `База данных ${file} утрачена: ${lost}, а папка данных ${dataDir} уже работала (в ней есть ${marks.join(", ")}). ` +
    "Сервер не запущен и ничего не записал: утраченное хранилище не становится новой установкой. " +
    "Восстановите данные из последней резервной копии в новую папку (DATA_DIR=<новая папка> npm run admin -- restore --from <файл копии>) " +
    "и запустите сервер на ней (docs/operations.md, «Резервные копии»)."
  );
}
