// where no edition of the permissible methane concentrations holds today (the safety
// rules' Appendix 3, Order 507, ended on 01.01.2027 and no administrator has confirmed the edition in force),
// a screen that draws a permissible limit says «редакция правил не подтверждена», which places are still
// read against the last edition and which against Decree 315's norms, which name no end date.
import { Alert } from "antd";
import { EDITION_NOT_CONFIRMED, METHANE_PLACE_LABELS } from "@core/methane-limits";
import type { MethaneLimitRow } from "@server/contract";
import { useMethaneLimits } from "../../api/journal";
import { displayDate } from "../../shared/dates";

const places = (rows: readonly MethaneLimitRow[]) => rows.map((r) => METHANE_PLACE_LABELS[r.place]).join(", ");

export function LimitEditionAlert() {
  const rows = useMethaneLimits().data ?? [];
  const stale = rows.filter((r) => r.applied && r.standing === "last_edition");
  if (stale.length === 0) return null;
  const last = stale[0];
  const rules = rows.filter((r) => r.applied && r.standing === "rule");
  const byRule =
    rules.length === 0
      ? ""
      : ` Пределы ${places(rules)} — ${rules[0].edition} (${rules.map((r) => r.point ?? "пункт не прочитан").join(", ")}), без срока окончания.`;
  return (
    <Alert
      type="warning"
      showIcon
      role="alert"
      title={`Допустимые концентрации метана: ${EDITION_NOT_CONFIRMED}`}
      description={`Срок действия «${last.edition}» истек ${displayDate(last.valid_to)}; пока администратор не подтвердит редакцию, действующую сейчас, пределы ${places(stale)} показаны по ней.${byRule}`}
    />
  );
}
