import { atom } from "jotai";
import type { Project } from "../../api/projects";

// Which list the projects screen shows (page, archive, search) lives in the address: shared/urlState.ts.

export type ProjectDialogState = { mode: "create" } | { mode: "edit"; project: Project } | null;

export const projectDialogAtom = atom<ProjectDialogState>(null);
