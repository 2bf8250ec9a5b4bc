/** Every SDK line with every protocol it speaks: each scenario runs on each, through that line's real client. */
export const LINES = [
  { label: 'SDK 1.x, 2025-11-25 (in place)', sdk: 1, protocol: '2025-11-25' },
  { label: 'SDK 2.x, 2025-11-25 (in place)', sdk: 2, protocol: '2025-11-25' },
  { label: 'SDK 2.x, 2026-07-28 (rounds)', sdk: 2, protocol: '2026-07-28' },
] as const;
