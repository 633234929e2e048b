import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';

const root = path.resolve(import.meta.dirname, '../../../..');
const read = (f: string) => readFileSync(path.join(root, f), 'utf8');

describe('the deployment files agree with the app', () => {
  it('compose trusts exactly the one nginx hop that overwrites X-Forwarded-For with the client address', () => {
    // Without TRUST_PROXY behind nginx, every client shares the proxy's per-IP rate-limit bucket.
    const trust = /^\s+TRUST_PROXY: \$\{TRUST_PROXY:-([^}]+)\}$/m.exec(read('compose.yaml'))?.[1];
    expect(trust).toBe('1');
    expect(loadConfig({ TRUST_PROXY: trust! }).trustProxy).toBe(1);
    // nginx sets (not appends) the header, so the one trusted hop names the real client.
    expect(read('deploy/nginx.conf')).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
  });
});
