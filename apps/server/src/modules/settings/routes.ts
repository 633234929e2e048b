import { user } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import { getSettings, settingsToJson } from './service';

const settingsRoutes: FastifyPluginAsync = async (app) => {
  route(app, user.settings, async () => {
    const { maintenance_mode: _hidden, ...settings } = settingsToJson(await getSettings(app.ctx.db));
    return ok({ settings });
  });
};
export default settingsRoutes;
