// The DynamoDB repositories on dynalite, with the table's stream handled in process, pass the cases
// the in-memory ones pass in the unit tier (functions/src/adapters/memory/repositories.test.ts).
import { afterAll } from "vitest";
import { countCalls } from "@server/adapters/dynamodb/call-count";
import { createHarness, type Harness } from "../support/harness";
import { repositoryBehaviour } from "../support/repository-behaviour";

let h: Harness | undefined;
afterAll(() => h?.close());

repositoryBehaviour(async () => {
  h = await createHarness();
  return { repos: h.deps.repos, settled: () => h!.settled(), calls: h.doc ? countCalls(h.doc) : undefined };
});
