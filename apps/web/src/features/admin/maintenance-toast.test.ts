import { describe, expect, it } from 'vitest';
import { settingsSavedToast } from './maintenance-toast';

const SAVED = 'Settings saved. They apply to new stakes and future accruals only.';

describe('the admin settings toast says which way maintenance went (issue 47)', () => {
  it('names the new state when the switch changed, with the server message under it', () => {
    const on = settingsSavedToast(false, true, SAVED);
    expect(on.title).toBe('Maintenance mode is on');
    expect(on.description).toContain(SAVED);
    const off = settingsSavedToast(true, false, SAVED);
    expect(off.title).toBe('Maintenance mode is off');
    expect(off.description).toContain(SAVED);
  });
  it("is the server's message alone when the switch did not change", () => {
    expect(settingsSavedToast(true, true, SAVED)).toEqual({ title: SAVED });
    expect(settingsSavedToast(false, false, undefined)).toEqual({ title: 'Settings saved' });
  });
});
