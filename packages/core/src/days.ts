/**
 * Calendar days as the app counts them: UTC, written YYYY-MM-DD (the ROI day, a stake's start,
 * the chart's days). Text compares in date order, so `a > b` is "a is later".
 */

/** The UTC day of `d` (now by default), as YYYY-MM-DD. */
export const utcDay = (d: Date = new Date()): string => d.toISOString().slice(0, 10);
