import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { readStepRecords, readWorkflowModel, readWorkflowOptions, type WorkflowClass } from '@mcpflow/core';
import type { DataSource, StepModel, WorkflowModel } from '@mcpflow/core/model';
import { ErrorCodes, WorkflowValidationError, type WorkflowDefinitionError } from '@mcpflow/core/rules';
import { WorkflowServer } from '@mcpflow/core/v1';
import { analyzeFile } from '../src/analyzer/analyze-file';
import { extendedClasses } from '../src/analyzer/extended-classes';
import { fileFindings, type Finding } from '../src/diagnostics/file-diagnostics';
import { FIXTURES, REPO } from './helpers/tsc';

// One model, read two ways: every fixture goes through the runtime reader (decorators → metadata →
// use() and validate()) and the compile-time reader (AST → model → rules, and TypeScript's own
// checks). Both must build the same model, report the same codes and refuse the same steps.
// What one reader cannot know by nature is named here, not filtered silently:
// - the runtime has no types, so the transformer's type checks have no run-time twin;
// - the compiler cannot read a name that is not a literal (TS91015, on a workflow it then leaves
//   unchecked), which the runtime simply has;
// - a zod schema's description and an ask's answer schema are values the compiler does not evaluate.
// The standard-decorators fixture needs a program without experimentalDecorators: decorator-mode.test.ts.
const compilerOnly = (finding: Finding) => finding.origin === 'types' || finding.error.code === ErrorCodes.NotALiteral;

const folder = (name: string) =>
  fs
    .readdirSync(path.join(FIXTURES, name))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(FIXTURES, name, file));
const checked = [...folder('invalid'), ...folder('valid')];
/** Workflows whose wiring TypeScript itself refuses (tool definitions' argument names and types). */
const typed = folder('types');
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
const program = ts.createProgram({ rootNames: [...checked, ...typed], options });
program.emit();
const context = { t: ts, checker: program.getTypeChecker(), isExtended: extendedClasses(ts, program) };
const server = () => new WorkflowServer({ name: 'parity', version: '1.0.0' });

/** What the runtime makes of a fixture: the models of its workflow classes and the errors use() (and, for `types/`, validate()) throws. */
function runtimeReading(file: string): { models: WorkflowModel[]; errors: WorkflowDefinitionError[] } {
  const exports = require(path.join(outDir, path.relative(FIXTURES, file)).replace(/\.ts$/, '.js')) as Record<string, unknown>;
  const classes = Object.values(exports).filter((value): value is WorkflowClass => typeof value === 'function');
  const workflows = classes.filter((target) => readWorkflowOptions(target) !== undefined);
  const bases = new Set(classes.map((target) => Object.getPrototypeOf(target) as unknown));
  const errors = classes
    .filter((target) => !readWorkflowOptions(target) && readStepRecords(target).length > 0 && !bases.has(target))
    .flatMap((target) => errorsOf(() => server().use(target)));
  errors.push(...errorsOf(() => server().use(...workflows)));
  // The other fixtures call tools by name that no server here registers; these use definitions only.
  if (typed.includes(file) && !errors.length)
    errors.push(
      ...errorsOf(() =>
        server()
          .use(...workflows)
          .validate(),
      ),
    );
  return { models: workflows.map((target) => readWorkflowModel(target)!), errors };
}

function errorsOf(run: () => unknown): WorkflowDefinitionError[] {
  try {
    run();
    return [];
  } catch (error) {
    return error instanceof WorkflowValidationError ? [...error.errors] : [error as WorkflowDefinitionError];
  }
}

/**
 * The model without what only one reader can know: an argument's description lives in the zod
 * schema, an ask's answer `schema` is a zod value (checked when the answer comes), and a step's
 * `transform` is a function at run time and an expression at compile time (compared by presence).
 */
function comparable(model: WorkflowModel, hasTransform: (step: StepModel) => boolean) {
  const withoutSchema = <T extends { source: DataSource }>(entry: T): T => {
    if (entry.source.kind !== 'askUser' && entry.source.kind !== 'askModel') return entry;
    const { schema: _schema, ...source } = entry.source;
    return { ...entry, source };
  };
  return {
    ...model,
    arguments: model.arguments.map(({ description: _description, ...argument }) => argument),
    steps: model.steps.map((step) => ({
      ...step,
      transform: hasTransform(step),
      args: step.args.map(withoutSchema),
      fills: step.fills.map(withoutSchema),
    })),
  };
}

