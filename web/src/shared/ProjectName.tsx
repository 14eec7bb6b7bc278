import { Tooltip } from "antd";
import { truncateKeepingYear } from "./text";

// docs/user-guide.md: project names are cut to 25 characters in the list, never losing their year.
export const PROJECT_NAME_DISPLAY = 25;

/** A project's name as a list shows it: cut keeping its year, the whole name in the tooltip. */
export function ProjectName({ name }: { name: string }) {
  const short = truncateKeepingYear(name, PROJECT_NAME_DISPLAY);
  return short === name ? name : <Tooltip title={name}>{short}</Tooltip>;
}
