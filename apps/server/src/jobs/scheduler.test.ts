import { usd } from '@app/core';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testDbKind, useTestApp } from '../test/app';
import { createUser, fundDeposit } from '../test/factories';
import * as ledger from '../modules/ledger/service';
import { createStake } from '../modules/staking/service';
import { runDailyRoi } from './roi-job';
import { startJobs, type Job } from './scheduler';
import { roiDays } from '../test/roi-credits';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function captureLog() {
  const errors: { job?: string }[] = [];
  const log = { info: () => {}, warn: () => {}, debug: () => {}, error: (obj: { job?: string }) => errors.push(obj) } as unknown as FastifyBaseLogger;
  return { log, errors };
}

/** A job that records how many of its runs overlap. */
function probe(name: string, runMs: number, intervalMs: number) {
  const state = { runs: 0, active: 0, maxActive: 0 };
  const job: Job = {
    name,
    intervalMs,
    run: async () => {
      state.runs++;
      state.active++;
      state.maxActive = Math.max(state.maxActive, state.active);
      await sleep(runMs);
      state.active--;
    },
  };
  return { job, state };
}

describe('jobs runner and the daily ROI job', () => {
  const t = useTestApp();

  const runs = () => t.db.selectFrom('job_runs').selectAll().where('name', '=', 'roi').orderBy('period').execute();

  it('runs the ROI for today after 00:05 UTC, once a day, survives a restart and catches up missed days', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, u.id, 100);
    await createStake(t.db, u.id, usd(100), new Date('2031-04-01T15:00:00Z'));
    const income = async () => (await ledger.getBalances(t.db, u.id)).income;

    // 00:04 on the next day: too early.
    expect(await runDailyRoi(t.ctx, new Date('2031-04-02T00:04:59Z'))).toEqual({ ran: false });
    expect(await runs()).toEqual([]);
    // 00:05: runs for the day and records it.
    expect(await runDailyRoi(t.ctx, new Date('2031-04-02T00:05:00Z'))).toEqual({ ran: true });
    expect(await income()).toBe(usd('0.5'));
    const [run] = await runs();
    expect(run).toMatchObject({ name: 'roi', period: '2031-04-02', finished_at: expect.any(Date) });
    expect(JSON.parse(run!.result!)).toMatchObject({ date: '2031-04-02', credits: 1, total: '500000' });
    // Every later minute that day (and a restarted process) sees the record and does nothing.
    expect(await runDailyRoi(t.ctx, new Date('2031-04-02T00:06:00Z'))).toEqual({ ran: false });
    expect(await runDailyRoi(t.ctx, new Date('2031-04-02T23:59:00Z'))).toEqual({ ran: false });
    expect(await income()).toBe(usd('0.5'));
    // Down from the 3rd to the 5th: the first check on the 6th credits the 3rd … 6th, each once.
    expect(await runDailyRoi(t.ctx, new Date('2031-04-06T09:30:00Z'))).toEqual({ ran: true });
    expect(await income()).toBe(usd(2.5));
    expect(await roiDays(t.db, u.id)).toEqual(['2031-04-02', '2031-04-03', '2031-04-04', '2031-04-05', '2031-04-06']);
    expect((await runs()).map((r) => r.period)).toEqual(['2031-04-02', '2031-04-06']);
    expect((await ledger.verify(t.db)).ok).toBe(true);
  });

  it('runs again a day whose run started but never finished (a crash mid-run)', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, u.id, 50);
    await createStake(t.db, u.id, usd(50), new Date('2032-01-01T10:00:00Z'));
    await t.db.insertInto('job_runs').values({ name: 'roi', period: '2032-01-02' }).execute();
    expect(await runDailyRoi(t.ctx, new Date('2032-01-02T01:00:00Z'))).toEqual({ ran: true });
    expect((await ledger.getBalances(t.db, u.id)).income).toBe(usd('0.25'));
    const row = await t.db.selectFrom('job_runs').select('finished_at').where('name', '=', 'roi').where('period', '=', '2032-01-02').executeTakeFirstOrThrow();
    expect(row.finished_at).toBeInstanceOf(Date);
  });

  // The runner's timing (first tick, interval, skipped ticks, failures) is the same on both engines
  // and is driven here by fake timers, so it is exact however loaded the machine is. The
  // cross-process advisory lock, which needs real connections, is the PostgreSQL test below.
  describe('timing, on fake timers', () => {
    const inProcess = () => ({ ...t.ctx, dbKind: 'pglite' as const });
    beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'] }));
    afterEach(() => void vi.useRealTimers());
    /** Starts the runner in this process with one probe job alone, its first tick after `firstDelayMs`. */
    const startProbe = (name: string, runMs: number, intervalMs: number, firstDelayMs: number) => {
      const p = probe(name, runMs, intervalMs);
      return { p, handle: startJobs(inProcess(), captureLog().log, [p.job], { firstDelayMs }) };
    };

    it('runs each job soon after start and then on its interval, and stop() waits for a run in flight', async () => {
      const { p, handle } = startProbe('probe:interval', 60, 50, 10);
      await vi.advanceTimersByTimeAsync(9);
      expect(p.state.runs).toBe(0);
      // Ticks at 10 (runs to 70), 50 (skipped: busy), 100 (runs to 160), 150 (skipped), 200 (in flight at 220).
      await vi.advanceTimersByTimeAsync(211);
      expect(p.state.runs).toBe(3);
      expect(p.state.active).toBe(1);
      let done = false;
      const stopped = handle.stop().then(() => (done = true));
      await vi.advanceTimersByTimeAsync(30);
      expect(done).toBe(false); // the run started at 200 is still in flight
      await vi.advanceTimersByTimeAsync(30);
      await stopped;
      expect(p.state.active).toBe(0);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(p.state.runs).toBe(3);
    });

    it('skips a tick while the same job is still running in this process', async () => {
      const { p, handle } = startProbe('probe:slow', 200, 20, 5);
      // Runs start at 5, 220 and 420 (the first tick after each run ends); the 18 ticks between are skipped.
      await vi.advanceTimersByTimeAsync(500);
      expect(p.state.runs).toBe(3);
      expect(p.state.maxActive).toBe(1);
      const stopped = handle.stop();
      await vi.advanceTimersByTimeAsync(200);
      await stopped;
    });

    it('logs a failing run and keeps running the job', async () => {
      const { log, errors } = captureLog();
      let calls = 0;
      const job: Job = {
        name: 'probe:failing',
        intervalMs: 30,
        run: async () => {
          calls++;
          throw new Error('boom');
        },
      };
      const handle = startJobs(inProcess(), log, [job], { firstDelayMs: 5 });
      await vi.advanceTimersByTimeAsync(100); // ticks at 5, 30, 60, 90
      await handle.stop();
      expect(calls).toBe(4);
      expect(errors).toHaveLength(4);
      expect(errors.every((e) => e.job === 'probe:failing')).toBe(true);
    });
  });

  it.runIf(testDbKind === 'postgres')('runs a job at most once at a time across several runners (PostgreSQL advisory lock)', async () => {
    const { log } = captureLog();
    const state = { runs: 0, active: 0, maxActive: 0 };
    const shared: Job = {
      name: 'probe:cluster',
      intervalMs: 15,
      run: async () => {
        state.runs++;
        state.active++;
        state.maxActive = Math.max(state.maxActive, state.active);
        await sleep(80);
        state.active--;
      },
    };
    // Three runners, as three server processes would start them (each holds its own connection for the lock).
    const handles = [0, 1, 2].map(() => startJobs(t.ctx, log, [shared], { firstDelayMs: 5 }));
    await expect.poll(() => state.runs, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(3);
    await Promise.all(handles.map((h) => h.stop()));
    expect(state.runs).toBeGreaterThanOrEqual(3);
    expect(state.maxActive).toBe(1);
  });
});
