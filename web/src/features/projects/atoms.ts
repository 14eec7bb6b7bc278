import { atom } from "jotai";
import type { Project } from "./api";

/** Which list the projects screen shows; kept across navigation so «back» returns to the same page. */
export const projectsArchivedAtom = atom(false);
export const projectsPageAtom = atom(1);

export type ProjectDialogState = { mode: "create" } | { mode: "edit"; project: Project } | null;

export const projectDialogAtom = atom<ProjectDialogState>(null);
