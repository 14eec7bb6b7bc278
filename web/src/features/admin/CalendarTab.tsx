// «Производственный календарь»: the years the review deadline is counted by (docs/user-guide.md, The
// review register and the production calendar). Each year lists its weekdays that are days off and
// its working Saturdays and Sundays, typed as ДД.ММ.ГГГГ, with the decree they come from; a year not
// loaded is counted Monday to Friday and the inventory says so. The core's rules check the days as
// typed (the server checks them again and answers in the same words).
import { useState } from "react";
import { Alert, Button, DatePicker, Form, Input, Space, Tag, Typography } from "antd";
import { CALENDAR_DECREE_MAX } from "@server/contract/schemas/limits";
import { EditOutlined, PlusOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import dayjs, { type Dayjs } from "dayjs";
import {
  CALENDAR_LIST_LABELS,
  CALENDAR_YEARS,
  calendarDayProblems,
  typedDayList,
  typedDays,
  weekdayName,
  type CalendarDayList,
} from "@core/calendar-days";
import { ruDate } from "@core/dates";
import { isApiError } from "../../api/client";
import { fieldProblem } from "../../shared/fieldErrors";
import { Table } from "../../shared/LazyTable";
import { useFeedback } from "../../shared/feedback";
import { DATE_FIELD_FORMATS, displayDateTime } from "../../shared/dates";
import { inventoryKey } from "../../api/inventory";
import { adminKeys, createCalendarYear, errorText, putCalendarYear, useCalendarYears, type CalendarYear } from "../../api/admin";
import { FormDialog } from "../../shared/FormDialog";

interface CalendarForm {
  year?: string;
  title: string;
  number?: string;
  date?: Dayjs | null;
  days_off?: string;
  working_days?: string;
}

/** The form's field a server message names («decree.date: …» → date). */
const SERVER_FIELDS: Record<string, keyof CalendarForm> = {
  year: "year",
  "decree.title": "title",
  "decree.number": "number",
  "decree.date": "date",
  days_off: "days_off",
  working_days: "working_days",
};

const LIST_PLACEHOLDERS: Record<CalendarDayList, string> = { days_off: "01.01.2027, 04.01.2027", working_days: "06.11.2027" };

const LIST_HINTS: Record<CalendarDayList, string> = {
  days_off: "Будние дни, которые не работают: праздники и выходные, перенесенные на будни. ДД.ММ.ГГГГ через запятую.",
  working_days: "Субботы и воскресенья, ставшие рабочими по постановлению. ДД.ММ.ГГГГ через запятую.",
};

/** The year typed in the dialog, or undefined while it is not four digits within the bounds. */
function typedYear(text: string | undefined): number | undefined {
  const year = Number(text?.trim());
  return /^\d{4}$/.test(text?.trim() ?? "") && year >= CALENDAR_YEARS.min && year <= CALENDAR_YEARS.max ? year : undefined;
}

/** «№ 1306 от 10.08.2023». */
const decreeRequisites = (decree: CalendarYear["decree"]) =>
  [decree.number && `№ ${decree.number}`, decree.date && `от ${ruDate(decree.date)}`].filter(Boolean).join(" ");

function CalendarDialog({ year, onClose }: { year?: CalendarYear; onClose: () => void }) {
  const [form] = Form.useForm<CalendarForm>();
  const [failure, setFailure] = useState<string | null>(null);
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (values: CalendarForm) => {
      const body = {
        decree: {
          title: values.title.trim(),
          number: values.number?.trim() ?? "",
          date: values.date ? values.date.format("YYYY-MM-DD") : "",
        },
        days_off: typedDays(values.days_off ?? "").days,
        working_days: typedDays(values.working_days ?? "").days,
      };
      setFailure(null);
      return year
        ? putCalendarYear(year.year, { ...body, version: year.version })
        : createCalendarYear({ ...body, year: typedYear(values.year)! });
    },
    onSuccess: async (saved) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.calendar }),
        queryClient.invalidateQueries({ queryKey: adminKeys.auditAll }),
        // A review's deadline is counted by the calendar as it is now.
        queryClient.invalidateQueries({ queryKey: inventoryKey }),
      ]);
      message.success(`Производственный календарь на ${saved.year} год сохранен`);
      onClose();
    },
    onError: (error) => {
      const problem = isApiError(error) ? fieldProblem(error) : undefined;
      const field = problem ? SERVER_FIELDS[problem.field] : undefined;
      if (problem && field) form.setFields([{ name: field, errors: [problem.message] }]);
      else setFailure(errorText(error));
    },
  });

  /** The list's problems as typed: pieces that are no date, then the core's rules for the year. */
  const listRule = (list: CalendarDayList) => ({
    validator: async (_: unknown, text: string | undefined) => {
      const typed = typedDays(text ?? "");
      if (typed.problems.length > 0) throw new Error(typed.problems.join("; "));
      const number = year?.year ?? typedYear(form.getFieldValue("year"));
      if (number === undefined) return;
      const other: CalendarDayList = list === "days_off" ? "working_days" : "days_off";
      const days = { [list]: typed.days, [other]: typedDays(form.getFieldValue(other) ?? "").days } as Record<CalendarDayList, string[]>;
      const problems = calendarDayProblems(number, days).filter((p) => p.list === list);
      if (problems.length > 0) throw new Error(problems.map((p) => p.message).join("; "));
    },
  });

  return (
    <FormDialog
      form={form}
      open
      title={year ? `Производственный календарь на ${year.year} год` : "Новый год производственного календаря"}
      okText={year ? "Сохранить" : "Добавить"}
      saving={save.isPending}
      onClose={onClose}
      width={640}
    >
      <Form<CalendarForm>
        form={form}
        layout="vertical"
        initialValues={
          year
            ? {
                title: year.decree.title,
                number: year.decree.number,
                date: year.decree.date ? dayjs(year.decree.date) : null,
                days_off: typedDayList(year.days_off),
                working_days: typedDayList(year.working_days),
              }
            : {}
        }
        onFinish={(values) => save.mutate(values)}
      >
        {!year && (
          <Form.Item
            label="Год"
            name="year"
            rules={[
              {
                validator: async (_, text: string | undefined) => {
                  if (typedYear(text) === undefined) throw new Error(`Год из четырех цифр, ${CALENDAR_YEARS.min}–${CALENDAR_YEARS.max}`);
                },
              },
            ]}
          >
            <Input inputMode="numeric" maxLength={String(CALENDAR_YEARS.max).length} style={{ width: 120 }} placeholder="ГГГГ" />
          </Form.Item>
        )}
        <Form.Item
          label="Постановление о переносе выходных дней"
          name="title"
          rules={[{ required: true, whitespace: true, message: "Укажите название постановления" }]}
        >
          <Input.TextArea
            autoSize={{ minRows: 2 }}
            maxLength={CALENDAR_DECREE_MAX.title}
            placeholder="Постановление Правительства РФ «О переносе выходных дней в … году»"
          />
        </Form.Item>
        <Space wrap>
          <Form.Item label="Номер" name="number">
            <Input style={{ width: 180 }} maxLength={CALENDAR_DECREE_MAX.number} />
          </Form.Item>
          <Form.Item label="Дата постановления" name="date">
            <DatePicker format={DATE_FIELD_FORMATS} placeholder="ДД.ММ.ГГГГ" />
          </Form.Item>
        </Space>
        {(["days_off", "working_days"] as const).map((list) => (
          <Form.Item
            key={list}
            label={CALENDAR_LIST_LABELS[list]}
            name={list}
            extra={LIST_HINTS[list]}
            dependencies={[list === "days_off" ? "working_days" : "days_off", "year"]}
            rules={[listRule(list)]}
          >
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} placeholder={LIST_PLACEHOLDERS[list]} />
          </Form.Item>
        ))}
        {failure && <Alert type="error" showIcon title={failure} />}
      </Form>
    </FormDialog>
  );
}

