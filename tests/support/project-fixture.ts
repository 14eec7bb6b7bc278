// The set-up most integration files share: an API under test, one signed-in user of a company of
// their own, and a project of theirs. A file opens it before its tests and closes it after them:
//
//   beforeAll(async () => {
//     ({ h, user, project } = await openProjectFixture("Шахта"));
//   });
//   afterAll(() => h.close());
import { expect } from "vitest";
import { createFreshHarness, createHarness, type Harness } from "./harness";
import type { AppConfig } from "@server/config";
import type { Project } from "@server/contract/schemas/project";

export type SignedInUser = Awaited<ReturnType<Harness["signedInUser"]>>;

export interface ProjectFixture {
  h: Harness;
  user: SignedInUser;
  project: Project;
}

/** `projectName` defaults to the harness's own project name; `freshTable`: on a table of its own,
 *  for a file that changes what is platform-wide (tests/support/harness.ts). */
export async function openProjectFixture(
  projectName?: string,
  config: Partial<AppConfig> = {},
  { freshTable = false }: { freshTable?: boolean } = {},
): Promise<ProjectFixture> {
  const h = freshTable ? await createFreshHarness(config) : await createHarness(config);
  const user = await h.signedInUser();
  const project = await h.newProject(user.token, projectName);
  return { h, user, project };
}

/** A stored calculation as GET …/single_calc/1/ answers it (status 200 expected). */
export async function readCalculation<T>(h: Harness, token: string, type: string, id: string): Promise<T> {
  const res = await h.request(`/api/v1/${type}/${id}/single_calc/1/`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}