/** The property a position of a file lies in (a step's decorators included), if any. */
function propertyAt(source: ts.SourceFile, position: number): string | undefined {
  let found: string | undefined;
  const visit = (node: ts.Node): void => {
    if (position < node.getStart(source) || position >= node.getEnd()) return;
    if (ts.isPropertyDeclaration(node) && ts.isIdentifier(node.name)) found = node.name.text;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('parity: the runtime and the transformer read every fixture alike', () => {
  test('every fixture compiled', () => {
    for (const file of [...checked, ...typed]) {
      expect(fs.existsSync(path.join(outDir, path.relative(FIXTURES, file)).replace(/\.ts$/, '.js'))).toBe(true);
    }
  });

  test.each(checked.map((file) => [path.relative(FIXTURES, file), file]))('%s: same codes and the same model', (_name, file) => {
    const source = program.getSourceFile(file)!;
    const runtime = runtimeReading(file);
    const all = fileFindings(context, options, source);
    const findings = all.filter((finding) => !compilerOnly(finding));
    const bothRead = runtime.errors.filter((error) => error.code !== ErrorCodes.AskAnswerType);
    expect(findings.map((finding) => finding.error.code).sort()).toEqual(bothRead.map((error) => error.code).sort());
    // An ask's answer type: the compiler reads it from types, use() from the answer's and the
    // input's schemas (string, number, boolean, enum answers): both refuse the same steps.
    const askSteps = (errors: readonly WorkflowDefinitionError[]) =>
      errors
        .filter((error) => error.code === ErrorCodes.AskAnswerType)
        .map((error) => error.step)
        .sort();
    expect(askSteps(runtime.errors)).toEqual(askSteps(all.map((finding) => finding.error)));

    const analyzed = analyzeFile(context, source).workflows.filter((workflow) => workflow.complete);
    for (const workflow of analyzed) {
      const model = runtime.models.find((each) => each.className === workflow.model.className);
      expect(model).toBeDefined();
      expect(comparable(workflow.model, (step) => workflow.steps.get(step.name)?.transform !== undefined)).toEqual(
        comparable(model!, (step) => step.transform !== undefined),
      );
    }
  });

  test.each(typed.map((file) => [path.relative(FIXTURES, file), file]))(
    '%s: what TypeScript refuses, the runtime refuses, at the same steps',
    (_name, file) => {
      const source = program.getSourceFile(file)!;
      const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
      const runtime = runtimeReading(file);
      expect(diagnostics.length).toBeGreaterThan(0);
      expect(fileFindings(context, options, source)).toEqual([]);
      expect(runtime.errors).toHaveLength(diagnostics.length);
      // A diagnostic outside any step (the import of a name that no longer exists) is matched by count only.
      const unmatched = runtime.errors.map((error) => error.step);
      for (const step of diagnostics.map((diagnostic) => propertyAt(source, diagnostic.start!)).filter((each) => each !== undefined)) {
        expect(unmatched).toContain(step);
        unmatched.splice(unmatched.indexOf(step), 1);
      }
    },
  );

  test('the fixtures exercise inheritance, definitions and every rule both readers check', () => {
    const codes = new Set(checked.flatMap((file) => runtimeReading(file).errors.map((error) => error.code)));
    // Checked by one reader only: against what the server registers (at connect(), or at use()
    // for definitions), by the type checker, on the compiler's options or on names the compiler
    // cannot read; a build that would not run the checks (a warning of the editor and `validate`);
    // and use()'s refusal of a class with neither @Workflow nor @Step.
    const oneReaderOnly = new Set<number>([
      ...[ErrorCodes.UnregisteredTool, ErrorCodes.UnregisteredResource, ErrorCodes.UnknownToolArgument, ErrorCodes.DefinitionConflict],
      ...[
        ErrorCodes.FieldNotInType,
        ErrorCodes.ArgumentType,
        ErrorCodes.BindingType,
        ErrorCodes.ItemPathNotInType,
        ErrorCodes.TransformTypeMismatch,
        // An ask's answer type: the compiler reads it from types, the runtime from schemas (use(), connect()).
        ErrorCodes.AskAnswerType,
      ],
      ...[ErrorCodes.DecoratorMode, ErrorCodes.ChecksNotInBuild, ErrorCodes.NotALiteral, ErrorCodes.NotAWorkflow],
      // A skill on SDK 1.x: the server's line, which the compiler does not know.
      ErrorCodes.SkillFaceUnavailable,
      ErrorCodes.TaskFaceUnavailable,
      // The lock check: the compiler's and validate's, against a mcpflow.lock.json (lock.test.ts).
      ErrorCodes.LockedShapeChanged,
      ErrorCodes.InvalidLockFile,
    ]);
    const shared = Object.values(ErrorCodes).filter((code) => !oneReaderOnly.has(code));
    expect(shared.filter((code) => !codes.has(code))).toEqual([]);
  });
});
