// The DynamoDB repositories on the local server's engine as `npm start` opens it: dynalite on its
// SQLite store in a data folder (packages/dynalite/db/sqlite-level.mts), with the table's stream
// handled in process, pass the cases they pass on dynalite's memory store
// (repository-behaviour.test.ts) and the in-memory repositories pass in the unit tier.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { type OpenStorage, openServerStorage } from "@server/local/storage";
import { repositoryBehaviour } from "../support/repository-behaviour";

const dataDir = mkdtempSync(join(tmpdir(), "fugitive-repos-sqlite-"));
let storage: OpenStorage | undefined;
afterAll(async () => {
  await storage?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

repositoryBehaviour(async () => {
  storage = await openServerStorage(dataDir);
  return { repos: storage.repos, settled: () => storage!.settled() };
});
