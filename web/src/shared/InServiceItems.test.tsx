// @vitest-environment happy-dom
import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Form } from "antd";
import { expect, it, vi } from "vitest";
import { InServiceItems } from "./InServiceItems";

it("takes the dates typed ДД.ММ.ГГГГ or left empty, and refuses another way of typing one", async () => {
  const user = userEvent.setup();
  const finish = vi.fn();
  render(
    <Form onFinish={finish}>
      <InServiceItems />
      <button type="submit">Сохранить</button>
    </Form>,
  );
  const from = screen.getByLabelText("В эксплуатации с");
  expect(from.getAttribute("placeholder")).toBe("ДД.ММ.ГГГГ");
  expect(from.getAttribute("maxlength")).toBe("10");
  await user.type(from, "1.3.1998");
  fireEvent.click(screen.getByRole("button", { name: "Сохранить" }));
  expect(await screen.findByText("Дата в виде ДД.ММ.ГГГГ")).toBeTruthy();
  expect(finish).not.toHaveBeenCalled();
  await user.clear(from);
  await user.type(from, "01.03.1998");
  fireEvent.click(screen.getByRole("button", { name: "Сохранить" }));
  await vi.waitFor(() => expect(finish).toHaveBeenCalledWith({ in_service_from: "01.03.1998", in_service_to: undefined }));
});
