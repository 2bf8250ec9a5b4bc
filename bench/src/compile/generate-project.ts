import * as fs from 'node:fs';
import * as path from 'node:path';

export const REPO = path.resolve(__dirname, '..', '..', '..');
const GENERATED = path.join(REPO, 'bench', '.generated');

/** A generated project: the same sources with a tsconfig without and one with the transformer, and a file with one broken workflow. */
export interface GeneratedProject {
  classes: number;
  plain: string;
  checked: string;
  /** A workflow reading a binding no step binds: the transformer must report it, or it did not run. */
  sentinel: string;
}

function workflowSource(index: number, firstSource: string): string {
  const steps = Array.from({ length: 5 }, (_, step) => {
    const source = step === 0 ? firstSource : `field('out_${step - 1}', 'items.0.name')`;
    return `  @Step({ tool: 'tool_${step}', args: { value: ${source}, mode: constant('fast') }, guidance: 'Step ${step} for {id}' })\n  @Bind('out_${step}')\n  s${step}!: { items: { name: string; size: number }[]; total: number };\n`;
  });
  const firstKind = firstSource.slice(0, firstSource.indexOf('('));
  return (
    `import { z } from 'zod';\nimport { Bind, Step, Workflow, constant, field, ${firstKind} } from '@mcpflow/decorators';\n\n` +
    `@Workflow({ name: 'workflow_${index}', description: 'Generated', arguments: { id: z.string() } })\nexport class Workflow${index} {\n${steps.join('\n')}}\n`
  );
}

/**
 * Writes a project of `classes` workflow classes of 5 steps each (one file each: `promptArg`, `field`
 * with an array index, `constant` and guidance), with a tsconfig with and one without the transformer.
 */
export function generateProject(classes: number): GeneratedProject {
  const dir = path.join(GENERATED, `p${classes}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'sentinel'), { recursive: true });
  for (let index = 0; index < classes; index += 1)
    fs.writeFileSync(path.join(dir, 'src', `workflow-${index}.ts`), workflowSource(index, "promptArg('id')"));
  const sentinel = path.join(dir, 'sentinel', 'broken.ts');
  fs.writeFileSync(sentinel, workflowSource(classes, "fromStep('missing')"));
  const config = (plugins: unknown[]) => ({
    extends: path.join(REPO, 'tsconfig.base.json'),
    compilerOptions: { noEmit: true, composite: false, declaration: false, declarationMap: false, incremental: false, plugins },
    include: ['src'],
  });
  fs.writeFileSync(path.join(dir, 'tsconfig.plain.json'), JSON.stringify(config([])));
  fs.writeFileSync(
    path.join(dir, 'tsconfig.checked.json'),
    JSON.stringify(config([{ transform: '@mcpflow/transformer', transformProgram: true }])),
  );
  return { classes, plain: path.join(dir, 'tsconfig.plain.json'), checked: path.join(dir, 'tsconfig.checked.json'), sentinel };
}
