import { api } from '../../../lib/api-client';

/** POST /api/auth/logout */
export const logout = () => api.post('/api/auth/logout');
