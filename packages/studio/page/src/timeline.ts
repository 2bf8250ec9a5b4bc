// A run's timeline: a lane per step (and per forEach item), each a bar on one time axis from when it
// started to when it ended, with its name, status word and duration in words beside it. Steps of one
// parallel group form one row group (their bars overlap in time); forEach items are lanes of their own.
// Bars are placed through the CSSOM (`element.style`), which the page's CSP allows (no style attribute).
import { h } from './dom';
import type { TimelineRow } from './types';

function durationWords(ms: number | undefined): string {
  if (ms === undefined) return '—';
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

function nameOf(row: TimelineRow): string {
  return row.iteration === undefined ? row.step : `${row.step} #${row.iteration + 1}`;
}

/** The bar of a row on an axis `span` ms long: its offset and width in percent of the lane. */
function bar(row: TimelineRow, span: number): HTMLElement {
  const start = row.startMs ?? 0;
  const label =
    row.durationMs === undefined
      ? `${nameOf(row)}: ${row.status}, not timed`
      : `${nameOf(row)}: ${row.status}, ${durationWords(row.durationMs)} from ${durationWords(start)}`;
  const element = h('span', { class: `bar ${row.status}`, role: 'img', 'aria-label': label, 'data-status': row.status });
  element.style.left = `${(100 * start) / span}%`;
  element.style.width = row.durationMs === undefined ? '0' : `${(100 * row.durationMs) / span}%`;
  return element;
}

function stepRow(row: TimelineRow, span: number): HTMLElement {
  return h(
    'div',
    { role: 'row', class: `step ${row.status}${row.iteration === undefined ? '' : ' item'}`, 'data-step': row.step },
    h(
      'span',
      { role: 'cell', class: 'name' },
      nameOf(row),
      row.iterationsNotShown !== undefined &&
        h('small', { class: 'cut' }, ` (${row.iterationsNotShown.toLocaleString('en')} more iterations not shown)`),
    ),
    h('span', { role: 'cell', class: `status ${row.status}` }, row.status),
    h('span', { role: 'cell', class: 'duration' }, durationWords(row.durationMs)),
    h('span', { role: 'cell', class: 'lane' }, bar(row, span)),
  );
}

/** Consecutive rows of one parallel group form one stage; every other row (with its items) is a stage alone. */
function stages(rows: TimelineRow[]): TimelineRow[][] {
  const result: TimelineRow[][] = [];
  for (const row of rows) {
    const last = result.at(-1);
    const first = last?.[0];
    const together =
      first !== undefined &&
      ((row.group !== undefined && first.group === row.group) || (row.iteration !== undefined && first.step === row.step));
    if (together) last!.push(row);
    else result.push([row]);
  }
  return result;
}

/** The axis: ticks at a quarter of the span each, in words. */
function axis(span: number): HTMLElement {
  const ticks = h('span', { role: 'columnheader', class: 'axis', 'aria-label': `Time, 0 to ${durationWords(span)}` });
  for (const part of [0, 0.25, 0.5, 0.75, 1]) {
    const tick = h('span', { class: 'tick', 'aria-hidden': 'true' }, durationWords(span * part));
    tick.style.left = `${part * 100}%`;
    ticks.append(tick);
  }
  return ticks;
}

export function timeline(rows: TimelineRow[]): HTMLElement {
  const span = Math.max(1, ...rows.map((row) => (row.startMs ?? 0) + (row.durationMs ?? 0)));
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
        axis(span),
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
        ...stage.map((row) => stepRow(row, span)),
      ),
    ),
  );
}
