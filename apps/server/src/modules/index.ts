import type { FastifyPluginAsync } from 'fastify';
import healthRoutes from './health/routes';
import supportRoutes from './support/routes';

/** Every module's routes, registered under /api. */
export const modules: FastifyPluginAsync[] = [healthRoutes, supportRoutes];
