// @vitest-environment happy-dom
import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { expect, it, vi } from "vitest";
import { YearField } from "./YearField";

it("hands on the year typed key by key and keeps the year when the field is cleared", async () => {
  const user = userEvent.setup();
  const onChange = vi.fn();
  render(<YearField year={2026} onChange={onChange} />);
  const field = screen.getByLabelText("Год") as HTMLInputElement;
  expect(field.value).toBe("2026");
  await user.clear(field);
  expect(onChange).not.toHaveBeenCalled();
  await user.type(field, "2025");
  fireEvent.blur(field);
  expect(onChange).toHaveBeenLastCalledWith(2025);
});
