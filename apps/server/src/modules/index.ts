import type { FastifyPluginAsync } from 'fastify';
import healthRoutes from './health/routes';
import supportRoutes from './support/routes';
import adminRoutes from './admin/routes';
import authRoutes from './auth/routes';
import usersRoutes from './users/routes';

/** Every module's routes, registered under /api. */
export const modules: FastifyPluginAsync[] = [healthRoutes, supportRoutes, adminRoutes, authRoutes, usersRoutes];
