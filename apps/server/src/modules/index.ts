import type { FastifyPluginAsync } from 'fastify';
import healthRoutes from './health/routes';
import supportRoutes from './support/routes';
import adminRoutes from './admin/routes';

/** Every module's routes, registered under /api. */
export const modules: FastifyPluginAsync[] = [healthRoutes, supportRoutes, adminRoutes];
