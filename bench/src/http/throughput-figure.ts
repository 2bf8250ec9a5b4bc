import type { Figure } from '../case';
import { fmt, range, ratioFigure } from '../report';
import type { ThroughputComparison } from './throughput';

/** The table row of a throughput comparison: gated on the paired requests-per-second ratio. */
export function throughputFigure(benchmark: string, result: ThroughputComparison): Figure {
  return {
    benchmark,
    figure:
      `${ratioFigure('workflow', result.workflow, 'static prompt', result.static, 'req/s', 0)}; paired by round ${range(result.paired, '', 3)}; ` +
      `server CPU per request ${fmt(result.workflowCpuUs.median, 0)} / ${fmt(result.staticCpuUs.median, 0)} µs, requests per CPU-second ${fmt(result.cpuPaired.median, 3)}`,
    target: 'paired ratio ≥ 0.8',
    met: result.paired.median >= 0.8,
  };
}
