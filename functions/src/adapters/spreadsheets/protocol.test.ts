// The worker's protocol keeps every key a training job needs: a key its schema does not name is dropped by
// the parse (a 1-hour model stored as a nowcast; a model trained on the
// working's own channels stored without them).
import { describe, expect, it } from "vitest";
import { workerRequest } from "./protocol";

describe("a training job's request through the worker's protocol", () => {
  it("keeps the horizon and the named features", () => {
    const request = {
      op: "train",
      actor: { id: "u1", company: "c1", email: "a@example.com", role: "staff" },
      key: "training/c1/01a222fd-c7d2-75c3-ae18-fe71f8f3f86c",
      file_name: "лава.csv",
      params: { n_estimators: 40 },
      horizon: 60,
      features: ["Метан у забоя, %", "Комбайн в работе"],
      description: "",
      activate: false,
    };
    const parsed = workerRequest.parse({ op: "job", job: "01a222fd-c7d2-75c3-ae18-fe71f8f3f86c", request });
    expect(parsed).toMatchObject({ request: { horizon: 60, features: ["Метан у забоя, %", "Комбайн в работе"] } });
  });
});
