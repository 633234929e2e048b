import { describe, expect, it } from 'vitest';
import { createTestApp, createTestDb } from './app';
import { newTarget } from './faults/procs';
import { isEngineFreeFile, startsProcesses } from './file-kinds';

describe('a test file declared engine-free by its name', () => {
  // This file is one: each helper that opens the engine under test must refuse here.
  it('cannot open a test database, a test app or a fault target', async () => {
    await expect(createTestDb()).rejects.toThrow(/file-kinds\.engine-free\.test\.ts is declared engine-free .* calls createTestDb/);
    await expect(createTestApp()).rejects.toThrow(/declared engine-free .* calls createTestApp/);
    await expect(newTarget('postgres')).rejects.toThrow(/declared engine-free .* calls newTarget/);
  });

  it('is told apart by its name only', () => {
    expect(isEngineFreeFile('/r/apps/server/src/lib/coalesce.engine-free.test.ts')).toBe(true);
    expect(isEngineFreeFile('/r/apps/server/src/startup.procs.engine-free.test.ts')).toBe(true);
    expect(isEngineFreeFile('/r/apps/server/src/modules/ledger/ledger.test.ts')).toBe(false);
    expect(startsProcesses('/r/apps/server/src/faults/kill.procs.test.ts')).toBe(true);
    expect(startsProcesses('/r/apps/server/src/startup.procs.engine-free.test.ts')).toBe(true);
    expect(startsProcesses('/r/apps/server/src/plugins/error-handler.test.ts')).toBe(false);
  });
});
