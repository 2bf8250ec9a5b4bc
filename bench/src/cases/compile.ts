import type { BenchCase, Figure } from '../case';
import { generateProject } from '../compile/generate-project';
import { timeInProcess, type ClockResult, type InProcessResult } from '../compile/in-process';
import { timeTscSubprocess } from '../compile/tsc-subprocess';
import { fmt, range, ratioFigure } from '../report';

const SIZES = [200, 400];

const parts = (clock: ClockResult) =>
  `start-up ${fmt(clock.startupMs.median, 0)} + program ${fmt(clock.programMs.median, 0)} + check ${fmt(clock.checkMs.median, 0)} ms; ` +
  `plugin load ${fmt(clock.pluginLoadMs.median, 0)} + transformer ${fmt(clock.transformerMs.median, 0)} ms`;

/**
 * What the transformer adds to `tsc --noEmit`: in fresh processes, its own time beside the
 * compiler's (CPU time: the stable figure), and the whole patched tsc as two subprocesses (end to
 * end, noisier).
 */
export const compile: BenchCase = {
  name: 'compile',
  async run() {
    const figures: Figure[] = [];
    const inProcess: Record<number, InProcessResult> = {};
    for (const classes of SIZES) {
      const { cpu, wall } = (inProcess[classes] = await timeInProcess(generateProject(classes), 5, 2));
      figures.push({
        benchmark: `4. tsc --noEmit, ${classes} classes × 5 steps, in process (CPU time, cold)`,
        figure:
          `with ÷ without ${range(cpu.ratio, '', 3)} (${parts(cpu)}); transformer ÷ program and check alone ${fmt(cpu.checkingRatio.median, 3)}, ` +
          `warm ${fmt(cpu.warmCheckingRatio.median, 3)}; by wall clock ${fmt(wall.ratio.median, 3)}`,
        target: 'ratio ≤ 1.05',
        met: cpu.ratio.median <= 1.05,
      });
    }
    const growth = inProcess[400].cpu.transformerMs.median / inProcess[200].cpu.transformerMs.median;
    figures.push({
      benchmark: "4. the transformer's own CPU time, 400 classes ÷ 200 classes",
      figure: fmt(growth, 2),
      target: 'about 2 (linear)',
      met: growth <= 2.3,
    });
    const subprocess = timeTscSubprocess(generateProject(400), 5);
    figures.push({
      benchmark: '4. tsc --noEmit, 400 classes, two subprocesses (wall clock, end to end)',
      figure: ratioFigure('with', subprocess.checked, 'without', subprocess.plain, 'ms', 0),
      target: 'ratio ≤ 1.05 (swings by several % between runs)',
      met: subprocess.ratio <= 1.05,
    });
    return { result: { inProcess, subprocess400: subprocess }, figures };
  },
};
