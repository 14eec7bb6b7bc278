// The engine's port names the lane of the request a call is made for, so that the engine's thread
// takes a heavy read in its company's turn (engine-turns.ts); a call made outside any request (the
// consumer's, the stream handler's) names none and is answered as it comes.
import { MessageChannel } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { portRequestHandler } from "./dynalite-port";

describe("portRequestHandler", () => {
  it("sends the lane of the request being answered with each call, and none outside one", async () => {
    const { port1, port2 } = new MessageChannel();
    const seen: Array<{ lane?: string; target: string }> = [];
    port2.on("message", (message: { id: number; headers: Record<string, string>; lane?: string }) => {
      seen.push({ lane: message.lane, target: message.headers["x-amz-target"] });
      port2.postMessage({ id: message.id, status: 200, headers: {}, body: "{}" });
    });
    let lane: string | undefined = "company:A";
    const handler = portRequestHandler(port1, () => lane);
    await handler.handle({ headers: { "x-amz-target": "DynamoDB_20120810.Query" }, body: "{}" });
    lane = undefined;
    await handler.handle({ headers: { "x-amz-target": "DynamoDB_20120810.GetItem" }, body: "{}" });
    expect(seen).toEqual([
      { lane: "company:A", target: "DynamoDB_20120810.Query" },
      { lane: undefined, target: "DynamoDB_20120810.GetItem" },
    ]);
    handler.destroy();
    port2.close();
  });
});
