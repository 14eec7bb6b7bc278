// The in-memory repositories pass the cases the DynamoDB ones pass on dynalite
// (tests/integration/repository-behaviour.test.ts), so the unit tier's domain runs on storage that
// behaves as the real one in what the domain relies on.
import { repositoryBehaviour } from "../../../../tests/support/repository-behaviour";
import { memoryStorage } from "./storage";

repositoryBehaviour(async () => memoryStorage());
