import { describe, expect, it } from 'vitest';
import { figureState, hasFigure, worstFigure, type FigureQuery } from './figure-state';

const q = (over: Partial<FigureQuery>): FigureQuery => ({ data: undefined, status: 'pending', fetchStatus: 'fetching', isFetched: false, ...over });

describe('figureState (issue 47: a figure that could not be read is never 0.00, and money forms wait for a fresh one)', () => {
  it('is loading while the first answer is on its way', () => {
    expect(figureState(q({}), true)).toBe('loading');
  });
  it('has failed when the read failed with nothing to show, online or not', () => {
    expect(figureState(q({ status: 'error', fetchStatus: 'idle', isFetched: true }), true)).toBe('failed');
    expect(figureState(q({ status: 'error', fetchStatus: 'idle', isFetched: true }), false)).toBe('failed');
  });
  it('is offline when the read waits for the network and nothing is kept on the device', () => {
    expect(figureState(q({ fetchStatus: 'paused' }), false)).toBe('offline');
    expect(figureState(q({ fetchStatus: 'paused' }), true)).toBe('offline');
    expect(figureState(q({ fetchStatus: 'idle' }), false)).toBe('offline');
  });
  it('is live only for an answer of this run, online', () => {
    expect(figureState(q({ data: { balance: 560 }, status: 'success', fetchStatus: 'idle', isFetched: true }), true)).toBe('live');
    expect(figureState(q({ data: { balance: 560 }, status: 'success', fetchStatus: 'fetching', isFetched: true }), true)).toBe('live');
  });
  it('is stale for the device copy, offline, or beside a refresh that failed', () => {
    // restored from the device: no answer in this run
    expect(figureState(q({ data: { balance: 560 }, status: 'success', fetchStatus: 'fetching', isFetched: false }), true)).toBe('stale');
    expect(figureState(q({ data: { balance: 560 }, status: 'success', fetchStatus: 'paused', isFetched: true }), false)).toBe('stale');
    expect(figureState(q({ data: { balance: 560 }, status: 'error', fetchStatus: 'idle', isFetched: true }), true)).toBe('stale');
  });
  it('takes the least usable of several figures', () => {
    expect(worstFigure(['live', 'stale'])).toBe('stale');
    expect(worstFigure(['live', 'loading'])).toBe('loading');
    expect(worstFigure(['loading', 'failed', 'offline'])).toBe('failed');
    expect(worstFigure(['live', 'live'])).toBe('live');
    expect(worstFigure([])).toBe('live');
    expect(['live', 'stale', 'loading', 'failed', 'offline'].map((s) => hasFigure(s as never))).toEqual([true, true, false, false, false]);
  });
});
