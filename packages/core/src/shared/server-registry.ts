import { decodeVariables, type UriTemplateParser, type UriVariables } from '../engine';
import { uriTemplateVariableNames } from '../model';
import type { RegisteredNames } from '../engine/definitions/definition-registry';
import type { RegistrationLookup, ToolInputSchema, ToolSchemaLookup } from '../rules';
import { HandleMap } from './handle-map';

/** What both SDK lines' registration handles have in common, as far as the registry reads them. */
interface Handle {
  enabled: boolean;
  update(updates: object): void;
}

interface TemplateHandle extends Handle {
  resourceTemplate: { uriTemplate: { match(uri: string): UriVariables | null; toString(): string } };
}

/** A resource this server serves for a URI, with the template variables it matched (decoded). */
export type ResourceMatch<Resource, Template> =
  | { readonly kind: 'static'; readonly handle: Resource }
  | { readonly kind: 'template'; readonly handle: Template; readonly variables: UriVariables };

/** A template read callback: `(uri, variables, context)`, whatever the line calls its context. */
type TemplateCallback = (uri: URL, variables: UriVariables, context: never) => unknown;

/** A template read callback that receives decoded variables. */
export function decodingCallback<Callback extends TemplateCallback>(callback: Callback): Callback {
  return ((uri: URL, variables: UriVariables, context: never) => callback(uri, decodeVariables(variables), context)) as Callback;
}

/**
 * WorkflowServer's own registry of what the SDK registered: the SDK keeps its registries private,
 * so the handles it returns are kept here, following renames, to run tools and resources in
 * process. Each SDK line's adapter instantiates it with its own handle types.
 *
 * @example
 * ```ts
 * const registry = new ServerRegistry<RegisteredTool, RegisteredPrompt, RegisteredResource, RegisteredResourceTemplate>(parseUriTemplate, toolInputSchema);
 * ```
 */
export class ServerRegistry<Tool extends Handle, Prompt extends Handle, Resource extends Handle, Template extends TemplateHandle>
  implements RegistrationLookup, ToolSchemaLookup, RegisteredNames
{
  readonly tools = new HandleMap<Tool>('name');
  readonly prompts = new HandleMap<Prompt>('name');
  readonly resources = new HandleMap<Resource>('uri');
  readonly templates = new HandleMap<Template>('name');

  /**
   * @param parseUriTemplate the line's URI template parser, so URIs expand as its `resources/read` matches them
   * @param readToolSchema the line's reading of a tool's input schema, for the argument rule at `connect()`
   */
  constructor(
    private readonly parseUriTemplate: UriTemplateParser,
    private readonly readToolSchema: (tool: Tool) => ToolInputSchema | undefined,
  ) {}

  trackTemplate(name: string, handle: Template): void {
    this.templates.track(name, handle, (updates) =>
      typeof updates.callback === 'function' ? { ...updates, callback: decodingCallback(updates.callback as TemplateCallback) } : updates,
    );
  }

  /** The resource that serves `uri`, as `resources/read` picks it: an exact URI first, then templates in order. */
  findResource(uri: string): ResourceMatch<Resource, Template> | undefined {
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
