import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { WorkflowServer, readStepRecords, readWorkflowModel, readWorkflowOptions, type WorkflowClass } from '@mcpflow/core';
import type { DataSource, WorkflowModel } from '@mcpflow/core/model';
import { WorkflowValidationError } from '@mcpflow/core/rules';
import { analyzeFile } from '../src/analyzer/analyze-file';
import { extendedClasses } from '../src/analyzer/extended-classes';
import { fileFindings } from '../src/diagnostics/file-diagnostics';
import { FIXTURES, REPO } from './helpers/tsc';

// One model, read two ways: every fixture, valid and invalid, goes through the runtime reader
// (decorators → metadata → use()) and the compile-time reader (AST → model → rules). Both must
// build the same model and report the same codes. Left out on purpose: what needs types (the
// transformer's type checks) and what only the compiler can lack (TS91015, a name it cannot read).
const COMPILE_TIME_ONLY = new Set([91015]);
const NOT_A_WORKFLOW = 91022;
const STEP_OUTSIDE_WORKFLOW = 91012;

const files = ['invalid', 'valid'].flatMap((folder) =>
  fs
    .readdirSync(path.join(FIXTURES, folder))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(FIXTURES, folder, file)),
);
const outDir = path.join(__dirname, '.work/parity');
const config = ts.getParsedCommandLineOfConfigFile(
  path.join(REPO, 'tsconfig.base.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
);
const options: ts.CompilerOptions = {
  ...config!.options,
  composite: false,
  declaration: false,
  declarationMap: false,
  sourceMap: false,
  outDir,
  rootDir: FIXTURES,
  plugins: [],
};
fs.rmSync(outDir, { recursive: true, force: true });
const program = ts.createProgram({ rootNames: files, options });
program.emit();
const context = { t: ts, checker: program.getTypeChecker(), isExtended: extendedClasses(ts, program) };

/** What the runtime makes of a fixture: the models of its workflow classes and the codes use() throws. */
function runtimeReading(file: string): { models: WorkflowModel[]; codes: number[] } {
  const exports = require(path.join(outDir, path.relative(FIXTURES, file)).replace(/\.ts$/, '.js')) as Record<string, unknown>;
  const classes = Object.values(exports).filter((value): value is WorkflowClass => typeof value === 'function');
  const workflows = classes.filter((target) => readWorkflowOptions(target) !== undefined);
  const bases = new Set(classes.map((target) => Object.getPrototypeOf(target) as unknown));
  const codes = classes
    .filter((target) => !readWorkflowOptions(target) && readStepRecords(target).length > 0 && !bases.has(target))
    .map((target) => codeOf(() => new WorkflowServer({ name: 'parity', version: '1.0.0' }).use(target)))
    .flat();
  codes.push(...codeOf(() => new WorkflowServer({ name: 'parity', version: '1.0.0' }).use(...workflows)));
  return { models: workflows.map((target) => readWorkflowModel(target)!), codes };
}

function codeOf(use: () => unknown): number[] {
  try {
    use();
    return [];
  } catch (error) {
    const errors = error instanceof WorkflowValidationError ? error.errors : [error as { code: number }];
    return errors.map((each) => (each.code === NOT_A_WORKFLOW ? STEP_OUTSIDE_WORKFLOW : each.code));
  }
}

/**
 * The model without what only one reader can know: an argument's description lives in the zod
 * schema, a step's `transform` is a function (the transformer checks its types instead), an ask's
 * answer `schema` is a zod value (checked when the answer comes).
 */
function comparable(model: WorkflowModel) {
  const withoutSchema = <T extends { source: DataSource }>(entry: T): T => {
    if (entry.source.kind !== 'askUser' && entry.source.kind !== 'askModel') return entry;
    const { schema: _schema, ...source } = entry.source;
    return { ...entry, source };
  };
  return {
    ...model,
    arguments: model.arguments.map(({ description: _description, ...argument }) => argument),
    steps: model.steps.map(({ transform: _transform, ...step }) => ({
      ...step,
      args: step.args.map(withoutSchema),
      fills: step.fills.map(withoutSchema),
    })),
  };
}

describe('parity: the runtime and the transformer read every fixture alike', () => {
  test('every fixture compiled', () => {
    for (const file of files) expect(fs.existsSync(path.join(outDir, path.relative(FIXTURES, file)).replace(/\.ts$/, '.js'))).toBe(true);
  });

  test.each(files.map((file) => [path.relative(FIXTURES, file), file]))('%s: same codes and the same model', (_name, file) => {
    const source = program.getSourceFile(file)!;
    const runtime = runtimeReading(file);
    const findings = fileFindings(context, options, source).filter(
      (finding) => finding.origin !== 'types' && !COMPILE_TIME_ONLY.has(finding.error.code),
    );
    expect(findings.map((finding) => finding.error.code).sort()).toEqual(runtime.codes.sort());

    const analyzed = analyzeFile(context, source).workflows.filter((workflow) => workflow.complete);
    for (const workflow of analyzed) {
      const model = runtime.models.find((each) => each.className === workflow.model.className);
      expect(model).toBeDefined();
      expect(comparable(workflow.model)).toEqual(comparable(model!));
    }
  });

  test('the fixtures exercise inheritance, definitions and every shared rule on both sides', () => {
    const codes = new Set(files.flatMap((file) => runtimeReading(file).codes));
    for (const code of [
      91001, 91002, 91003, 91004, 91005, 91006, 91007, 91008, 91009, 91010, 91011, 91012, 91014, 91018, 91019, 91020, 91021, 91030,
    ])
      expect(codes).toContain(code);
  });
});
