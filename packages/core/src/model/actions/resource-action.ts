import type { StepActionKind } from '../step-action-kind';

/** A step that reads a resource; its URI may hold `{variables}`, filled by `@TemplateBinding`. */
export interface ResourceAction {
  readonly kind: 'resource';
  readonly uri: string;
}

/** `@Step({ resource })`: a URI or RFC 6570 URI template, or the definition from `defineResource`. */
export const resourceAction: StepActionKind<ResourceAction> = {
  kind: 'resource',
  option: 'resource',
  literal: 'string',
  definition: { kind: 'resource', field: 'uriTemplate' },
  read: (uri) => ({ kind: 'resource', uri: uri as string }),
  uri: (action) => action.uri,
};
