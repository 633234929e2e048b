import type { TTwoFactorSetup } from '@app/core/contracts/security';
import { Copy, Smartphone } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api-client';
import { useDisableTwoFactor, useEnableTwoFactor, useTwoFactorSetup } from '../api/security-api';
import { CodeForm } from './code-form';
import { RecoveryCodes } from './recovery-codes';
import { SectionTitle } from './section-title';

type Phase = { kind: 'idle' } | { kind: 'setup'; setup: TTwoFactorSetup } | { kind: 'codes'; codes: string[] } | { kind: 'disable' };

/** Base32 in groups of four is easier to type into an authenticator by hand. */
const groupSecret = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/**
 * TOTP two-factor authentication (server.md section 9): set-up with a QR code and the secret, a
 * code to confirm, the recovery codes once; disabling asks for a code.
 */
export function TwoFactorCard({ enabled }: { enabled: boolean }) {
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const setup = useTwoFactorSetup();
  const enable = useEnableTwoFactor();
  const disable = useDisableTwoFactor();

  const start = async () => {
    try {
      setPhase({ kind: 'setup', setup: await setup.mutateAsync() });
    } catch (err) {
      toast.error(errorMessage(err, 'Could not start the set-up. Please try again.'));
    }
  };

  const copySecret = async (secret: string) => {
    try {
      await navigator.clipboard.writeText(secret);
      toast.success('Secret copied');
    } catch {
      toast.error('Could not copy. Please type the secret instead.');
    }
  };

  // The recovery codes stay on screen until the user says they have them, whatever the refetch says.
  const on = enabled && phase.kind !== 'codes';
  return (
    <section aria-labelledby="two-factor-title" className="card space-y-4" data-testid="two-factor">
      <SectionTitle
        id="two-factor-title"
        icon={Smartphone}
        title="Two-factor authentication"
        subtitle="A code from an authenticator app at sign-in and for withdrawals."
        badge={
          <Badge tone={enabled ? 'success' : 'neutral'} className="shrink-0">
            {enabled ? 'On' : 'Off'}
          </Badge>
        }
      />

      {phase.kind === 'codes' ? <RecoveryCodes codes={phase.codes} onDone={() => setPhase({ kind: 'idle' })} /> : null}

      {!enabled && phase.kind === 'idle' ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-300">
            Protect your balance even if someone learns your password: sign-in and withdrawals will also ask for a 6-digit code from an app such as Google
            Authenticator, Authy or 1Password.
          </p>
          <Button onClick={() => void start()} disabled={setup.isPending}>
            {setup.isPending ? 'Preparing...' : 'Enable two-factor authentication'}
          </Button>
        </div>
      ) : null}

      {!enabled && phase.kind === 'setup' ? (
        <div className="space-y-4">
          <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-300">
            <li>Scan the QR code with your authenticator app, or enter the secret by hand.</li>
            <li>Type the 6-digit code the app shows to finish.</li>
          </ol>
          <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
            <div className="flex shrink-0 flex-col items-center gap-2">
              <div className="shrink-0 rounded-2xl bg-white p-3" data-testid="totp-qr">
                <QRCodeSVG value={phase.setup.otpauth_url} size={176} level="M" title="QR code for your authenticator app" />
              </div>
              {/* A phone cannot scan its own screen: the otpauth link hands the secret to the app directly. */}
              <a
                href={phase.setup.otpauth_url}
                className="inline-flex min-h-11 items-center justify-center rounded-xl border border-brand-500/60 px-4 text-sm font-semibold text-brand-300 hover:bg-brand-500/10"
              >
                Open in authenticator app
              </a>
            </div>
            <div className="w-full min-w-0 space-y-2">
              <p className="label mb-0" id="totp-secret-label">
                Secret key
              </p>
              <div className="flex items-center gap-2">
                <code
                  aria-labelledby="totp-secret-label"
                  data-testid="totp-secret"
                  data-secret={phase.setup.secret}
                  className="min-w-0 flex-1 break-all rounded-xl bg-surface-900 px-3 py-2.5 font-mono text-sm text-slate-100"
                >
                  {groupSecret(phase.setup.secret)}
                </code>
                <Button variant="secondary" className="shrink-0 px-3" aria-label="Copy secret" onClick={() => void copySecret(phase.setup.secret)}>
                  <Copy className="h-4 w-4" aria-hidden />
                </Button>
              </div>
            </div>
          </div>
          <CodeForm
            id="enable-code"
            label="Authentication code"
            hint="The 6-digit code from your authenticator app."
            submitLabel="Verify and enable"
            busyLabel="Verifying..."
            onSubmit={async (code) => {
              const res = await enable.mutateAsync(code);
              toast.success('Two-factor authentication enabled');
              setPhase({ kind: 'codes', codes: res.recovery_codes });
            }}
            onCancel={() => setPhase({ kind: 'idle' })}
          />
        </div>
      ) : null}

      {on && phase.kind === 'idle' ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-300">Sign-in and withdrawals ask for a code from your authenticator app. Lost it? Use one of your recovery codes.</p>
          <Button variant="outline" onClick={() => setPhase({ kind: 'disable' })}>
            Disable
          </Button>
        </div>
      ) : null}

      {on && phase.kind === 'disable' ? (
        <CodeForm
          id="disable-code"
          label="Two-factor or recovery code"
          hint="Enter a code from your authenticator app, or one of your recovery codes, to turn two-factor authentication off."
          submitLabel="Disable two-factor authentication"
          busyLabel="Disabling..."
          variant="danger"
          onSubmit={async (code) => {
            await disable.mutateAsync(code);
            toast.success('Two-factor authentication disabled');
            setPhase({ kind: 'idle' });
          }}
          onCancel={() => setPhase({ kind: 'idle' })}
        />
      ) : null}
    </section>
  );
}
