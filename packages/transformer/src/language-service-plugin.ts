import * as path from 'node:path';
import type * as ts from 'typescript';
import { buildRunsChecks, type BuildChecks } from './build/build-runs-checks';
import { DIAGNOSTIC_SOURCE } from './diagnostics/file-diagnostics';
import { ChecksNotInBuildError } from './errors/checks-not-in-build-error';
import { programWorkflows, type ProgramWorkflows } from './program-diagnostics';

/** The folder whose package.json and TypeScript the project builds with: its tsconfig's. */
function projectDirectory(info: ts.server.PluginCreateInfo): string {
  const name = typeof info.project?.getProjectName === 'function' ? info.project.getProjectName() : undefined;
  return name?.endsWith('.json') ? path.dirname(name) : info.languageServiceHost.getCurrentDirectory();
}

/** A warning on each `@Workflow` of the file: the build does not run the checks this editor shows. */
function buildNotices(t: typeof ts, file: ts.SourceFile, workflows: ProgramWorkflows, build: BuildChecks): ts.Diagnostic[] {
  if (build.runs) return [];
  return workflows.analysisOf(file).workflows.map((workflow) => {
    const notice = new ChecksNotInBuildError(workflow.model.name, build.reason, build.fix);
    return {
      file,
      start: workflow.decorator.getStart(),
      length: workflow.decorator.getWidth(),
      messageText: notice.message,
      category: t.DiagnosticCategory.Warning,
      code: notice.code,
      source: DIAGNOSTIC_SOURCE,
    };
  });
}

/**
 * A TypeScript language-service plugin: editors show mcpflow's diagnostics while you type, and a
 * warning on each `@Workflow` when the project's build would not run them (the transformer not
 * listed, or a plain `tsc` of an unpatched TypeScript).
 *
 * ```json
 * "plugins": [{ "name": "@mcpflow/transformer/language-service" }]
 * ```
 *
 * When tsserver is patched by ts-patch as well (so the program transformer already adds them),
 * diagnostics already present are not added twice.
 */
function init(modules: { typescript: typeof ts }): ts.server.PluginModule {
  const t = modules.typescript;
  return {
    create(info) {
      const service = info.languageService;
      const proxy = Object.create(null) as ts.LanguageService;
      for (const key of Object.keys(service) as (keyof ts.LanguageService)[]) {
        const member = service[key];
        (proxy as unknown as Record<string, unknown>)[key] =
          typeof member === 'function' ? (member as (...a: unknown[]) => unknown).bind(service) : member;
      }
      let forProgram: { program: ts.Program; workflows: ProgramWorkflows; build?: BuildChecks } | undefined;
      proxy.getSemanticDiagnostics = (fileName) => {
        const prior = service.getSemanticDiagnostics(fileName);
        const program = service.getProgram();
        const file = program?.getSourceFile(fileName);
        if (!program || !file) return prior;
        if (forProgram?.program !== program) forProgram = { program, workflows: programWorkflows(t, program) };
        const { workflows } = forProgram;
        const presented = workflows.present(file, prior);
        const shown = presented === prior ? prior : [...presented];
        const notices =
          workflows.analysisOf(file).workflows.length > 0
            ? buildNotices(t, file, workflows, (forProgram.build ??= buildRunsChecks(program.getCompilerOptions(), projectDirectory(info))))
            : [];
        const added = [...workflows.diagnosticsOf(file), ...notices].filter(
          (diagnostic) =>
            !shown.some(
              (existing) =>
                existing.code === diagnostic.code && existing.start === diagnostic.start && existing.messageText === diagnostic.messageText,
            ),
        );
        return added.length ? [...shown, ...added] : shown;
      };
      return proxy;
    },
  };
}

export = init;
