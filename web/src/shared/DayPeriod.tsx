// The period of company days a monitoring record's page reads — «Книга учета загазирований», «Проверки
// датчиков», «Передача смены»: «С» and «По» typed as «01.01.2025» (from a first day the page chooses to
// today, on the company's clock), the period's files as buttons beside them, and under them what is wrong —
// dates that do not read as dates, a file the server refused. One place for what the three pages repeated.
import { useState } from "react";
import { Alert, Button, Flex } from "antd";
import { isoDateIn, zoneOf } from "@core/company-clock";
import { isApiError } from "../api/client";
import { useMe } from "../api/profile";
import { TypedDateField } from "./TypedDateField";
import { displayDate, typedDate } from "./dates";
import { DAY_MS } from "@core/dates";

/** The first day of a period: `days` days before today. */
export const daysBefore =
  (days: number) =>
  (today: string): string =>
    new Date(Date.parse(today) - days * DAY_MS).toISOString().slice(0, 10);
/** The first day of a period: the first of today's month. */
export const monthStart = (today: string): string => `${today.slice(0, 8)}01`;

export interface DayPeriod {
  fromText: string;
  toText: string;
  setFromText(text: string): void;
  setToText(text: string): void;
  /** ГГГГ-ММ-ДД, or undefined while its text does not read as a date. */
  from: string | undefined;
  to: string | undefined;
}

/** A period from `firstDay(today)` to today, today on the company's clock, each end typed as ДД.ММ.ГГГГ. */
export function useDayPeriod(firstDay: (today: string) => string): DayPeriod {
  const me = useMe();
  const today = isoDateIn(new Date(), zoneOf(me.data?.company));
  const [fromText, setFromText] = useState(() => displayDate(firstDay(today)));
  const [toText, setToText] = useState(() => displayDate(today));
  return { fromText, toText, setFromText, setToText, from: typedDate(fromText), to: typedDate(toText) };
}

/** A file of the period: its button's label, and how it is saved for the period's ends. */
export interface PeriodFile {
  label: string;
  save(from: string, to: string): Promise<void>;
}

export function DayPeriodHeader({ period, files = [] }: { period: DayPeriod; files?: readonly PeriodFile[] }) {
  const { fromText, toText, setFromText, setToText, from, to } = period;
  const [fileError, setFileError] = useState<string>();
  async function save(file: PeriodFile) {
    setFileError(undefined);
    try {
      await file.save(from as string, to as string);
    } catch (error) {
      setFileError(isApiError(error) ? error.detail : error instanceof Error ? error.message : String(error));
    }
  }
  return (
    <Flex vertical gap={12}>
      <Flex wrap gap={12} align="end">
        <TypedDateField label="С" value={fromText} onChange={setFromText} />
        <TypedDateField label="По" value={toText} onChange={setToText} />
        {files.map((file) => (
          <Button key={file.label} disabled={!from || !to} onClick={() => save(file)}>
            {file.label}
          </Button>
        ))}
      </Flex>
      {(!from || !to) && <Alert type="warning" showIcon title="Даты в виде ДД.ММ.ГГГГ" />}
      {fileError && <Alert type="error" showIcon role="alert" title={fileError} />}
    </Flex>
  );
}
