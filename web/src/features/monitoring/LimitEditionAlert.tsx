// Issue 99, item 3: where no confirmed edition of the rules holds today (Order 506 ended on 01.01.2027 and
// no administrator has confirmed the edition in force), a screen that draws a permissible limit says
// «редакция правил не подтверждена» and which act its limits are still drawn from.
import { Alert } from "antd";
import { EDITION_NOT_CONFIRMED } from "@core/methane-limits";
import { useMethaneLimits } from "../../api/journal";
import { displayDate } from "../../shared/dates";

export function LimitEditionAlert() {
  const limits = useMethaneLimits().data;
  if (!limits || limits.length === 0 || limits.some((row) => row.in_force)) return null;
  const last = [...limits].sort((a, b) => a.valid_from.localeCompare(b.valid_from)).at(-1)!;
  return (
    <Alert
      type="warning"
      showIcon
      role="alert"
      title={`Допустимые концентрации метана: ${EDITION_NOT_CONFIRMED}`}
      description={`${last.edition} действовал до ${displayDate(last.valid_to)}; пока администратор не подтвердит редакцию, действующую сейчас, пределы показаны по нему.`}
    />
  );
}
