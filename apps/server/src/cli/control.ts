import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { internal } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../lib/errors';
import { route } from '../lib/route';
import { runCommand } from './commands';

/**
 * PGlite allows one process per data directory, so while the server holds DATA_DIR the CLI hands
 * its command to the server: DATA_DIR/control.json names the port and a fresh secret, and
 * POST /api/internal/cli runs the command for a loopback caller that presents the secret.
 */
export function controlFile(dataDir: string): string {
  return path.join(dataDir, 'control.json');
}

export function newControlSecret(): string {
  return randomBytes(32).toString('hex');
}

export function writeControlFile(dataDir: string, port: number, secret: string): void {
  writeFileSync(controlFile(dataDir), JSON.stringify({ port, secret, pid: process.pid }), { mode: 0o600 });
}

export function removeControlFile(dataDir: string): void {
  rmSync(controlFile(dataDir), { force: true });
}

export function readControlFile(dataDir: string): { port: number; secret: string; pid?: number } | undefined {
  const file = controlFile(dataDir);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as { port: number; secret: string; pid?: number };
  } catch {
    return undefined;
  }
}

export const controlRoutes = (secret: string): FastifyPluginAsync =>
  async function control(app) {
    route(app, internal.cli, async (req) => {
      const given = Buffer.from(String(req.headers['x-control-secret'] ?? ''));
      const expected = Buffer.from(secret);
      const loopback = ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(req.socket.remoteAddress ?? '');
      if (!loopback || given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError('FORBIDDEN', 'Forbidden');
      const result = await runCommand(app.ctx, req.body.command, req.body.args);
      if (req.body.command === 'settings:maintenance') app.resetMaintenanceCache();
      return { success: true as const, data: result };
    });
  };
