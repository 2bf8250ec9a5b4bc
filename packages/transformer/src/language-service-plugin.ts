import type * as ts from 'typescript';
import { programWorkflows, type ProgramWorkflows } from './program-diagnostics';

/**
 * A TypeScript language-service plugin: editors show mcpflow's diagnostics while you type, and
 * TypeScript's own as the transformer shows them (`presentCompilerDiagnostics`).
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
      let forProgram: { program: ts.Program; workflows: ProgramWorkflows } | undefined;
      proxy.getSemanticDiagnostics = (fileName) => {
        const prior = service.getSemanticDiagnostics(fileName);
        const program = service.getProgram();
        const file = program?.getSourceFile(fileName);
        if (!program || !file) return prior;
        if (forProgram?.program !== program) forProgram = { program, workflows: programWorkflows(t, program) };
        const { workflows } = forProgram;
        const presented = workflows.present(file, prior);
        const shown = presented === prior ? prior : [...presented];
        const added = workflows
          .diagnosticsOf(file)
          .filter(
            (diagnostic) =>
              !shown.some(
                (existing) =>
                  existing.code === diagnostic.code &&
                  existing.start === diagnostic.start &&
                  existing.messageText === diagnostic.messageText,
              ),
          );
        return added.length ? [...shown, ...added] : shown;
      };
      return proxy;
    },
  };
}

export = init;
