// R10: the local host's webhooks are as strict as AWS's unless its operator names the
// receivers inside the mine's network (WEBHOOK_ALLOWED_RECEIVERS); a mistyped entry, or the former
// «any address» switch, stops the start with the reason.
import { describe, expect, it } from "vitest";
import { NetworkSettingError, webhookReceiversFromEnv } from "./network";

describe("WEBHOOK_ALLOWED_RECEIVERS", () => {
  it("is empty (strict) unless set, and lists networks, addresses and names separated by commas or spaces", () => {
    expect(webhookReceiversFromEnv({})).toEqual([]);
    expect(webhookReceiversFromEnv({ WEBHOOK_PRIVATE_ADDRESSES: "0" })).toEqual([]);
    expect(webhookReceiversFromEnv({ WEBHOOK_ALLOWED_RECEIVERS: "10.20.0.0/16, agk.mine.local  192.168.5.7" })).toEqual([
      "10.20.0.0/16",
      "agk.mine.local",
      "192.168.5.7",
    ]);
  });

  it("stops the start on an entry that is none of them, and on the former switch that allowed any address", () => {
    expect(() => webhookReceiversFromEnv({ WEBHOOK_ALLOWED_RECEIVERS: "10.20.0.0/40" })).toThrow(NetworkSettingError);
    expect(() => webhookReceiversFromEnv({ WEBHOOK_ALLOWED_RECEIVERS: "10.20.0.0/40" })).toThrow(/10\.20\.0\.0\/40/);
    expect(() => webhookReceiversFromEnv({ WEBHOOK_PRIVATE_ADDRESSES: "1" })).toThrow(/WEBHOOK_ALLOWED_RECEIVERS/);
  });
});
