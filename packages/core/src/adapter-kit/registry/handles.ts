import type { UriVariables } from '../../engine';

/** What every registration handle of both SDK lines has: renamed, disabled or removed through `update`. */
export interface UpdatableHandle {
  enabled: boolean;
  update(updates: object): void;
}

/** A registered tool, as the kit reads the line's handle. */
export interface ToolHandle extends UpdatableHandle {
  readonly description?: string;
  readonly inputSchema?: object;
  readonly outputSchema?: object;
  readonly handler: unknown;
}

/** A registered prompt, as the kit reads the line's handle. */
export interface PromptHandle extends UpdatableHandle {
  readonly argsSchema?: object;
}

/** A resource registered under a fixed URI. */
export interface ResourceHandle extends UpdatableHandle {
  readCallback(uri: URL, context: never): unknown;
}

/** A resource template: its callback receives the URI's variables. */
export interface TemplateHandle extends UpdatableHandle {
  readonly resourceTemplate: { readonly uriTemplate: { match(uri: string): UriVariables | null; toString(): string } };
  readCallback(uri: URL, variables: UriVariables, context: never): unknown;
}
