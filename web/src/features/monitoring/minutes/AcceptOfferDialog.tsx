// «Принять» of «Данные АГК» (D63): a month into a project of the facility and of the month's year (none:
// «создайте проект площадки на 2026 год»), below 95 % with a reason. «Принять заново»: a
// month whose readings changed since, into the project it is in, with the reason the change log keeps
// (its calculation gets a new version, the old figures stay in its history); a month whose calculation was
// archived, into a project of the year again. D92: a drainage station's month is gross; where the register
// places its meter after a take-off to use, the dialog asks what the meter measures.
import { useState } from "react";
import { Alert, Flex, Input, Modal, Radio, Select, Typography } from "antd";
import { Link } from "react-router-dom";
import { LIMITS } from "@server/contract";
import { OFFER_COMPLETENESS } from "@core/monitoring";
import { useMe } from "../../../api/profile";
import { useProjects } from "../../../api/projects";
import { useAcceptOffers, type Offer } from "../../../api/monitoring";
import { monthText, number, percent } from "../texts/offerTexts";
import { keepSignsWithNumbers } from "../../../shared/text";

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
  const monthYear = Number(offer.month.slice(0, 4));
  // A month accepted before with its calculation live is accepted again into the same project.
  const replacing = offer.accepted !== null && !offer.accepted.calculation_archived;
  const options = (projects.data?.results ?? [])
    .filter((p) => p.facility === facility && p.reporting_year === monthYear && (!replacing || p.id === offer.accepted?.project))
    .map((p) => ({ value: p.id, label: p.name }));
  const [chosen, setProject] = useState<string | undefined>();
  const project = chosen ?? (replacing ? offer.accepted?.project : undefined);
  const [reason, setReason] = useState("");
  const [basis, setBasis] = useState<"gross" | "net" | undefined>();
  const accept = useAcceptOffers(facility, year);
  const low = offer.completeness < OFFER_COMPLETENESS;
  const needsReason = low || replacing || offer.doubt !== null;
  const noProject = projects.isSuccess && options.length === 0;
  const title = offer.accepted ? "Принять заново" : "Принять";
  return (
    <Modal
      open
      title={keepSignsWithNumbers(`${title}: ${offer.point_name}, ${monthText(offer.month)}`)}
      onCancel={onClose}
      okText={title}
      cancelText="Отмена"
      okButtonProps={{
        disabled: !project || noProject || (needsReason && !reason.trim()) || (offer.basis_asked && !basis),
        loading: accept.isPending,
      }}
      onOk={() =>
        accept.mutate(
          {
            point: offer.point,
            months: [offer.month],
            project: project!,
            ...(needsReason ? { reason: reason.trim() } : {}),
            ...(offer.basis_asked && basis ? { basis } : {}),
          },
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
        {replacing && offer.accepted && (
          <Alert
            type="info"
            showIcon
            title={keepSignsWithNumbers(
              `Принято ${number(offer.accepted.ch4_t, 3)} т CH4, по показаниям сейчас ${number(offer.ch4_t, 3)} т. ` +
                "Расчет месяца получит новую версию; прежние показатели и показания, по которым они получены, останутся в его истории.",
            )}
          />
        )}
        {noProject ? (
          <Alert
            type="warning"
            showIcon
            title={`Нет проекта этой площадки на ${monthYear} год: создайте проект площадки на ${monthYear} год`}
            description={<Link to="/projects">Перейти к проектам</Link>}
          />
        ) : (
          <Select
            aria-label="Проект"
            placeholder={`Проект площадки на ${monthYear} год`}
            options={options}
            value={project}
            onChange={setProject}
            disabled={replacing}
          />
        )}
        {offer.basis_asked && (
          <Flex vertical gap={4}>
            <Typography.Text>
              Счетчик установки стоит после отбора газа на использование (карточка источника). Что он измеряет?
            </Typography.Text>
            <Radio.Group
              aria-label="Основа месяца"
              value={basis}
              onChange={(e) => setBasis(e.target.value)}
              options={[
                { value: "gross", label: "весь каптированный газ (валовый)" },
                { value: "net", label: "только выброшенный без сжигания (чистый)" },
              ]}
            />
          </Flex>
        )}
        {low && (
          <Alert
            type="warning"
            showIcon
            title={keepSignsWithNumbers(
              `Полнота данных ${percent(offer.completeness)} — ниже 95 %: укажите причину, ее напечатает паспорт`,
            )}
          />
        )}
        {offer.doubt && (
          <Alert
            type="warning"
            showIcon
            title={keepSignsWithNumbers(
              `${offer.doubt.text}. Показания сохранены и учтены, не замещены: укажите причину, по которой месяц принимается, ее напечатает паспорт`,
            )}
          />
        )}
        {needsReason && (
          <Input.TextArea
            aria-label={replacing ? "Почему месяц принимается заново" : "Причина"}
            placeholder={replacing ? "Причина запишется в журнал изменений" : undefined}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            maxLength={LIMITS.text.justification}
          />
        )}
        {accept.isError && <Alert type="error" showIcon role="alert" title={accept.error.message} />}
      </Flex>
    </Modal>
  );
}
