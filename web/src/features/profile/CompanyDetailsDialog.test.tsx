// @vitest-environment happy-dom
// The company's requisites kept by its staff on /profile, «Изменить реквизиты», typed key by key: a
// wrong ИНН, КПП or ОГРН named at its field in Russian by the server's own rules before anything is
// sent, each message gone as soon as its value is fixed, ИНН, КПП and ОГРН kept from being blanked,
// the name never blank; what is saved and the person responsible then show on the profile. The fields
// a test does not test (the person responsible, the e-mail) are set at once. The profile's requisites
// card is rendered alone, as ProfilePage shows it for the profile it reads, without the page's other cards.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import type { Company } from "@server/contract";
import { useMe } from "../../api/profile";
import { company, signedInUser } from "../../testing/fixtures";
import { closeApp, openPart, setField, type OpenApp } from "../../testing/render-app";
import { ProfileDetails } from "./ProfileDetails";

let app: OpenApp;

afterEach(() => {
  expect(app.api.mistakes).toEqual([]);
  closeApp();
});

/** The requisites of the profile as read now, as ProfilePage shows them. */
function Requisites() {
  const me = useMe();
  return me.data && <ProfileDetails me={me.data} />;
}

/** The profile's requisites of a company that keeps `kept`, with a server that saves the requisites it is sent. */
function openProfile(kept: Partial<Company> = {}) {
  let current = company(kept);
  app = openPart(<Requisites />, (api) =>
    api
      .on("getMe", () => signedInUser({ company: current }))
      .on("patchOwnCompany", ({ body }) => {
        const { version: _version, ...changes } = body as Partial<Company>;
        current = { ...current, ...changes, version: (current.version ?? 0) + 1 };
        return current;
      }),
  );
}

async function openDialog() {
  await app.user.click((await screen.findByText("Изменить реквизиты")).closest("button")!);
  const dialog = (await screen.findByText("Реквизиты компании", { selector: ".ant-modal-title" })).closest<HTMLElement>("[role=dialog]")!;
  const inside = within(dialog);
  const field = (label: string) => inside.getByLabelText(label, { exact: true }) as HTMLInputElement;
  const errorOf = (label: string) =>
    field(label).closest(".ant-form-item")!.querySelector(".ant-form-item-explain-error")?.textContent ?? null;
  const retype = async (label: string, value: string) => {
    await app.user.clear(field(label));
    if (value) await app.user.type(field(label), value);
    await app.user.tab();
  };
  /** A field these tests fill but do not test, set at once. */
  const put = (label: string, value: string) => setField(app.user, field(label), value);
  const save = () => app.user.click(inside.getByText("Сохранить").closest("button")!);
  return { dialog, inside, field, errorOf, retype, put, save };
}

const saved = () => app.api.calls("patchOwnCompany").map((call) => call.body as Partial<Company>);
const details = () => document.querySelector(".ant-descriptions")?.textContent ?? "";

it("staff type ИНН and КПП key by key; a wrong check digit is named at the field and nothing is sent; the saved values show on the profile", async () => {
  openProfile();
  const { dialog, field, errorOf, retype, save } = await openDialog();
  await retype("ИНН", "7707083894");
  await retype("КПП", "773601001");
  await save();
  await waitFor(() => expect(errorOf("ИНН")).toMatch(/ИНН/));
  expect(field("ИНН").value).toBe("7707083894");
  expect(saved()).toEqual([]);

  await retype("ИНН", "7707083893");
  await save();
  await screen.findByText("Реквизиты сохранены");
  await waitFor(() => expect(dialog.isConnected).toBe(false));
  expect(saved()).toEqual([expect.objectContaining({ inn: "7707083893", kpp: "773601001", version: 1 })]);
  await waitFor(() => expect(details()).toContain("7707083893"));
  expect(details()).toContain("773601001");
});

it("three wrong values typed key by key: each named at its field in Russian, each message gone as it is fixed; a kept ИНН is never blanked", async () => {
  openProfile({ inn: "7707083893", kpp: "773601001" });
  const { field, errorOf, retype, put, save } = await openDialog();
  await retype("ИНН", "7707083894");
  await retype("КПП", "000000000");
  await retype("ОГРН / ОГРНИП", "1027700132194");
  await waitFor(() => expect(errorOf("ИНН")).toBe("ИНН — 10 цифр (организация) или 12 цифр, с верными контрольными цифрами"));
  await waitFor(() => expect(errorOf("КПП")).toBe("КПП с кодом налогового органа 0000 не выдается"));
  await waitFor(() => expect(errorOf("ОГРН / ОГРНИП")).toBe("ОГРН — 13 цифр, ОГРНИП — 15 цифр, с верной контрольной цифрой"));
  // Saving sends nothing while a field is wrong.
  await save();
  expect(saved()).toEqual([]);

  // Each fixed key by key: its message goes at once, the others stay.
  await app.user.type(field("ИНН"), "{End}{Backspace}3");
  expect(field("ИНН").value).toBe("7707083893");
  await waitFor(() => expect(errorOf("ИНН")).toBeNull());
  expect(errorOf("КПП")).not.toBeNull();
  await app.user.clear(field("КПП"));
  await app.user.type(field("КПП"), "773601001");
  await waitFor(() => expect(errorOf("КПП")).toBeNull());
  expect(errorOf("ОГРН / ОГРНИП")).not.toBeNull();
  await app.user.type(field("ОГРН / ОГРНИП"), "{End}{Backspace}5");
  await waitFor(() => expect(errorOf("ОГРН / ОГРНИП")).toBeNull());

  // What the company keeps is corrected, never blanked.
  await retype("ИНН", "");
  await waitFor(() => expect(errorOf("ИНН")).toBe("ИНН уже указан — его можно исправить, но не стереть"));
  await app.user.type(field("ИНН"), "7707083893");
  await waitFor(() => expect(errorOf("ИНН")).toBeNull());

  await put("Ответственный за отчет: ФИО", "Иванова Анна Петровна");
  await put("Должность", "Главный эколог");
  await save();
  await screen.findByText("Реквизиты сохранены");
  expect(saved()).toEqual([
    expect.objectContaining({
      inn: "7707083893",
      kpp: "773601001",
      ogrn: "1027700132195",
      responsible_name: "Иванова Анна Петровна",
      responsible_position: "Главный эколог",
    }),
  ]);
  // The profile shows the person responsible for the report.
  await waitFor(() => expect(details()).toContain("1027700132195"));
  expect(details()).toContain("Иванова Анна Петровна, Главный эколог");
});

it("staff rename their company key by key (never to blank); the profile shows the new name", async () => {
  openProfile();
  const { field, errorOf, retype, put, save } = await openDialog();
  await retype("Название", "");
  await waitFor(() => expect(errorOf("Название")).toBe("Укажите название компании"));
  await app.user.type(field("Название"), "ООО «Шахта Новая»");
  await waitFor(() => expect(errorOf("Название")).toBeNull());
  await put("E-mail", "office@novaya.example");
  await save();
  await screen.findByText("Реквизиты сохранены");
  expect(saved()).toEqual([expect.objectContaining({ name: "ООО «Шахта Новая»", email: "office@novaya.example" })]);
  await waitFor(() => expect(details()).toContain("ООО «Шахта Новая»"));
});
