import { auth } from '@app/core/contracts/auth';
import { call } from '../../../lib/call';

/** POST /api/auth/logout */
export const logout = () => call(auth.logout);
