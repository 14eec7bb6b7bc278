// The functions' calls checked against their roles as the template writes them, by an IAM policy
// simulator (@cloud-copilot/iam-simulate: Allow/Deny, wildcards, NotAction/NotResource, conditions,
// and a check that the action exists and the ARN is of a resource type the action takes). Each
// distinct (function, action, resource) is simulated once; a call the role would not allow is a
// failure naming the action, the resource and the statement the role lacks. The statements that
// allowed each call are remembered, so what no call used is listed (least privilege, not a failure).
import { runSimulation } from "@cloud-copilot/iam-simulate";
import type { Call } from "./aws-endpoint";
import { ACCOUNT, type FunctionPlan, type Statement } from "./template";

export interface IamReport {
  denied: string[];
  /** Per function, granted actions (with their resources) no recorded call used. */
  unused: string[];
}

const list = (x: string | string[] | undefined): string[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

/** The role's statements as one identity policy, each statement named by its index (its Sid). */
function roleDocument(statements: Statement[]) {
  return {
    Version: "2012-10-17",
    Statement: statements.map(({ policy: _policy, ...s }, i) => ({ Sid: `S${i}`, ...s })),
  };
}

/** The statement that would allow the call: what a denial asks the stack to add. */
const missingStatement = (call: Call) => JSON.stringify({ Effect: "Allow", Action: call.action, Resource: call.resource });

export async function checkCalls(plans: FunctionPlan[], calls: Call[]): Promise<IamReport> {
  const denied: string[] = [];
  const unused: string[] = [];
  for (const plan of plans) {
    const policy = roleDocument(plan.statements);
    /** "S<i> <action pattern>" of the statements and actions some call matched. */
    const used = new Set<string>();
    const distinct = new Map(calls.filter((c) => c.caller === plan.name).map((c) => [`${c.action} ${c.resource}`, c]));
    for (const call of distinct.values()) {
      const response = await runSimulation(
        {
          request: {
            principal: plan.roleArn,
            action: call.action,
            resource: { resource: call.resource, accountId: ACCOUNT },
            contextVariables: {},
          },
          identityPolicies: [{ name: plan.name, policy }],
          serviceControlPolicies: [],
          resourceControlPolicies: [],
        },
        {},
      );
      if (response.resultType === "error") {
        denied.push(`${plan.name}: ${call.action} on ${call.resource} cannot be simulated: ${JSON.stringify(response.errors)}`);
        continue;
      }
      if (response.resultType !== "single") throw new Error(`${call.resource}: a recorded resource is never a wildcard`);
      const identity = response.result.analysis?.identityAnalysis;
      if (response.overallResult !== "Allowed") {
        const denying = (identity?.denyStatements ?? []).map((s) => plan.statements[Number(s.explain.identifier.slice(1))].policy);
        denied.push(
          response.overallResult === "ExplicitlyDenied"
            ? `${plan.name}: ${call.action} on ${call.resource} is denied explicitly by ${denying.join(", ")}`
            : `${plan.name}: ${call.action} on ${call.resource} is denied: its role has no statement allowing it; missing ${missingStatement(call)}`,
        );
        continue;
      }
      for (const allow of identity?.allowStatements ?? []) {
        const actions = allow.explain.actions ?? [];
        for (const action of Array.isArray(actions) ? actions : [actions]) {
          if (action.matches) used.add(`${allow.explain.identifier} ${action.action}`);
        }
      }
    }
    plan.statements.forEach((s, i) => {
      if (s.Effect !== "Allow") return;
      for (const action of list(s.Action)) {
        if (!used.has(`S${i} ${action}`)) unused.push(`${plan.name}: ${action} on ${list(s.Resource).join(", ")} (${s.policy})`);
      }
    });
  }
  return { denied, unused };
}
