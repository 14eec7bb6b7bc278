// `npm run bench -- lambda` gave every function without a route the same schedule event, so
// the readings' SQS consumer threw «e.Records is not iterable» and the bench stopped before printing
// any figure. Every application function of the synthesized prod stack has an event in the bench, of
// the kind its trigger in the template sends; a function the bench knows no event for is named.
import { beforeAll, describe, expect, it } from "vitest";
import { firstRequest, triggersOf } from "../bench/lambda.bench";
import { prodAssembly, type Synthesized } from "../rehearsal/synth";
import { functionPlans } from "../rehearsal/template";

let synth: Synthesized;
beforeAll(async () => {
  synth = await prodAssembly();
}, 600_000);

describe("the Lambda cold-start bench's events", () => {
  it("has an event for every function of the stack, the one its trigger sends", async () => {
    const plans = functionPlans(synth.template, synth.outdir);
    expect(plans.map((p) => p.name)).toEqual(
      expect.arrayContaining(["ApiFunction", "TelemetryConsumerFunction", "MonitoringMinuteFunction"]),
    );
    const kinds: Record<string, string> = {};
    for (const plan of plans) {
      const request = firstRequest(plan, synth.template, {});
      kinds[plan.name] = request.trigger;
      expect(triggersOf(synth.template, plan.name), plan.name).toEqual([request.trigger]);
      // Not the S3 one: it writes its object first, through the bench's own client.
      if (request.trigger === "s3") continue;
      const event = (await request.event()) as { Records?: Array<{ eventSource?: string }>; source?: string; rawPath?: string };
      if (request.trigger === "sqs")
        expect(
          event.Records?.map((r) => r.eventSource),
          plan.name,
        ).toEqual(["aws:sqs"]);
      if (request.trigger === "stream")
        expect(
          event.Records?.map((r) => r.eventSource),
          plan.name,
        ).toEqual(["aws:dynamodb"]);
      if (request.trigger === "schedule") expect(event.source, plan.name).toBe("aws.events");
      if (request.trigger === "api") expect(event.rawPath, plan.name).toBe("/api/token/");
    }
    expect(kinds).toMatchObject({
      ApiFunction: "api",
      TelemetryConsumerFunction: "sqs",
      MonitoringMinuteFunction: "schedule",
      StatisticsReconcileFunction: "schedule",
      OrphanSweepFunction: "schedule",
      StreamAuditFunction: "stream",
      UploadCheckFunction: "s3",
      SpreadsheetFunction: "invoke",
      ExportJobFunction: "invoke",
    });
  });

  it("names a function it has no event for instead of sending it another's", () => {
    expect(() => firstRequest({ name: "NewFunction", env: {} }, synth.template, {})).toThrow(
      "NewFunction: no trigger in the template, no event in the bench",
    );
  });
});
