import { DecoratorModeError } from '@mcpflow/core/rules';
import { Bind, Step, TemplateBinding, Workflow, constant } from '@mcpflow/decorators';

// What a standard (TC39) decorator call passes: the value (undefined for a field) and a context.
type StandardCall = (value: unknown, context: { kind: string; name: string }) => unknown;
const asStandard = (decorator: unknown) => decorator as StandardCall;

describe('decorators called as standard decorators (experimentalDecorators off)', () => {
  test.each([
    [
      'Workflow',
      asStandard(Workflow({ name: 'get_hint' })),
      { kind: 'class', name: 'GetHint' },
      '@Workflow on class GetHint: it was applied as a standard ECMAScript decorator',
    ],
    [
      'Step',
      asStandard(Step({ tool: 'get_my_progress' })),
      { kind: 'field', name: 'progress' },
      "@Step on property 'progress': it was applied as a standard ECMAScript decorator",
    ],
    [
      'Bind',
      asStandard(Bind('progress')),
      { kind: 'field', name: 'progress' },
      "@Bind on property 'progress': it was applied as a standard ECMAScript decorator",
    ],
    [
      'TemplateBinding',
      asStandard(TemplateBinding('id', constant('x'))),
      { kind: 'field', name: 'page' },
      "@TemplateBinding on property 'page': it was applied as a standard ECMAScript decorator",
    ],
  ])('@%s throws DecoratorModeError (91031) naming itself and the fix', (_name, decorator, context, opening) => {
    let thrown: unknown;
    try {
      decorator(context.kind === 'class' ? class {} : undefined, context);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DecoratorModeError);
    expect((thrown as DecoratorModeError).code).toBe(91031);
    expect((thrown as Error).message).toContain(opening);
    expect((thrown as Error).message).toContain('Fix: set "experimentalDecorators": true in the compilerOptions of tsconfig.json');
  });
});
