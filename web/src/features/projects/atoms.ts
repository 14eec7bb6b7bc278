import { atom } from "jotai";
import type { EditState } from "../../shared/EditDialog";
import type { Project } from "../../api/projects";

// Which list the projects screen shows (page, archive, search) lives in the address: shared/urlState.ts.

export type ProjectDialogState = EditState<"project", Project>;

export const projectDialogAtom = atom<ProjectDialogState>(null);
