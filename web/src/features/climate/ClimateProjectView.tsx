// A climate project's card, the computation of a monitoring period and its result (the «Климатические
// проекты» screen, ClimateProjectsPage.tsx; methodology section 13): a chunk of its own, loaded once a
// project is chosen. The figures are an assessment, never part of the inventory.
import { lazy, Suspense, useState } from "react";
import { Alert, Button, Card, DatePicker, Descriptions, Flex, Form, Input, Tag, Typography, type TableColumnsType } from "antd";
import { ListTable, Table } from "../../shared/LazyTable";
import type { Dayjs } from "dayjs";
import { LIMITS } from "@server/contract/schemas/limits";
import { DATE_FIELD_FORMATS, DATE_FORMAT, DATE_TYPED, displayDate, displayDateTime } from "../../shared/dates";
import { formatResult, numberText, parseNumericInput } from "../../shared/decimals";
import { LoadError } from "../../shared/LoadError";
import { NumericInput } from "../../shared/NumericInput";
import { PageLoading } from "../../shared/PageLoading";
import { useUrlQuery } from "../../shared/urlState";
import type { FileJob } from "../../api/client";
import { PeriodApproval } from "./PeriodApproval";
import {
  type ClimatePeriod,
  type ClimatePeriodSummary,
  type ClimateProject,
  useClimatePeriod,
  useClimatePeriods,
  useClimateProject,
  useComputePeriod,
} from "./api";
import { CHANNELS, DEVICE_KINDS, type Channel, type DeviceKind } from "./texts";
import { ClimatePackDownload } from "./ClimatePackDownload";
import { DeviationsTable, hourBlockColumns, hoursText, n, nowrap, T } from "./PeriodTables";
import { ClimateDayCheck } from "./ClimateDayCheck";
import { ClimateSignatures } from "./ClimateSignatures";

// The form (the register's sensors, the points, the methodology) loads when a project is changed.
const ClimateProjectForm = lazy(() => import("./ClimateProjectForm").then((m) => ({ default: m.ClimateProjectForm })));
// The period's report on implementation loads with a period.
const ClimateReportCard = lazy(() => import("./ClimateReportCard"));

/** A computed period: its approval, pack, signatures, totals, deviations and each device's hours. */
export function PeriodResult({ project, period }: { project: string; period: ClimatePeriod }) {
  const t = period.totals;
  return (
    <Flex vertical gap={16} data-testid="climate-period">
      <PeriodApproval project={project} period={period} />
      <ClimatePackDownload project={period.project} period={period.id} />
      <ClimateSignatures project={period.project} period={period.id} />
      <Descriptions
        bordered
        size="small"
        column={{ xs: 1, md: 2 }}
        contentStyle={{ whiteSpace: "nowrap" }}
        title={`Отчетный период ${hoursText(`${period.start.slice(0, 13)}`)} – ${displayDateTime(period.end)}`}
        items={[
          {
            key: "units",
            label: "Углеродные единицы",
            children: <Typography.Text strong>{formatResult(period.carbon_units, 0)}</Typography.Text>,
          },
          { key: "er", label: `Сокращение выбросов ER, ${T}`, children: n(t.er_t_co2e, 6) },
          { key: "be", label: `Базовые выбросы BE, ${T}`, children: n(t.be_t_co2e, 6) },
          { key: "pe", label: `Проектные выбросы PE, ${T}`, children: n(t.pe_t_co2e, 6) },
          { key: "le", label: `Утечки LE, ${T}`, children: n(t.le_t_co2e, 6) },
          { key: "m", label: "Метан, направленный на устройства, т", children: n(t.m_ch4_t, 6) },
          { key: "el", label: "Электроэнергия зачтенная / нетто, МВт·ч", children: `${n(t.e_cred_mwh, 3)} / ${n(t.e_net_mwh, 3)}` },
          {
            key: "deficit",
            label: `Дефицит: перенесен из прошлого / на следующий период, ${T}`,
            children: `${n(t.deficit_prev_t_co2e, 6)} / ${n(t.deficit_carried_t_co2e, 6)}`,
          },
        ]}
      />
      <Typography.Title level={4} style={{ margin: 0 }}>
        Отклонения
      </Typography.Title>
      <DeviationsTable deviations={period.deviations} />
      {period.devices.map((device) => {
        const rows = device.blocks.map((b, i) => ({ ...b, key: i }));
        const columns: TableColumnsType<(typeof rows)[number]> = [
          { title: "Часы", dataIndex: "label", render: (label: string) => hoursText(label) },
          ...hourBlockColumns<(typeof rows)[number]>(),
          { title: `ER, ${T}/ч`, dataIndex: "er_ch4_t_co2e", align: "right", onCell: nowrap, render: (v: number) => n(v, 6) },
        ];
        return (
          <Card key={device.id} size="small" title={`${device.id} — ${DEVICE_KINDS[device.kind as DeviceKind]}`}>
            <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
              Часов {formatResult(device.summary.hours, 0)}, учтено {formatResult(device.summary.hours_valid, 0)}, не подтверждено{" "}
              {formatResult(device.summary.hours_not_proven, 0)}, нет данных {formatResult(device.summary.hours_no_data, 0)}; ER{" "}
              {n(device.summary.er_ch4, 6)} {T}
            </Typography.Paragraph>
            <Table
              size="small"
              rowKey="key"
              columns={columns}
              dataSource={rows}
              pagination={rows.length > LIMITS.page.climateHours ? { pageSize: LIMITS.page.climateHours, showSizeChanger: false } : false}
              scroll={{ x: 720 }}
            />
          </Card>
        );
      })}
    </Flex>
  );
}

