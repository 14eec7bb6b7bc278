// D95 on «Журнал оператора АГК»: the АГК operator's signature of the chosen shift's journal —
// who and when, or «Подписать журнал смены» for a user with the operator's duty; the server signs it only
// after the shift's end and the handover into the shift signed by both, and says so otherwise (D100: a shift
// before the facility's first handover is signed «передача смены в платформе не велась», said beside it).
import { Alert, Button, Flex, Typography } from "antd";
import { Link } from "react-router-dom";
import { isCheckDuty } from "@core/sensor-checks";
import { displayDateTime } from "../../../shared/dates";
import { isApiError } from "../../../api/client";
import { useMe } from "../../../api/profile";
import { useJournalSignatures, useSignJournal } from "../../../api/instruments";

export default function JournalSignature({ facility, shift, date }: { facility: string; shift: string; date: string }) {
  const me = useMe().data;
  const signatures = useJournalSignatures(facility, date);
  const sign = useSignJournal(facility);
  const given = signatures.data?.results.find((s) => s.shift === shift);
  const canSign = me?.duty === "agk_operator" && isCheckDuty(me.duty) && me.role !== "reviewer";
  return (
    <Flex vertical gap={4} data-testid="journal-signature">
      <Flex wrap gap={8} align="center">
        <Typography.Text>
          <Typography.Text type="secondary">Подпись оператора АГК за смену:</Typography.Text>{" "}
          {given ? `${given.by}, ${displayDateTime(given.at)}${given.statement ? `; ${given.statement}` : ""}` : "не подписано"}
        </Typography.Text>
        {!given && canSign && (
          <Button size="small" loading={sign.isPending} onClick={() => sign.mutate(shift)}>
            Подписать журнал смены
          </Button>
        )}
        <Link to={`/facilities/${facility}/handovers`}>Передача смены</Link>
      </Flex>
      {sign.isError && <Alert type="error" showIcon role="alert" title={isApiError(sign.error) ? sign.error.detail : String(sign.error)} />}
    </Flex>
  );
}
