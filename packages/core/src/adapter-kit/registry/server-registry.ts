import { decodeVariables, type UriTemplateParser, type UriVariables } from '../../engine';
import { uriTemplateVariableNames } from '../../model';
import type { RegistrationLookup, ToolInputSchema, ToolSchemaLookup } from '../../rules';
import type { RegisteredNames } from '../catalog/definition-registry';
import { HandleMap } from './handle-map';
import type { PromptHandle, ResourceHandle, TemplateHandle, ToolHandle } from './handles';

/** A resource this server serves for a URI, with the template variables it matched (decoded). */
export type ResourceMatch =
  | { readonly kind: 'static'; readonly handle: ResourceHandle }
  | { readonly kind: 'template'; readonly handle: TemplateHandle; readonly variables: UriVariables };

/** A template read callback: `(uri, variables, context)`, whatever the line calls its context. */
type TemplateCallback = (uri: URL, variables: UriVariables, context: never) => unknown;

/** A template read callback that receives decoded variables. */
export function decodingCallback<Callback extends TemplateCallback>(callback: Callback): Callback {
  return ((uri: URL, variables: UriVariables, context: never) => callback(uri, decodeVariables(variables), context)) as Callback;
}

/**
 * WorkflowServer's own registry of what the SDK registered: the SDK keeps its registries private,
 * so the handles it returns are kept here, following renames, to run tools and resources in
 * process. The handles are the line's own, read through the shapes both lines share.
 *
 * @example
 * ```ts
 * const registry = new ServerRegistry(parseUriTemplate, (tool) => toolInputSchema(line, tool));
 * registry.tools.track('get_weather', handle);
 * ```
 */
export class ServerRegistry implements RegistrationLookup, ToolSchemaLookup, RegisteredNames {
  readonly tools = new HandleMap<ToolHandle>('name');
  readonly prompts = new HandleMap<PromptHandle>('name');
  readonly resources = new HandleMap<ResourceHandle>('uri');
  readonly templates = new HandleMap<TemplateHandle>('name');
  /** The tools that serve a workflow (its tool face), with the workflow's name: a step calling one runs a sub-workflow. */
  readonly workflowTools = new WeakMap<ToolHandle, string>();

  /**
   * @param parseUriTemplate the line's URI template parser, so URIs expand as its `resources/read` matches them
   * @param readToolSchema the line's reading of a tool's input schema, for the argument rule at `connect()`
   */
  constructor(
    private readonly parseUriTemplate: UriTemplateParser,
    private readonly readToolSchema: (tool: ToolHandle) => ToolInputSchema | undefined,
  ) {}

  trackTemplate(name: string, handle: TemplateHandle): void {
    this.templates.track(name, handle, (updates) =>
      typeof updates.callback === 'function' ? { ...updates, callback: decodingCallback(updates.callback as TemplateCallback) } : updates,
    );
  }

  /** The resource that serves `uri`, as `resources/read` picks it: an exact URI first, then templates in order. */
  findResource(uri: string): ResourceMatch | undefined {
    const exact = this.resources.get(uri) ?? this.resources.get(safeNormalize(uri));
    if (exact) return { kind: 'static', handle: exact };
    for (const [, handle] of this.templates.entries()) {
      if (!handle.enabled) continue;
      const variables = handle.resourceTemplate.uriTemplate.match(uri);
      if (variables) return { kind: 'template', handle, variables };
    }
    return undefined;
  }

  hasTool(name: string): boolean {
    return this.tools.get(name) !== undefined;
  }

  toolNames(): string[] {
    return this.tools.keys();
  }

  toolInputSchema(name: string): ToolInputSchema | undefined {
    const tool = this.tools.get(name);
    return tool && this.readToolSchema(tool);
  }

  hasResource(name: string, uri: string): boolean {
    return this.templates.get(name) !== undefined || this.resources.get(uri) !== undefined;
  }

  servesUri(uriTemplate: string): boolean {
    // A URI with {vars} is served when an expansion of it with sample values is, as a read would be.
    const variables = uriTemplateVariableNames(uriTemplate);
    if (!variables.length) return this.findResource(uriTemplate) !== undefined;
    const sample = this.parseUriTemplate(uriTemplate).expand(Object.fromEntries(variables.map((name) => [name, 'sample'])));
    return this.findResource(sample) !== undefined;
  }

  resourcePatterns(): string[] {
    return [...this.resources.keys(), ...[...this.templates.entries()].map(([, handle]) => handle.resourceTemplate.uriTemplate.toString())];
  }
}

function safeNormalize(uri: string): string {
  try {
    return new URL(uri).toString();
  } catch {
    return uri;
  }
}
