import type { Stats } from './measure';

export const fmt = (value: number, digits = 1): string => value.toFixed(digits);

/** `30.1 µs (min 25.3, max 47.4)`, or `1.180 (min 0.950, max 1.410)` without a unit. */
export const range = (stats: Stats, unit: string, digits = 1): string =>
  `${fmt(stats.median, digits)}${unit ? ` ${unit}` : ''} (min ${fmt(stats.min, digits)}, max ${fmt(stats.max, digits)})`;

/** `workflow 30.1 µs (…) / hand-written 25.4 µs (…) = 1.185`. */
export const ratioFigure = (name: string, contender: Stats, baselineName: string, baseline: Stats, unit = 'µs', digits = 1): string =>
  `${name} ${range(contender, unit, digits)} / ${baselineName} ${range(baseline, unit, digits)} = ${fmt(contender.median / baseline.median, 3)}`;
