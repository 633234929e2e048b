import { describe, expect, it } from 'vitest';
import { utcDay } from './days';

describe('utcDay', () => {
  it('is the UTC calendar day, whatever the local time zone says', () => {
    expect(utcDay(new Date('2031-04-01T23:59:59.999Z'))).toBe('2031-04-01');
    expect(utcDay(new Date('2031-04-02T00:00:00Z'))).toBe('2031-04-02');
    expect(utcDay(new Date('2031-04-01T23:30:00-05:00'))).toBe('2031-04-02');
  });

  it('defaults to today', () => {
    const before = new Date().toISOString().slice(0, 10);
    const day = utcDay();
    const after = new Date().toISOString().slice(0, 10);
    expect([before, after]).toContain(day);
  });
});
