import type { BenchCase, Figure } from '../case';
import { generateProject } from '../compile/generate-project';
import { timeTscSubprocess, type SubprocessResult } from '../compile/tsc-subprocess';
import { fmt, ratioFigure } from '../report';

/** `tsc --noEmit` (the patched tsc) on generated projects, with and without the transformer. */
export const compile: BenchCase = {
  name: 'compile',
  async run() {
    const sizes: SubprocessResult[] = [200, 400].map((classes) => timeTscSubprocess(generateProject(classes), 5));
    const figures: Figure[] = sizes.map((size, index) => ({
      benchmark: `4. tsc --noEmit, ${[200, 400][index]} classes × 5 steps`,
      figure: ratioFigure('with', size.checked, 'without', size.plain, 'ms', 0),
      target: 'ratio ≤ 1.10',
      met: size.ratio <= 1.1,
    }));
    const scale = sizes[1].checked.median / sizes[0].checked.median;
    figures.push({ benchmark: '4. tsc with the transformer, 400 classes ÷ 200 classes', figure: fmt(scale, 2), target: 'about 2 (linear)', met: scale <= 2.3 });
    return { result: sizes, figures };
  },
};