/** The days of a list as tags «01.01.2027, пятница». */
function Days({ days }: { days: readonly string[] }) {
  if (days.length === 0) return <Typography.Text type="secondary">нет</Typography.Text>;
  return (
    <Space size={[4, 4]} wrap>
      {days.map((day) => (
        <Tag key={day} style={{ marginInlineEnd: 0 }}>
          {ruDate(day)}, {weekdayName(day)}
        </Tag>
      ))}
    </Space>
  );
}

export function CalendarTab() {
  const { data, isLoading } = useCalendarYears();
  const [dialog, setDialog] = useState<CalendarYear | "new" | null>(null);
  return (
    <>
      <Typography.Paragraph type="secondary" style={{ maxWidth: 760 }}>
        Срок доработки отчета после уведомления о возврате — 20 рабочих дней по производственному календарю. Год, которого здесь нет,
        считается с понедельника по пятницу, и инвентаризация предупреждает об этом.
      </Typography.Paragraph>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog("new")} style={{ marginBottom: 16 }}>
        Добавить год
      </Button>
      <Table<CalendarYear>
        rowKey="year"
        loading={isLoading}
        dataSource={data?.results ?? []}
        pagination={false}
        locale={{ emptyText: "Производственный календарь не загружен" }}
        expandable={{
          expandedRowRender: (year) => (
            <Space orientation="vertical" size={8}>
              {(["days_off", "working_days"] as const).map((list) => (
                <div key={list}>
                  <Typography.Text strong>{CALENDAR_LIST_LABELS[list]}</Typography.Text>
                  <div style={{ marginTop: 4 }}>
                    <Days days={year[list]} />
                  </div>
                </div>
              ))}
            </Space>
          ),
        }}
        columns={[
          { title: "Год", dataIndex: "year", width: 80 },
          {
            title: "Постановление",
            key: "decree",
            render: (_, year) => (
              <Space orientation="vertical" size={0}>
                <Typography.Text>{year.decree.title}</Typography.Text>
                <Typography.Text type="secondary">{decreeRequisites(year.decree)}</Typography.Text>
                <Typography.Text type="secondary">
                  {CALENDAR_LIST_LABELS.days_off}: {year.days_off.length}; {CALENDAR_LIST_LABELS.working_days.toLowerCase()}:{" "}
                  {year.working_days.length}
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: "Изменен",
            key: "updated",
            width: 190,
            responsive: ["md"],
            render: (_, year) => (
              <Space orientation="vertical" size={0}>
                <Typography.Text>{displayDateTime(year.updated_at)}</Typography.Text>
                <Typography.Text type="secondary">{year.updated_by === "system" ? "при установке" : year.updated_by}</Typography.Text>
              </Space>
            ),
          },
          {
            title: "",
            key: "actions",
            width: 64,
            render: (_, year) => (
              <Button
                icon={<EditOutlined />}
                title="Изменить"
                aria-label={`Изменить календарь на ${year.year} год`}
                onClick={() => setDialog(year)}
              />
            ),
          },
        ]}
      />
      {dialog !== null && <CalendarDialog year={dialog === "new" ? undefined : dialog} onClose={() => setDialog(null)} />}
    </>
  );
}
