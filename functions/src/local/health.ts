// GET /healthz on the local server, for the company's monitoring (docs/operations.md, «Health»):
// without signing in, 200 and {"status":"ok", …} while the database answers a read, 503 and
// {"status":"error","detail":…} when it does not (or takes over 5 s); with scheduled backups, when
// the newest was written and whether it is overdue (older than two periods). It names no company,
// user or path: what a monitoring probe on the network may see.
import type { Handler } from "hono";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { Deps } from "../domain/context";
import { type BackupSchedule, backupsIn } from "./backup-schedule";
import { readDataFormat } from "./data-format";

const DATABASE_TIMEOUT_MS = 5_000;

export interface HealthOptions {
  dataDir?: string;
  backups?: BackupSchedule;
  version: string;
}

export function healthRoute(deps: Deps, options: HealthOptions): Handler {
  const started = Date.now();
  return async (c) => {
    c.header("Cache-Control", "no-store");
    const begun = performance.now();
    try {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        deps.repos.companies.list(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`нет ответа за ${DATABASE_TIMEOUT_MS / 1000} с`)), DATABASE_TIMEOUT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
    } catch (error) {
      return c.json({ status: "error", detail: `база данных не отвечает: ${(error as Error).message}` }, 503);
    }
    const database_ms = Math.round((performance.now() - begun) * 10) / 10;
    const body: Record<string, unknown> = {
      status: "ok",
      version: options.version,
      uptime_s: Math.round((Date.now() - started) / 1000),
      database_ms,
    };
    if (options.dataDir) body.data_format = await readDataFormat(options.dataDir);
    if (options.backups) {
      const newest = (await backupsIn(options.backups.dir)).at(-1);
      const at = newest ? (await stat(join(options.backups.dir, newest)).catch(() => undefined))?.mtime : undefined;
      body.backup = {
        last_at: at?.toISOString() ?? null,
        overdue:
          at === undefined ? Date.now() - started > 2 * options.backups.everyMs : Date.now() - at.getTime() > 2 * options.backups.everyMs,
      };
    }
    return c.json(body);
  };
}
