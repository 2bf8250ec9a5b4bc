import type { BenchCase, Figure } from '../case';
import { generateProject } from '../compile/generate-project';
import { timeInProcess, type ClockResult, type InProcessResult } from '../compile/in-process';
import { timeTscSubprocess } from '../compile/tsc-subprocess';
import { stats } from '../measure';
import { fmt, range, ratioFigure } from '../report';
import { sized } from '../run-options';

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
  async run(options) {
    // The smaller project is half the larger: their transformer times say whether it grows linearly.
    const { small, large, processes, rounds, runs } = sized(
      options,
      { small: 200, large: 400, processes: 7, rounds: 2, runs: 5 },
      { small: 10, large: 20, processes: 1, rounds: 2, runs: 1 },
    );
    const figures: Figure[] = [];
    const [smallResult, largeResult] = await timeInProcess([generateProject(small), generateProject(large)], processes, rounds);
    const inProcess: Record<number, InProcessResult> = {
      [small]: { cpu: smallResult.cpu, wall: smallResult.wall },
      [large]: { cpu: largeResult.cpu, wall: largeResult.wall },
    };
    for (const classes of [small, large]) {
      const { cpu, wall } = inProcess[classes];
      figures.push({
        benchmark: `4. tsc --noEmit, ${classes} classes × 5 steps, in process (CPU time, cold)`,
        figure:
          `with ÷ without ${range(cpu.ratio, '', 3)} (${parts(cpu)}); transformer ÷ program and check alone ${fmt(cpu.checkingRatio.median, 3)}, ` +
          `warm ${fmt(cpu.warmCheckingRatio.median, 3)}; by wall clock ${fmt(wall.ratio.median, 3)}`,
        target: 'ratio ≤ 1.05',
        met: cpu.ratio.median <= 1.05,
      });
    }
    // Paired process by process (the two projects' processes ran in turn), as the other ratios are.
    type Child = (typeof smallResult.children)[number];
    const cold = (child: Child) => child.rounds[0].transformer.cpuMs;
    const growth = stats(largeResult.children.map((child, index) => cold(child) / cold(smallResult.children[index])));
    // The same on the main thread alone, without V8's helper threads (Linux only).
    const coldMain = (child: Child) => child.rounds[0].transformer.mainCpuMs ?? NaN;
    const mainGrowth = largeResult.children.map((child, index) => coldMain(child) / coldMain(smallResult.children[index]));
    const onMain = mainGrowth.every(Number.isFinite)
      ? `; on the main thread ${range(stats(mainGrowth), '', 2)}, medians ${fmt(stats(largeResult.children.map(coldMain)).median, 0)} / ${fmt(stats(smallResult.children.map(coldMain)).median, 0)} ms`
      : '';
    figures.push({
      benchmark: `4. the transformer's own CPU time, ${large} classes ÷ ${small} classes`,
      figure: `paired by process ${range(growth, '', 2)}; medians ${fmt(largeResult.cpu.transformerMs.median, 0)} / ${fmt(smallResult.cpu.transformerMs.median, 0)} ms${onMain}`,
      target: '≤ 2.1 (linear)',
      met: growth.median <= 2.1,
    });
    const subprocess = timeTscSubprocess(generateProject(large), runs);
    figures.push({
      benchmark: `4. tsc --noEmit, ${large} classes, two subprocesses (wall clock, end to end)`,
      figure: ratioFigure('with', subprocess.checked, 'without', subprocess.plain, 'ms', 0),
      target: 'reported (two processes seconds apart: swings by several % between runs)',
    });
    return { result: { inProcess, growth, mainGrowth, subprocess }, figures };
  },
};
