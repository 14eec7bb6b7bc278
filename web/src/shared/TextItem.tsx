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
}

export function TextItem({ label, name, rules, ...input }: Props) {
  return (
    <Form.Item label={label} name={name} rules={rules}>
      <Input {...input} />
    </Form.Item>
  );
}
