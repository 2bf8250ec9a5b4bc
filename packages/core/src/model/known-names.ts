/**
 * The tool names and resource URIs (templates) the process has seen declared: by `defineTool` /
 * `defineResource` (`defined`), and by the `@Step` and `@Workflow` decorators of any class
 * (`used`). The testing kit reads it, so that one stub map shared by the workflows of a test file
 * is accepted while a stub named for nothing at all is refused. Names only, each once: a process
 * that defines tools per request keeps no more than its distinct names. Kept on `globalThis` under
 * a global symbol, so two copies of the packages (an ESM and a CJS one) see the same names.
 */
const KNOWN = Symbol.for('mcpflow:known-names');

/** What a name is: a tool's, or a resource's URI (template). */
export type KnownNameKind = 'tools' | 'resources';

/** How the process has seen a name: in a definition, or in a workflow's step or options. */
export type KnownNameOrigin = 'defined' | 'used';

type Known = Record<KnownNameOrigin, Record<KnownNameKind, Set<string>>>;

function known(): Known {
  const holder = globalThis as { [KNOWN]?: Known };
  return (holder[KNOWN] ??= {
    defined: { tools: new Set(), resources: new Set() },
    used: { tools: new Set(), resources: new Set() },
  });
}

/**
 * Notes a tool name or resource URI (template) as declared in the process.
 *
 * @example
 * ```ts
 * noteKnownName('defined', 'tools', 'get_forecast'); // by defineTool('get_forecast', …)
 * ```
 */
export function noteKnownName(origin: KnownNameOrigin, kind: KnownNameKind, name: string): void {
  if (typeof name === 'string') known()[origin][kind].add(name);
}

/**
 * The names of a kind the process has seen, by origin.
 *
 * @example
 * ```ts
 * knownNames('defined', 'tools').has('get_forecast'); // true once defineTool('get_forecast', …) ran
 * ```
 */
export function knownNames(origin: KnownNameOrigin, kind: KnownNameKind): ReadonlySet<string> {
  return known()[origin][kind];
}
