// Which screens exist. The side menu and every link into a screen read these flags, so a screen
// switches on by flipping one `built` (plus adding its route in app/router.tsx). Unbuilt screens
// stay hidden: nothing in the UI may lead to a page that does not exist yet (docs/user-guide.md lists them all).

export interface MenuEntry {
  key: string;
  path: string;
  label: string;
  built: boolean;
}

export const MENU: readonly MenuEntry[] = [
  { key: "profile", path: "/profile", label: "Профиль", built: true },
  { key: "projects", path: "/projects", label: "Проекты", built: true },
  { key: "inventory", path: "/inventory", label: "Инвентаризация", built: true },
  { key: "models", path: "/forecast-models", label: "Модели прогноза", built: true },
  { key: "dictionary", path: "/dictionary", label: "Справочники", built: true },
  { key: "documents", path: "/documents", label: "Нормативные документы", built: true },
  { key: "export", path: "/export", label: "Экспорт", built: true },
  { key: "widgets", path: "/widgets", label: "Виджеты", built: true },
  { key: "settings", path: "/settings", label: "Настройки", built: true },
];

/** Not one of the earlier product's menu items (docs/user-guide.md): shown after the others to platform operators only (role "admin", get_me). */
export const ADMIN_MENU_ENTRY: MenuEntry = { key: "admin", path: "/admin", label: "Администрирование", built: true };

/** Screens under /projects/{projectId}/: the row click and the infographics button wait for these. */
export const PROJECT_SCREENS = {
  calculations: true,
  graphs: true,
  uncertainty: true,
} as const;

export function visibleMenu(): MenuEntry[] {
  return MENU.filter((entry) => entry.built);
}

/** The menu key for a path: /projects/42/graphs highlights «Проекты». */
export function menuKeyFor(pathname: string): string | undefined {
  const first = pathname.split("/").filter(Boolean)[0];
  return [...MENU, ADMIN_MENU_ENTRY].find((entry) => entry.path === `/${first}`)?.key;
}
