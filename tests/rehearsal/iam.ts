// The functions' calls checked against their roles as the template writes them. A small evaluator
// (no IAM simulator is among the dependencies): Allow/Deny statements, Action and Resource with the
// `*` and `?` wildcards, an explicit Deny winning; no conditions, NotAction or NotResource (the
// stack writes none, and a statement with them is refused rather than guessed).
import type { Call } from "./aws-endpoint";
import type { FunctionPlan, Statement } from "./template";

function wildcard(pattern: string, value: string, ignoreCase: boolean): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${source}$`, ignoreCase ? "i" : "").test(value);
}

const matches = (s: Statement, call: Call) =>
  s.Action.some((a) => wildcard(a, call.action, true)) && s.Resource.some((r) => wildcard(r, call.resource, false));

export function allowed(statements: Statement[], call: Call): boolean {
  if (statements.some((s) => s.Effect === "Deny" && matches(s, call))) return false;
  return statements.some((s) => s.Effect === "Allow" && matches(s, call));
}

export interface IamReport {
  denied: string[];
  /** Per function, granted actions (with their resources) no recorded call used. */
  unused: string[];
}

export function checkCalls(plans: FunctionPlan[], calls: Call[]): IamReport {
  const denied: string[] = [];
  const unused: string[] = [];
  for (const plan of plans) {
    const own = calls.filter((c) => c.caller === plan.name);
    const seen = new Set<string>();
    for (const call of own) {
      const key = `${call.action} ${call.resource}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (!allowed(plan.statements, call)) {
        denied.push(
          `${plan.name}: ${call.action} on ${call.resource} is denied: no statement of its role allows ${call.action} on that resource`,
        );
      }
    }
    // Log writes are the runtime's, never the code's.
    for (const s of plan.statements.filter((x) => x.Effect === "Allow" && !x.Action.every((a) => a.startsWith("logs:")))) {
      for (const action of s.Action) {
        if (!own.some((c) => wildcard(action, c.action, true) && s.Resource.some((r) => wildcard(r, c.resource, false)))) {
          unused.push(`${plan.name}: ${action} on ${s.Resource.join(", ")} (${s.policy})`);
        }
      }
    }
  }
  return { denied, unused };
}
