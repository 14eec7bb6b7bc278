// «Принять» of «Данные АГК» (D63): a month into a project of the facility, below 95 % with a reason.
import { useState } from "react";
import { Alert, Flex, Input, Modal, Select, Typography } from "antd";
import { LIMITS } from "@server/contract";
import { OFFER_COMPLETENESS } from "@core/telemetry";
import { useMe } from "../../api/profile";
import { useProjects } from "../../api/projects";
import { useAcceptOffers, type Offer } from "../../api/telemetry";
import { monthText, number, percent } from "./offerTexts";
import { keepSignsWithNumbers } from "../../shared/text";

export default function AcceptDialog({
  facility,
  year,
  offer,
  onClose,
}: {
  facility: string;
  year: number;
  offer: Offer;
  onClose: () => void;
}) {
  const me = useMe();
  const projects = useProjects({ companyId: me.data?.company.id, archived: false, page: 1 });
  const options = (projects.data?.results ?? []).filter((p) => p.facility === facility).map((p) => ({ value: p.id, label: p.name }));
  const [project, setProject] = useState<string | undefined>();
  const [reason, setReason] = useState("");
  const accept = useAcceptOffers(facility, year);
  const low = offer.completeness < OFFER_COMPLETENESS;
  return (
    <Modal
      open
      title={keepSignsWithNumbers(`Принять: ${offer.point_name}, ${monthText(offer.month)}`)}
      onCancel={onClose}
      okText="Принять"
      cancelText="Отмена"
      okButtonProps={{ disabled: !project || (low && !reason.trim()), loading: accept.isPending }}
      onOk={() =>
        accept.mutate(
          { point: offer.point, months: [offer.month], project: project!, ...(low ? { reason: reason.trim() } : {}) },
          { onSuccess: onClose },
        )
      }
    >
      <Flex vertical gap={12}>
        <Typography.Text>
          {keepSignsWithNumbers(
            `Расчет «по данным АГК» (уровень 3): ${number(offer.volume_thousand_m3, 2)} тыс. м³, CH4 ${number(offer.ef_ch4, 4)} % об., ${number(offer.ch4_t, 3)} т.`,
          )}
        </Typography.Text>
        <Select aria-label="Проект" placeholder="Проект площадки" options={options} value={project} onChange={setProject} />
        {low && (
          <>
            <Alert
              type="warning"
              showIcon
              title={keepSignsWithNumbers(
                `Полнота данных ${percent(offer.completeness)} — ниже 95 %: укажите причину, ее напечатает паспорт`,
              )}
            />
            <Input.TextArea
              aria-label="Причина"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={LIMITS.text.justification}
            />
          </>
        )}
        {accept.isError && <Alert type="error" showIcon role="alert" title={accept.error.message} />}
      </Flex>
    </Modal>
  );
}
