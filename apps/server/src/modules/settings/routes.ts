import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import { getSettings, settingsToJson } from './service';

const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/user/settings', { schema: { tags: ['user'] }, onRequest: app.authenticate }, async () => {
    const { maintenance_mode: _hidden, ...settings } = settingsToJson(await getSettings(app.ctx.db));
    return ok({ settings });
  });
};
export default settingsRoutes;
