import {
  ErrorCodes,
  InvalidUriTemplateError,
  UnboundUriVariableError,
  UnknownGuidancePlaceholderError,
  UnusedTemplateBindingError,
  UriValueTypeError,
  WorkflowResourceVariableError,
  validateWorkflow,
} from '@mcpflow/core/rules';
import { constant, promptArg, resourceStep, toolStep, workflow, type RuleCase } from '../plain-model';

/** URIs and texts: template variables and what fills them, instruction resources, guidance placeholders. */
export const uriTemplateCases: RuleCase[] = [
  {
    label: 'filled variables (a query one too), an embedded URI, fixed instruction resources, guidance with literal braces',
    errors: () =>
      validateWorkflow(
        workflow(
          [
            resourceStep('read', 'docs://{project}{?page}', {
              resources: ['docs://{project}/style'],
              fills: [
                { variable: 'project', source: promptArg('project') },
                { variable: 'page', source: constant(2) },
              ],
              guidance: 'Reading {project} as {{json}}.',
            }),
          ],
          { resources: ['docs://glossary'] },
        ),
      ),
    expected: [],
  },
  {
    label: 'a variable no @TemplateBinding fills, in the step URI and in an embedded one',
    errors: () =>
      validateWorkflow(
        workflow([
          resourceStep('read', 'docs://{project}/{page}', {
            resources: ['docs://{lang}'],
            fills: [{ variable: 'project', source: promptArg('project') }],
          }),
        ]),
      ),
    expected: [
      {
        type: UnboundUriVariableError,
        code: ErrorCodes.UnboundUriVariable,
        target: { kind: 'stepUri', step: 'read', start: 18, end: 22 },
        message:
          "Workflow 'report', step 'read': URI 'docs://{project}/{page}' holds {page}, but no @TemplateBinding('page', …) fills it. " +
          "Fix: add @TemplateBinding('page', field('<binding>', '<path>')) (or promptArg/fromStep/constant) to this step.",
      },
      {
        type: UnboundUriVariableError,
        code: ErrorCodes.UnboundUriVariable,
        target: { kind: 'embeddedUri', step: 'read', index: 0, start: 8, end: 12 },
        message:
          "Workflow 'report', step 'read': URI 'docs://{lang}' holds {lang}, but no @TemplateBinding('lang', …) fills it. " +
          "Fix: add @TemplateBinding('lang', field('<binding>', '<path>')) (or promptArg/fromStep/constant) to this step.",
      },
    ],
  },
  {
    label: 'a @TemplateBinding that fills no variable, on a step with one and on a step with none',
    errors: () =>
      validateWorkflow(
        workflow([
          resourceStep('read', 'docs://{project}', {
            fills: [
              { variable: 'project', source: promptArg('project') },
              { variable: 'projet', source: promptArg('project') },
            ],
          }),
          toolStep('list', { fills: [{ variable: 'id', source: constant('a') }] }),
        ]),
      ),
    expected: [
      {
        type: UnusedTemplateBindingError,
        code: ErrorCodes.UnusedTemplateBinding,
        target: { kind: 'templateVariable', step: 'read', variable: 'projet' },
        message:
          "Workflow 'report', step 'read': @TemplateBinding('projet', …) fills no variable: this step's URIs hold {project}. Did you mean 'project'? " +
          'Fix: rename it to a variable of the URI, add {projet} to the URI, or remove the @TemplateBinding.',
      },
      {
        type: UnusedTemplateBindingError,
        code: ErrorCodes.UnusedTemplateBinding,
        target: { kind: 'templateVariable', step: 'list', variable: 'id' },
        message:
          "Workflow 'report', step 'list': @TemplateBinding('id', …) fills no variable: this step's URIs hold no variables. " +
          'Fix: rename it to a variable of the URI, add {id} to the URI, or remove the @TemplateBinding.',
      },
    ],
  },
  {
    label: 'a URI that is not a template',
    errors: () => validateWorkflow(workflow([resourceStep('read', 'docs://{unclosed')])),
    expected: [
      {
        type: InvalidUriTemplateError,
        code: ErrorCodes.InvalidUriTemplate,
        target: { kind: 'stepUri', step: 'read', start: 7, end: 8 },
        message:
          "Workflow 'report', step 'read': URI 'docs://{unclosed' is not a valid RFC 6570 template: '{' at offset 7 is never closed. " +
          "Fix: close every '{' with '}' and name variables with letters, digits and '_'.",
      },
    ],
  },
  {
    label: 'an object and an array constant filling URI variables',
    errors: () =>
      validateWorkflow(
        workflow([
          resourceStep('read', 'map://{room}/{tags}', {
            fills: [
              { variable: 'room', source: constant({ id: 'hall' }) },
              { variable: 'tags', source: constant(['a', 'b']) },
            ],
          }),
        ]),
      ),
    expected: [
      {
        type: UriValueTypeError,
        code: ErrorCodes.TypeMismatch,
        target: { kind: 'templateSource', step: 'read', variable: 'room', part: 'value' },
        message:
          "Workflow 'report', step 'read': {room} would be filled with an object constant, but a URI variable takes a string, number or boolean. " +
          "Fix: bind {room} to a field of string, number or boolean type, such as field('<binding>', '<path>.id').",
      },
      {
        type: UriValueTypeError,
        code: ErrorCodes.TypeMismatch,
        target: { kind: 'templateSource', step: 'read', variable: 'tags', part: 'value' },
        message:
          "Workflow 'report', step 'read': {tags} would be filled with an array constant, but a URI variable takes a string, number or boolean. " +
          "Fix: bind {tags} to a field of string, number or boolean type, such as field('<binding>', '<path>.id').",
      },
    ],
  },
  {
    label: 'a variable in an instruction resource',
    errors: () => validateWorkflow(workflow([toolStep('list')], { resources: ['docs://glossary/{lang}'] })),
    expected: [
      {
        type: WorkflowResourceVariableError,
        code: ErrorCodes.WorkflowResourceVariable,
        target: { kind: 'workflowResource', index: 0, start: 16, end: 22 },
        message:
          "Workflow 'report': instruction resource 'docs://glossary/{lang}' holds a '{…}' template expression, but workflow resources are embedded before any step runs, so nothing can fill it. " +
          "Fix: use a fixed URI in @Workflow({ resources }), or move the URI to a step's resources and fill it with @TemplateBinding.",
      },
    ],
  },
  {
    label: 'a guidance placeholder that names no argument',
    errors: () => validateWorkflow(workflow([toolStep('list', { guidance: "I'll check {projet}." })])),
    expected: [
      {
        type: UnknownGuidancePlaceholderError,
        code: ErrorCodes.UnknownGuidancePlaceholder,
        target: { kind: 'guidance', step: 'list', start: 12, end: 18 },
        message:
          "Workflow 'report', step 'list': guidance holds {projet}, but the workflow declares no argument 'projet'. Declared arguments: 'project'. Did you mean 'project'? " +
          "Fix: use a declared argument's name, declare 'projet', or write {{projet}} for literal braces.",
      },
    ],
  },
];
