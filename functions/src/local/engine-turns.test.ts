import { describe, expect, it } from "vitest";
import { engineTurns, operationOf } from "./engine-turns";

describe("engineTurns", () => {
  it("holds a lane's third heavy read until one of its two ends, and lets another lane's in at once", () => {
    const turns = engineTurns(2);
    const started: string[] = [];
    const done: Record<string, () => void> = {};
    const read = (lane: string, name: string, operation = "Query") =>
      turns.take(lane, operation, (end) => {
        started.push(name);
        done[name] = end;
      });
    read("A", "a1");
    read("A", "a2", "Scan");
    read("A", "a3", "BatchGetItem");
    read("A", "a4");
    read("B", "b1");
    expect(started).toEqual(["a1", "a2", "b1"]);
    expect(turns.state().get("A")).toEqual({ running: 2, waiting: 2 });
    done.a2();
    done.a2(); // answered once: a second call frees nothing
    expect(started).toEqual(["a1", "a2", "b1", "a3"]);
    done.a1();
    expect(started.at(-1)).toBe("a4");
    for (const name of ["a3", "a4", "b1"]) done[name]();
    expect(turns.state().size).toBe(0);
  });

  it("never holds a small call, whatever the lane has in flight", () => {
    const turns = engineTurns(1);
    const started: string[] = [];
    turns.take("A", "Query", () => started.push("query"));
    for (const operation of ["GetItem", "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem"])
      turns.take("A", operation, () => started.push(operation));
    turns.take("A", "Query", () => started.push("second query"));
    expect(started).toEqual(["query", "GetItem", "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem"]);
  });

  it("starts a call of no lane at once, as the engine answered every call before the turns", () => {
    const turns = engineTurns(1);
    const started: string[] = [];
    for (const name of ["first", "second", "third"]) turns.take(undefined, "Query", () => started.push(name));
    expect(started).toEqual(["first", "second", "third"]);
    expect(turns.state().size).toBe(0);
  });

  it("reads the operation from the SDK's target header", () => {
    expect(operationOf("DynamoDB_20120810.Query")).toBe("Query");
    expect(operationOf(undefined)).toBe("");
  });
});