/** Hours of a calendar year, by which the assessment's yearly reduction is spread over a period's hours. */
const YEAR_HOURS = 8_760;

/** the reduction the assessment expected for the option the project puts into practice
 *  (a year's, spread over each period's hours) against what each period measured. */
function ExpectedAgainstMeasured({
  expected,
  periods,
}: {
  expected: NonNullable<ClimateProject["expected"]>;
  periods: readonly ClimatePeriodSummary[];
}) {
  const rows = periods.map((row) => {
    const planned = (expected.er_t_co2e_per_year * row.hours) / YEAR_HOURS;
    const measured = row.totals.er_t_co2e ?? 0;
    return {
      id: row.id,
      start: row.start,
      end: row.end,
      hours: row.hours,
      planned,
      measured,
      share: planned > 0 ? measured / planned : null,
    };
  });
  return (
    <Card size="small" title="Ожидаемые и измеренные сокращения" data-testid="climate-expected">
      <Typography.Paragraph style={{ marginTop: 0 }}>
        По оценке «{expected.assessment_name}», поток «{expected.stream}»: {expected.option_label}, {n(expected.er_t_co2e_per_year, 3)} {T}{" "}
        в год ({formatResult(expected.carbon_units_per_year, 0)} ед.). Ожидаемое за период — годовое, разнесенное по часам периода (год —{" "}
        {formatResult(YEAR_HOURS, 0)} ч).
      </Typography.Paragraph>
      <ListTable
        rowKey="id"
        scroll={{ x: 560 }}
        locale={{ emptyText: "Периодов пока нет" }}
        dataSource={rows}
        columns={[
          { title: "Период", key: "period", render: (_, r) => `${displayDateTime(r.start)} – ${displayDateTime(r.end)}` },
          { title: "Часов", dataIndex: "hours", align: "right", render: (v: number) => formatResult(v, 0) },
          { title: `Ожидаемое ER, ${T}`, dataIndex: "planned", align: "right", render: (v: number) => n(v, 3) },
          { title: `Измеренное ER, ${T}`, dataIndex: "measured", align: "right", render: (v: number) => n(v, 3) },
          {
            title: "Измеренное / ожидаемое",
            dataIndex: "share",
            align: "right",
            render: (v: number | null) => (v === null ? "—" : `${formatResult(v * 100, 1)} %`),
          },
        ]}
      />
    </Card>
  );
}

