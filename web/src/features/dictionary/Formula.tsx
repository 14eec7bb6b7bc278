// Formula text with subscripts: "E_CH4 = V × W_CH4" renders E<sub>CH4</sub> = V × W<sub>CH4</sub>.
import { Fragment } from "react";

const SUBSCRIPT = /_([A-Za-z0-9А-Яа-яЁё]+)/g;

export function Formula({ text }: { text: string }) {
  const parts = text.split(SUBSCRIPT);
  // split() with a capture group alternates plain text and subscripts.
  return (
    <span style={{ whiteSpace: "nowrap", fontFamily: "'Cambria Math', 'Times New Roman', serif", fontSize: 15 }}>
      {parts.map((part, index) => (index % 2 === 1 ? <sub key={index}>{part}</sub> : <Fragment key={index}>{part}</Fragment>))}
    </span>
  );
}
