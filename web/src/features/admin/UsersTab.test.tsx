// @vitest-environment happy-dom
// «Пользователи» on /admin: the operator gives a user the duty whose holder confirms a gassing book
// entry and takes it back; the PATCH carries `duty`, null for «Нет». The server's side:
// tests/integration/gassing-book.test.ts.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { closeApp, openPage, type OpenApp } from "../../testing/render-app";
import { UsersTab } from "./UsersTab";

let app: OpenApp;

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

const company = { id: "c-1", name: "ООО «Шахта»", email: "", ogrn: "", okved: "", inn: "", kpp: "", region: "", postal_address: "" };
const user = {
  id: "u-1",
  email: "chief@kuz-glub.ru",
  first_name: "Игорь",
  last_name: "Семенов",
  role: "staff",
  is_active: true,
  created_at: "2026-01-01T00:00:00.000Z",
  company: "c-1",
};

async function pickOption(select: HTMLElement, option: string) {
  await app.user.click(select);
  const found = await waitFor(() => {
    const shown = [
      ...document.querySelectorAll<HTMLElement>(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option"),
    ];
    const match = shown.find((el) => el.getAttribute("title") === option || el.textContent === option);
    if (!match) throw new Error(`no option «${option}» open`);
    return match;
  });
  await app.user.click(found);
}

it("gives a user the chief engineer's duty, and takes it back", async () => {
  const patches: unknown[] = [];
  let stored: Record<string, unknown> = { ...user };
  app = openPage({ path: "/admin", page: <UsersTab companyId="c-1" onCompanyChange={() => {}} /> }, (api) =>
    api
      .on("adminListCompanies", { results: [company], count: 1 })
      .on("adminListUsers", () => ({ results: [stored], count: 1 }))
      .on("adminPatchUser", ({ body }) => {
        patches.push(body);
        stored = { ...stored, ...(body as object) };
        return stored;
      }),
  );
  const edit = async () => {
    await app.user.click(await screen.findByRole("button", { name: "Изменить chief@kuz-glub.ru" }));
    return within((await screen.findByText("Пользователь chief@kuz-glub.ru")).closest<HTMLElement>("[role=dialog]")!);
  };
  let dialog = await edit();
  await pickOption(dialog.getByLabelText("Обязанность на шахте"), "Главный инженер (подтверждает книгу загазирований)");
  await app.user.click(dialog.getByRole("button", { name: "Сохранить" }));
  await waitFor(() => expect(patches).toHaveLength(1));
  expect(patches[0]).toMatchObject({ duty: "chief_engineer" });
  await waitFor(() => expect(screen.queryByText("Пользователь chief@kuz-glub.ru")).toBeNull());
  dialog = await edit();
  await pickOption(dialog.getByLabelText("Обязанность на шахте"), "Нет");
  await app.user.click(dialog.getByRole("button", { name: "Сохранить" }));
  await waitFor(() => expect(patches).toHaveLength(2));
  expect(patches[1]).toMatchObject({ duty: null });
});
