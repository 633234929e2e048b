import { describe, expect, it } from 'vitest';
import { coalesce } from './coalesce';

/** A run that records each batch it gets and answers key × 10 (or throws for 'boom'). */
const recorder = () => {
  const batches: number[][] = [];
  const run = async (keys: number[]) => {
    batches.push(keys);
    await new Promise((r) => setTimeout(r, 1));
    if (keys.includes(-1)) throw new Error('boom');
    return keys.map((k) => k * 10);
  };
  return { batches, run };
};

describe('coalesce', () => {
  it('answers the calls of one turn with one run over their distinct keys, each its own result', async () => {
    const { batches, run } = recorder();
    const get = coalesce(run);
    const results = await Promise.all([1, 2, 3, 2, 1].map((k) => get(k)));
    expect(results).toEqual([10, 20, 30, 20, 10]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('starts a new run for calls made in a later turn (nothing cached)', async () => {
    const { batches, run } = recorder();
    const get = coalesce(run);
    expect(await get(4)).toBe(40);
    expect(await get(4)).toBe(40);
    expect(batches).toEqual([[4], [4]]);
  });

  it('gives every caller of the turn the error of a failed run, and the next turn runs again', async () => {
    const { batches, run } = recorder();
    const get = coalesce(run);
    const settled = await Promise.allSettled([get(5), get(-1), get(5)]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await get(5)).toBe(50);
    expect(batches).toEqual([[5, -1], [5]]);
  });

  it('sends a batch as soon as it holds maxBatch keys', async () => {
    const { batches, run } = recorder();
    const get = coalesce(run, 3);
    const results = await Promise.all([1, 2, 3, 4, 5].map((k) => get(k)));
    expect(results).toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });
});
