/**
 * quarterly_report: one query's result fans out — the metrics step and the report step both read
 * the `sales` binding, and the report also reads the metrics. The tools are definitions, so the
 * transformer checks each `field()` value's type against the input it feeds.
 */
import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, defineTool, field, promptArg } from '@mcpflow/decorators';
import { WorkflowServer } from '@mcpflow/core';
import { main } from '../serve';

interface SalesRow {
  region: string;
  revenue: number;
}

const SALES: Record<string, SalesRow[]> = {
  '2026-Q3': [
    { region: 'EMEA', revenue: 120 },
    { region: 'APAC', revenue: 95 },
    { region: 'AMER', revenue: 180 },
  ],
};

const row = z.object({ region: z.string(), revenue: z.number() });

export const salesQuery = defineTool(
  'sales_query',
  { description: 'Sales by region for a quarter', inputSchema: { quarter: z.string() } },
  async ({ quarter }) => {
    const rows = SALES[quarter];
    if (!rows) return { content: [{ type: 'text', text: `No sales data for ${quarter}` }], isError: true };
    return { content: [{ type: 'text', text: JSON.stringify({ quarter, rows }) }] };
  },
);

export const calculateMetrics = defineTool(
  'calculate_metrics',
  { description: 'Total revenue and top region', inputSchema: { rows: z.array(row) } },
  async ({ rows }) => {
    const total = rows.reduce((sum, entry) => sum + entry.revenue, 0);
    const top = rows.reduce((best, entry) => (entry.revenue > best.revenue ? entry : best), rows[0]);
    return { content: [{ type: 'text', text: JSON.stringify({ total, top_region: top?.region ?? 'none' }) }] };
  },
);

export const formatReport = defineTool(
  'format_report',
  {
    description: 'Format the quarterly report as markdown',
    inputSchema: { quarter: z.string(), rows: z.array(row), total: z.number(), top_region: z.string() },
  },
  async ({ quarter, rows, total, top_region }) => ({
    content: [
      {
        type: 'text',
        text: `# Sales report ${quarter}\nTotal: ${total}\nTop region: ${top_region}\n${rows.map((entry) => `- ${entry.region}: ${entry.revenue}`).join('\n')}`,
      },
    ],
  }),
);

@Workflow({
  name: 'quarterly_report',
  description: 'Build the sales report of a quarter',
  arguments: { quarter: z.string().describe('Quarter, such as 2026-Q3') },
})
export class QuarterlyReport {
  @Step({ tool: salesQuery, args: { quarter: promptArg('quarter') } })
  @Bind('sales')
  sales!: { quarter: string; rows: SalesRow[] };

  @Step({ tool: calculateMetrics, args: { rows: field('sales', 'rows') } })
  @Bind('metrics')
  metrics!: { total: number; top_region: string };

  @Step({
    tool: formatReport,
    args: {
      quarter: field('sales', 'quarter'),
      rows: field('sales', 'rows'),
      total: field('metrics', 'total'),
      top_region: field('metrics', 'top_region'),
    },
  })
  @Bind('report')
  report!: string;
}

/** The sales server: the report workflow, and through it a query, a metrics calculator and a formatter. */
export function createQuarterlyReportServer(): WorkflowServer {
  return new WorkflowServer({ name: 'sales', version: '1.0.0' }).use(QuarterlyReport);
}

if (require.main === module) main('sales', createQuarterlyReportServer);
