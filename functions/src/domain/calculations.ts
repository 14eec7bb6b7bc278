// Formula calculations (SPEC 3, 4; methodology 4.1–4.8, 4.10): create, list, read, update and
// archive, each stored with everything needed to audit it later (methodology D9): its inputs,
// results, every coefficient with the dictionary entry and version it came from, the GWP set and
// the methodology version. The numbers come from wasm-core only.
import {
  FieldError,
  calculate,
  recycleTechnology,
  type FormulaInputs,
  type FlowThresholds,
} from "../../../wasm-core/src/emissions";
import {
  METHODOLOGY_VERSION,
  REGISTRY,
  isFormulaType,
  type FormulaType,
} from "../../../wasm-core/src/registry";
import type { Actor, Deps } from "./context";
import { resolveCoefficients, type CoefficientRequest } from "./coefficients";
import { Conflict, Invalid, NotFound } from "./errors";
import { newId } from "./ids";
import { getProject } from "./projects";
import type { Calculation, Page, PageRequest, ProjectState } from "../ports";

export const CALCULATION_NAME_MAX = 255;

/** The types this module computes; the file-based and forecast types have modules of their own. */
export function formulaType(type: string): FormulaType {
  if (!isFormulaType(type)) throw new NotFound(`Тип расчета ${type} не найден`);
  return type;
}

export interface CalculationInput extends CoefficientRequest {
  name?: unknown;
  project?: unknown;
}

export interface CalculationPatch extends CoefficientRequest {
  name?: unknown;
  is_deleted?: boolean;
  is_active?: boolean;
  version?: number;
}

function calculationName(value: unknown): string {
  if (typeof value !== "string" || !value.trim()) throw new Invalid("name: введите название расчета");
  const name = value.trim();
  if (name.length > CALCULATION_NAME_MAX) throw new Invalid(`name: название не длиннее ${CALCULATION_NAME_MAX} символов`);
  return name;
}

/** Runs the core on resolved values. Field errors of the facade become 400s naming the field. */
function compute(type: FormulaType, values: Record<string, unknown>): { inputs: Record<string, number>; results: Record<string, unknown> } {
  try {
    if (type === "recycle_technology") {
      const thresholds = Object.fromEntries(REGISTRY.recycle_technology.settings.map((s) => [s.name, values[s.name]]));
      const { code, technology } = recycleTechnology(values.metan, values.a_metan, thresholds as Partial<FlowThresholds>);
      return { inputs: numericOnly(values), results: { technology, code } };
    }
    const def = REGISTRY[type];
    const inputs = Object.fromEntries(def.inputs.map((f) => [f.name, values[f.name]]));
    const settings = Object.fromEntries(def.settings.map((f) => [f.name, values[f.name]]));
    const results = calculate(type, inputs as FormulaInputs<typeof type>, settings as never);
    return { inputs: numericOnly(values), results: results as Record<string, unknown> };
  } catch (error) {
    if (error instanceof FieldError) throw new Invalid(`${error.field}: ${error.message}`);
    throw error;
  }
}

function numericOnly(values: Record<string, unknown>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).filter((e): e is [string, number] => typeof e[1] === "number"));
}

export async function createCalculation(deps: Deps, actor: Actor, typeName: string, input: CalculationInput): Promise<Calculation> {
  const type = formulaType(typeName);
  const name = calculationName(input.name);
  if (typeof input.project !== "string" || !input.project) throw new Invalid("project: укажите проект");
  const project = await getProject(deps, actor, input.project);
  if (project.is_deleted) throw new Conflict("Проект находится в архиве: восстановите его, чтобы добавлять расчеты");

  const { values, uses } = await resolveCoefficients(deps, REGISTRY[type], input);
  const { inputs, results } = compute(type, values);
  const now = deps.clock.now().toISOString();
  const calculation: Calculation = {
    id: newId(),
    type,
    project: project.id,
    company: actor.company,
    name,
    is_active: true,
    is_deleted: false,
    version: 1,
    inputs,
    results,
    coefficients: uses,
    methodology_version: METHODOLOGY_VERSION,
    created_at: now,
    created_by: actor.email,
    updated_at: now,
    updated_by: actor.email,
  };
  await deps.repos.calculations.create(calculation);
  return calculation;
}

export async function getCalculation(deps: Deps, actor: Actor, typeName: string, id: string): Promise<Calculation> {
  const type = formulaType(typeName);
  const calculation = await deps.repos.calculations.get(actor.company, type, id);
  if (!calculation) throw new NotFound("Расчет не найден");
  return calculation;
}

export async function listCalculations(
  deps: Deps,
  actor: Actor,
  typeName: string,
  projectId: string,
  state: ProjectState,
  page: PageRequest,
): Promise<Page<Calculation>> {
  const type = formulaType(typeName);
  await getProject(deps, actor, projectId);
  return deps.repos.calculations.list(actor.company, projectId, type, state, page);
}

const changeableFields = (type: FormulaType): Set<string> =>
  new Set([...REGISTRY[type].inputs, ...REGISTRY[type].settings].map((f) => f.name as string));

/** Update (recomputes when an input or coefficient changes), soft delete and restore. */
export async function patchCalculation(
  deps: Deps,
  actor: Actor,
  typeName: string,
  id: string,
  patch: CalculationPatch,
): Promise<Calculation> {
  const type = formulaType(typeName);
  const current = await getCalculation(deps, actor, type, id);
  if (patch.version !== undefined && patch.version !== current.version) {
    throw new Conflict("Расчет был изменен другим пользователем. Обновите страницу и повторите.");
  }
  const changesValues =
    Object.keys(patch.values).some((k) => changeableFields(type).has(k) && patch.values[k] !== current.inputs[k]) ||
    patch.dictionary_items !== undefined ||
    patch.gwp_set !== undefined;
  const renames = patch.name !== undefined && patch.name !== current.name;
  if (!REGISTRY[type].editable && (changesValues || renames)) {
    throw new Invalid("Расчет этого типа нельзя изменить: создайте новый");
  }

  let next: Calculation = { ...current };
  if (renames) next.name = calculationName(patch.name);
  if (changesValues) {
    const values = { ...current.inputs, ...patch.values };
    const resolved = await resolveCoefficients(deps, REGISTRY[type], { ...patch, values }, current.coefficients);
    const { inputs, results } = compute(type, resolved.values);
    next = { ...next, inputs, results, coefficients: resolved.uses, methodology_version: METHODOLOGY_VERSION };
  }
  const isDeleted = patch.is_deleted ?? (patch.is_active !== undefined ? !patch.is_active : current.is_deleted);
  if (!isDeleted && current.is_deleted) {
    const project = await getProject(deps, actor, current.project);
    if (project.is_deleted) throw new Conflict("Проект находится в архиве: сначала восстановите проект");
  }
  next = {
    ...next,
    is_deleted: isDeleted,
    is_active: !isDeleted,
    version: current.version + 1,
    updated_at: deps.clock.now().toISOString(),
    updated_by: actor.email,
  };
  await deps.repos.calculations.replace(next, current.version);
  return next;
}

/** The API's flat shape (SPEC 3): common fields, inputs and results side by side, plus the audit. */
export function calculationView(calculation: Calculation) {
  const { inputs, results, company: _company, ...common } = calculation;
  return { ...common, ...inputs, ...results };
}
