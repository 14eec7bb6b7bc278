import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { countCalls } from "./call-count";

/** A client whose every call is answered here, without a table. */
function answeredClient(): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: "local",
    endpoint: "http://127.0.0.1:1",
    credentials: { accessKeyId: "x", secretAccessKey: "x" },
  });
  const doc = DynamoDBDocumentClient.from(client);
  doc.middlewareStack.add(() => async () => ({ output: { $metadata: {}, ConsumedCapacity: { CapacityUnits: 0.5 } }, response: {} }), {
    step: "initialize",
    priority: "low",
    name: "answerHere",
  });
  return doc;
}

describe("countCalls", () => {
  it("counts on a client another counter already counted on: the newest takes over", async () => {
    const doc = answeredClient();
    const first = countCalls(doc);
    const second = countCalls(doc);
    await doc.send(new GetCommand({ TableName: "t", Key: { PK: "a", SK: "b" } }));
    expect(second.calls).toEqual([{ command: "Get", capacity: 0.5, round: 1 }]);
    expect(first.calls).toEqual([]);
  });
});
