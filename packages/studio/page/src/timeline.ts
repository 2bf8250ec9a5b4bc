// A run's timeline: a row per step (name, status word, duration). Steps of one parallel group
// share a row group drawn side by side; forEach iterations are rows of their own, numbered.
import { h } from './dom';
import type { TimelineRow } from './types';

function duration(row: TimelineRow): string {
  return row.durationMs === undefined ? '—' : `${Math.round(row.durationMs)} ms`;
}

function stepRow(row: TimelineRow): HTMLElement {
  const name = row.iteration === undefined ? row.step : `${row.step} #${row.iteration + 1}`;
  return h(
    'div',
    { role: 'row', class: `step ${row.status}`, 'data-step': row.step },
    h(
      'span',
      { role: 'cell', class: 'name' },
      name,
      row.iterationsNotShown !== undefined &&
        h('small', { class: 'cut' }, ` (${row.iterationsNotShown.toLocaleString('en')} more iterations not shown)`),
    ),
    h('span', { role: 'cell', class: 'status' }, row.status),
    h('span', { role: 'cell', class: 'duration' }, duration(row)),
  );
}

/** Consecutive rows of one parallel group form one stage; every other row is a stage alone. */
function stages(rows: TimelineRow[]): TimelineRow[][] {
  const result: TimelineRow[][] = [];
  for (const row of rows) {
    const last = result.at(-1);
    if (row.group !== undefined && last?.[0]?.group === row.group) last.push(row);
    else result.push([row]);
  }
  return result;
}

export function timeline(rows: TimelineRow[]): HTMLElement {
  return h(
    'div',
    { role: 'table', class: 'timeline', 'aria-label': 'Timeline' },
    h(
      'div',
      { role: 'rowgroup', class: 'head' },
      h(
        'div',
        { role: 'row' },
        h('span', { role: 'columnheader' }, 'Step'),
        h('span', { role: 'columnheader' }, 'Status'),
        h('span', { role: 'columnheader' }, 'Duration'),
      ),
    ),
    ...stages(rows).map((stage) =>
      h(
        'div',
        {
          role: 'rowgroup',
          class: stage[0]?.group === undefined ? 'stage' : 'stage parallel',
          'aria-label': stage[0]?.group && `Parallel group ${stage[0].group}`,
        },
        ...stage.map(stepRow),
      ),
    ),
  );
}
