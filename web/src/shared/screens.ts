// The side menu's items and the project screens. The menu comes from app/routes.tsx, the one route
// table, so a menu item never leads to a page that does not exist (docs/user-guide.md lists them all).

export interface MenuEntry {
  key: string;
  path: string;
  label: string;
  /** Shown to platform operators only (role "admin", get_me). */
  adminOnly?: boolean;
}

/** Screens under /projects/{projectId}/: the row click and the infographics button wait for these. */
export const PROJECT_SCREENS = {
  calculations: true,
  graphs: true,
  uncertainty: true,
} as const;

/** The menu key for a path: /projects/42/graphs highlights «Проекты». */
export function menuKeyFor(menu: readonly MenuEntry[], pathname: string): string | undefined {
  const first = pathname.split("/").filter(Boolean)[0];
  return menu.find((entry) => entry.path === `/${first}`)?.key;
}
