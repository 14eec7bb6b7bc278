// Stages of the one CDK app: `-c stage=dev|prod` (default dev).
export type Stage = "dev" | "prod";

export function stageFrom(value: unknown): Stage {
  const stage = value ?? "dev";
  if (stage !== "dev" && stage !== "prod") throw new Error(`stage must be dev or prod, got ${JSON.stringify(stage)}`);
  return stage;
}
