// «Книга учета загазирований» of a mine (issue 105): the gassings of a period of company days with
// their entries — the type, the cause, the measures, the losses, who cleared the gas and who
// investigated, who registered and closed each, and the confirmations of the section's head, the head
// of the АБ section and the chief engineer (given here by the user an administrator gave that duty);
// the book as xlsx or PDF in its columns with the signature lines. At most 92 days at once.
// Advisory: protective cut-off stays with the mine's own АГК.
import { lazy, Suspense, useState } from "react";
import { Alert, Button, Flex, Typography } from "antd";
import { useParams } from "react-router-dom";
import { isoDateIn, zoneOf } from "@core/company-clock";
import { DUTIES, DUTY_LABELS } from "@core/gassing-book";
import { LoadError } from "../../shared/LoadError";
import { TypedDateField } from "../../shared/TypedDateField";
import { displayDate, typedDate } from "../../shared/dates";
import { useMe } from "../../api/profile";
import { useGassings } from "../../api/journal";
import { downloadGassingBook } from "../../api/gassing-book";
import { MonitoringHead } from "./MonitoringHead";
import { LazyLoading } from "../../shared/LazyLoading";

// The records' card loads with its table (lazy itself), as on «События»: antd's Card and Tag stay out of
// the page's initial JS (issue 20's budget).
const GassingsCard = lazy(() => import("./GassingsCard").then((m) => ({ default: m.GassingsCard })));

export default function GassingBookPage() {
  const { facilityId = "" } = useParams();
  const me = useMe();
  const zone = zoneOf(me.data?.company);
  const today = isoDateIn(new Date(), zone);
  const [fromText, setFromText] = useState(() => displayDate(`${today.slice(0, 8)}01`));
  const [toText, setToText] = useState(() => displayDate(today));
  const [fileError, setFileError] = useState<string>();
  const from = typedDate(fromText);
  const to = typedDate(toText);
  const book = useGassings(facilityId, from, to);
  const duty = me.data?.duty;

  async function save(format: "xlsx" | "pdf") {
    setFileError(undefined);
    try {
      await downloadGassingBook(facilityId, from as string, to as string, format);
    } catch (error) {
      setFileError(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <Flex vertical gap={16}>
      <MonitoringHead page="Книга учета загазирований" facilityId={facilityId} current="gassing-book" limits />
      <Flex wrap gap={12} align="end">
        <TypedDateField label="С" value={fromText} onChange={setFromText} />
        <TypedDateField label="По" value={toText} onChange={setToText} />
        <Button disabled={!from || !to} onClick={() => save("xlsx")}>
          Книга (xlsx)
        </Button>
        <Button disabled={!from || !to} onClick={() => save("pdf")}>
          Книга (PDF)
        </Button>
      </Flex>
      {(!from || !to) && <Alert type="warning" showIcon title="Даты в виде ДД.ММ.ГГГГ" />}
      {fileError && <Alert type="error" showIcon role="alert" title={fileError} />}
      {book.isError && <LoadError what="книгу загазирований" message={book.error.message} retry={() => book.refetch()} />}
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        Запись закрывает диспетчер, указав причину, вид и принятые меры; закрытая запись не меняется. Подтверждают начальник участка,
        начальник участка АБ и главный инженер — пользователи, которым администратор назначил эту обязанность.
        {duty && DUTIES.includes(duty as never) ? ` Вы подтверждаете как ${DUTY_LABELS[duty as (typeof DUTIES)[number]]}.` : ""} Записи
        хранятся без срока удаления.
      </Typography.Paragraph>
      <Suspense fallback={<LazyLoading />}>
        <GassingsCard
          facility={facilityId}
          title={from && to ? `Записи с ${fromText} по ${toText}` : "Записи"}
          gassings={from && to ? (book.data?.results ?? []) : []}
          loading={book.isPending && Boolean(from && to)}
        />
      </Suspense>
    </Flex>
  );
}
