import type {
  ReadResourceTemplateCallback,
  RegisteredPrompt,
  RegisteredResource,
  RegisteredResourceTemplate,
  RegisteredTool,
} from '@modelcontextprotocol/sdk/server/mcp.js';
import { UriTemplate, type Variables } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { uriTemplateVariableNames } from '../../model';
import type { RegistrationLookup } from '../../rules';
import { decodeVariables } from '../../engine';
import { HandleMap } from './handle-map';

/** A resource this server serves for a URI, with the template variables it matched (decoded). */
export type ResourceMatch =
  | { readonly kind: 'static'; readonly handle: RegisteredResource }
  | { readonly kind: 'template'; readonly handle: RegisteredResourceTemplate; readonly variables: Variables };

/** A template read callback that receives decoded variables. */
export function decodingCallback(callback: ReadResourceTemplateCallback): ReadResourceTemplateCallback {
  return (uri, variables, extra) => callback(uri, decodeVariables(variables), extra);
}

/**
 * WorkflowServer's own registry of what the SDK registered: the SDK keeps its registries private,
 * so the handles it returns are kept here, following renames, to run tools and resources in process.
 */
export class ServerRegistry implements RegistrationLookup {
  readonly tools = new HandleMap<RegisteredTool>('name');
  readonly prompts = new HandleMap<RegisteredPrompt>('name');
  readonly resources = new HandleMap<RegisteredResource>('uri');
  readonly templates = new HandleMap<RegisteredResourceTemplate>('name');

  trackTemplate(name: string, handle: RegisteredResourceTemplate): void {
    this.templates.track(name, handle, (updates) =>
      typeof updates.callback === 'function'
        ? { ...updates, callback: decodingCallback(updates.callback as ReadResourceTemplateCallback) }
        : updates,
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

  servesUri(uriTemplate: string): boolean {
    // A URI with {vars} is served when an expansion of it with sample values is, as a read would be.
    const variables = uriTemplateVariableNames(uriTemplate);
    if (!variables.length) return this.findResource(uriTemplate) !== undefined;
    const sample = new UriTemplate(uriTemplate).expand(Object.fromEntries(variables.map((name) => [name, 'sample'])));
    return this.findResource(sample) !== undefined;
  }

  resourcePatterns(): string[] {
    return [
      ...this.resources.keys(),
      ...[...this.templates.entries()].map(([, handle]) => handle.resourceTemplate.uriTemplate.toString()),
    ];
  }
}

function safeNormalize(uri: string): string {
  try {
    return new URL(uri).toString();
  } catch {
    return uri;
  }
}
