/**
 * The toast after the admin saves the settings (issue 47: it said 'Settings saved…' whichever way
 * the maintenance switch went). A change of the switch is the headline, in words that say the new
 * state; the server's message comes under it. Without a change, the server's message alone.
 */
export function settingsSavedToast(before: boolean, after: boolean, message: string | undefined): { title: string; description?: string } {
  const saved = message || 'Settings saved';
  if (before === after) return { title: saved };
  return {
    title: after ? 'Maintenance mode is on' : 'Maintenance mode is off',
    description: `${after ? 'Users see the maintenance page; the admin console keeps working.' : 'Users can use the app again.'} ${saved}`,
  };
}
