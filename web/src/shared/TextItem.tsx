// A one-line text field of an antd form: its label above it, its name in the form, at most
// `maxLength` characters; what else the input takes (a placeholder, what the browser may fill in)
// passes on.
import { Form, Input, type InputProps } from "antd";
import type { Rule } from "antd/es/form";

interface Props extends Omit<InputProps, "name"> {
  label: string;
  name: string;
  maxLength: number;
  rules?: Rule[];
  /** A hint under the field. */
  extra?: string;
}

export function TextItem({ label, name, rules, extra, ...input }: Props) {
  return (
    <Form.Item label={label} name={name} rules={rules} extra={extra}>
      <Input {...input} />
    </Form.Item>
  );
}
