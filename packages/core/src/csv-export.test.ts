import { describe, expect, it } from 'vitest';
import { csvAmount, csvCount, csvLine } from './csv-export';

describe('CSV export lines', () => {
  it('writes amounts as plain numbers (a minus is a minus) and escapes text', () => {
    expect(csvLine(['2026-11-20T10:00:00.000Z', csvAmount(-10.5), csvAmount(1_000_001n), csvCount(3), '-1+X', null])).toBe(
      "2026-11-20T10:00:00.000Z,-10.5,1.000001,3,'-1+X,\r\n",
    );
    expect(csvLine(['a,b', 'say "hi"', csvAmount(0.1)])).toBe('"a,b","say ""hi""",0.1\r\n');
  });
});