interface PeriodValues {
  start?: Dayjs;
  end?: Dayjs;
  e_grid_aux_mwh?: string;
  leakage_t_co2e?: string;
  ef_grid_t_per_mwh?: string;
  ef_grid_source?: string;
  nmhc_pct_vol?: string;
}

/** EF_grid and its source as the period's form states them; nothing while neither is typed. */
function gridStated(v: PeriodValues): { ef_grid_t_per_mwh?: number | null; ef_grid_source?: string | null } {
  const value = parseNumericInput(v.ef_grid_t_per_mwh ?? "");
  const source = v.ef_grid_source?.trim();
  if (value === undefined && !source) return {};
  return { ef_grid_t_per_mwh: value ?? null, ef_grid_source: source || null };
}

export default function ClimateProjectView({ id }: { id: string }) {
  const { params, update } = useUrlQuery();
  const project = useClimateProject(id);
  const periods = useClimatePeriods(id);
  // A long period is computed as a job: its bounds as typed and its state while it runs.
  const [computing, setComputing] = useState<{ from: string; to: string; job?: FileJob }>();
  const compute = useComputePeriod(id, (job) => setComputing((shown) => shown && { ...shown, job }));
  const periodId = params.get("period") ?? undefined;
  const period = useClimatePeriod(id, periodId);
  const [editing, setEditing] = useState(false);
  if (project.error) return <LoadError what="проект" message={project.error.message} retry={() => void project.refetch()} />;
  if (!project.data) return null;
  const p = project.data;
  if (editing) {
    return (
      <Suspense fallback={<PageLoading />}>
        <ClimateProjectForm project={p} onSaved={() => setEditing(false)} onCancel={() => setEditing(false)} />
      </Suspense>
    );
  }
  const submit = (v: PeriodValues) => {
    setComputing({ from: (v.start as Dayjs).format(DATE_FORMAT), to: (v.end as Dayjs).format(DATE_FORMAT) });
    compute.mutate(
      {
        start: (v.start as Dayjs).format(DATE_FORMAT),
        end: (v.end as Dayjs).add(1, "day").format(DATE_FORMAT),
        period: {
          e_grid_aux_mwh: parseNumericInput(v.e_grid_aux_mwh ?? "") ?? 0,
          leakage_t_co2e: parseNumericInput(v.leakage_t_co2e ?? "") ?? 0,
          ...gridStated(v),
          ...(parseNumericInput(v.nmhc_pct_vol ?? "") !== undefined ? { nmhc_pct_vol: parseNumericInput(v.nmhc_pct_vol ?? "") } : {}),
        },
      },
      { onSuccess: (done) => update({ period: done.id }), onSettled: () => setComputing(undefined) },
    );
  };
  return (
    <Flex vertical gap={16}>
      <Card size="small" title={p.name} extra={<Button onClick={() => setEditing(true)}>Изменить</Button>} data-testid="climate-project">
        <Typography.Paragraph style={{ marginTop: 0 }}>
          С {displayDate(p.start)}
          {p.end ? ` по ${displayDate(p.end)}` : ""}; методология {p.methodology.code} версии {p.methodology.version}; правила платформы{" "}
          {p.rules_version}.
        </Typography.Paragraph>
        <ListTable
          rowKey="name"
          scroll={{ x: 640 }}
          dataSource={p.devices}
          columns={[
            { title: "Устройство", dataIndex: "name" },
            { title: "Вид", dataIndex: "kind", render: (k: DeviceKind) => DEVICE_KINDS[k] },
            {
              title: "Датчики",
              key: "sensors",
              render: (_, d) =>
                Object.entries(d.sensors)
                  .filter(([, code]) => code)
                  .map(([c, code]) => `${CHANNELS[c as Channel].label.toLowerCase()}: ${code}`)
                  .join("; "),
            },
          ]}
        />
      </Card>
      {p.expected && <ExpectedAgainstMeasured expected={p.expected} periods={periods.data?.results ?? []} />}
      <ClimateDayCheck project={id} />
      <Card size="small" title="Расчет отчетного периода">
        <Form<PeriodValues>
          layout="vertical"
          onFinish={submit}
          initialValues={{ ef_grid_t_per_mwh: p.ef_grid ? numberText(p.ef_grid.t_per_mwh) : undefined, ef_grid_source: p.ef_grid?.source }}
        >
          <Flex wrap gap={12} align="end">
            <Form.Item label="Начало периода" name="start" rules={[{ required: true, message: `Укажите дату: ${DATE_TYPED}` }]}>
              <DatePicker format={DATE_FIELD_FORMATS} placeholder={DATE_TYPED} />
            </Form.Item>
            <Form.Item label="Конец периода (включительно)" name="end" rules={[{ required: true, message: `Укажите дату: ${DATE_TYPED}` }]}>
              <DatePicker format={DATE_FIELD_FORMATS} placeholder={DATE_TYPED} />
            </Form.Item>
            <Form.Item label="Покупная электроэнергия, МВт·ч" name="e_grid_aux_mwh">
              <NumericInput decimals={6} />
            </Form.Item>
            <Form.Item label={`Утечки, ${T}`} name="leakage_t_co2e">
              <NumericInput decimals={6} />
            </Form.Item>
            <Form.Item
              label="EF_grid, т CO2/МВт·ч"
              name="ef_grid_t_per_mwh"
              tooltip="Коэффициент выбросов энергосистемы (D51, D75): нужен, если период зачитывает выработку ГПУ, учитывает собственные нужды или покупает электроэнергию"
            >
              <NumericInput decimals={4} />
            </Form.Item>
            <Form.Item label="Источник EF_grid" name="ef_grid_source" style={{ minWidth: 220 }}>
              <Input />
            </Form.Item>
            <Form.Item
              label="НМУВ по анализу газа, % об."
              name="nmhc_pct_vol"
              tooltip="Неметановые углеводороды (D74): не более 1 %, иначе методология не поддерживается"
            >
              <NumericInput decimals={3} />
            </Form.Item>
            <Form.Item>
              <Button type="primary" htmlType="submit" loading={compute.isPending}>
                Рассчитать
              </Button>
            </Form.Item>
          </Flex>
        </Form>
        {computing?.job && (
          <Alert
            type="info"
            showIcon
            data-testid="climate-period-computing"
            style={{ marginBottom: 12 }}
            title={`Отчетный период ${displayDate(computing.from)} – ${displayDate(computing.to)} вычисляется`}
            description={`Период длинный, он рассчитывается в фоне (${
              computing.job.state === "queued" ? "в очереди" : `выполнено ${computing.job.progress} %`
            }). Цифры периода появятся здесь, когда расчет закончится.`}
          />
        )}
        {compute.error && <Alert type="error" showIcon message={compute.error.message} />}
        <ListTable
          rowKey="id"
          scroll={{ x: 560 }}
          loading={periods.isLoading}
          locale={{ emptyText: "Периодов пока нет" }}
          dataSource={periods.data?.results ?? []}
          columns={[
            {
              title: "Период",
              key: "period",
              render: (_, row) => (
                <Button type="link" style={{ padding: 0 }} onClick={() => update({ period: row.id })}>
                  {displayDateTime(row.start)} – {displayDateTime(row.end)}
                </Button>
              ),
            },
            { title: `ER, ${T}`, key: "er", align: "right", onCell: nowrap, render: (_, row) => n(row.totals.er_t_co2e, 6) },
            { title: "Углеродные единицы", dataIndex: "carbon_units", align: "right", render: (v: number) => formatResult(v, 0) },
            {
              title: "Утверждение",
              key: "approval",
              render: (_, row) => (
                <Flex gap={4} wrap>
                  <Tag color={row.approval ? "green" : "default"}>{row.approval ? "Утвержден" : "Не утвержден"}</Tag>
                  {row.readings_changed && <Tag color="orange">показания изменились</Tag>}
                </Flex>
              ),
            },
          ]}
        />
      </Card>
      {period.data && <PeriodResult project={id} period={period.data} />}
      {period.data && (
        <Suspense fallback={<PageLoading />}>
          <ClimateReportCard key={period.data.id} project={id} period={period.data.id} />
        </Suspense>
      )}
    </Flex>
  );
}
