import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { stats, type Stats } from './measure';

const REPO = path.resolve(__dirname, '..', '..');
const TSC = path.join(REPO, 'node_modules', 'typescript', 'lib', 'tsc.js');
const GENERATED = path.join(REPO, 'bench', '.generated');

/** Writes a project of `classes` workflow classes of 5 steps each (one file each), with and without the transformer. */
function generate(classes: number): { plain: string; checked: string } {
  const dir = path.join(GENERATED, `p${classes}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  for (let index = 0; index < classes; index += 1) {
    const steps = Array.from({ length: 5 }, (_, step) => {
      const source = step === 0 ? "promptArg('id')" : `field('out_${step - 1}', 'items.0.name')`;
      return `  @Step({ tool: 'tool_${step}', args: { value: ${source}, mode: constant('fast') }, guidance: 'Step ${step} for {id}' })\n  @Bind('out_${step}')\n  s${step}!: { items: { name: string; size: number }[]; total: number };\n`;
    });
    fs.writeFileSync(
      path.join(dir, 'src', `workflow-${index}.ts`),
      `import { z } from 'zod';\nimport { Bind, Step, Workflow, constant, field, promptArg } from '@mcpflow/decorators';\n\n` +
        `@Workflow({ name: 'workflow_${index}', description: 'Generated', arguments: { id: z.string() } })\nexport class Workflow${index} {\n${steps.join('\n')}}\n`,
    );
  }
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
  return { plain: path.join(dir, 'tsconfig.plain.json'), checked: path.join(dir, 'tsconfig.checked.json') };
}

function timeTsc(project: string): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [TSC, '-p', project], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`tsc failed on ${project}:\n${result.stdout}${result.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export interface CompileResult {
  classes: number;
  plain: Stats;
  checked: Stats;
  ratio: number;
}

/** 4. `tsc --noEmit` (the patched tsc) on generated projects, with and without the transformer, alternating runs. */
export function compileTime(sizes: number[] = [200, 400], runs = 5): CompileResult[] {
  return sizes.map((classes) => {
    const project = generate(classes);
    timeTsc(project.plain);
    timeTsc(project.checked);
    const plain: number[] = [];
    const checked: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      if (run % 2) checked.push(timeTsc(project.checked));
      plain.push(timeTsc(project.plain));
      if (!(run % 2)) checked.push(timeTsc(project.checked));
    }
    const result = { classes, plain: stats(plain), checked: stats(checked), ratio: 0 };
    result.ratio = result.checked.median / result.plain.median;
    return result;
  });
}
