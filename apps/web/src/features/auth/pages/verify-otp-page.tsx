import { OTP_LENGTH, OTP_RESEND_SECONDS } from '@app/core/constants';
import { formatCountdown } from '@app/core/format';
import { ZOtp } from '@app/core/schemas/auth';
import { CODE_DELAYED_MESSAGE, OTP_TOO_MANY_MESSAGE, TOO_MANY_ATTEMPTS_MESSAGE } from '@app/core/schemas/security';
import { useQueryClient } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { OtpField } from '../../../components/ui/form-field';
import { errorMessage } from '../../../lib/api-client';
import { storage } from '../../../lib/storage';
import { resendOtp, verifyOtp } from '../api/auth-api';
import { TwoFactorStep } from '../components/two-factor-step';
import { AuthShell } from '../components/auth-shell';

function secondsLeft(): number {
  return Math.max(0, Math.ceil((storage.getOtpExpiry() - Date.now()) / 1000));
}

export default function VerifyOtpPage() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [otp, setOtp] = useState('');
  const [error, setError] = useState<string | null>(() => (storage.isOtpLocked(storage.getAccessId()) ? OTP_TOO_MANY_MESSAGE : null));
  const [busy, setBusy] = useState(false);
  const [challengeId, setChallengeId] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  // The code was answered wrong too often and is dead: only a new one can be verified, and the
  // resend wait may still be running, so the page says why it is waiting instead of a toast alone.
  // Kept for the tab (storage.setOtpLocked), so a reload does not offer Verify for a dead code.
  const [locked, setLocked] = useState(() => storage.isOtpLocked(storage.getAccessId()));
  // The server could not mail the code yet (its mail server was down): it follows when mail is back.
  const [delayed, setDelayed] = useState(() => storage.isOtpDelayed(storage.getAccessId()));
  // Decided once on arrival: after a successful verify the access_id is removed on purpose, and the
  // page must not then bounce to /signup while the navigation to /dashboard or /login is under way.
  const [hasAccessId] = useState(() => Boolean(storage.getAccessId()));
  // Where the code went (signup or login saved it), so a person with several addresses knows where to look.
  const [email] = useState(() => storage.getOtpEmail());
  const [left, setLeft] = useState(() => {
    if (!storage.getOtpExpiry()) storage.setOtpExpiry(Date.now() + OTP_RESEND_SECONDS * 1000);
    return secondsLeft();
  });

  useEffect(() => {
    const t = setInterval(() => setLeft(secondsLeft()), 1000);
    return () => clearInterval(t);
  }, []);

  if (!hasAccessId) return <Navigate to="/signup" replace />;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const accessId = storage.getAccessId();
    if (!accessId) {
      setError('Access ID not found. Please sign up again.');
      return;
    }
    const parsed = ZOtp.safeParse(otp);
    if (!parsed.success) {
      setError(parsed.error.issues[0]!.message);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const res = await verifyOtp({ access_id: accessId, otp });
      toast.success('OTP verified successfully!');
      storage.clearAccessId();
      storage.clearOtpExpiry();
      storage.clearOtpLocked();
      storage.clearOtpDelayed();
      storage.clearOtpEmail();
      if (res.data?.token) {
        storage.setSession(res.data.token, res.data.is_admin ?? false);
        qc.clear();
        void navigate(res.data.is_admin ? '/admin/dashboard' : '/dashboard', { replace: true });
      } else if (res.data?.requires_2fa === true && res.data.challenge_id) {
        // A sign-in code (login back-off) for a user with 2FA: the second step follows here.
        setChallengeId(res.data.challenge_id);
      } else {
        void navigate('/login', { replace: true });
      }
    } catch (err) {
      const message = errorMessage(err, 'OTP verification failed.');
      toast.error(message);
      if (message === OTP_TOO_MANY_MESSAGE) {
        storage.setOtpLocked(accessId);
        setLocked(true);
        setError(message);
      } else if (message === TOO_MANY_ATTEMPTS_MESSAGE) {
        // The account's guess budget is spent (429): said under the field too; it passes with time.
        setError(message);
      }
    } finally {
      setBusy(false);
    }
  };

  const typed = (e: React.ChangeEvent<HTMLInputElement>) => {
    setOtp(e.target.value.replace(/\D/g, '').slice(0, OTP_LENGTH));
    if (!locked) setError(null);
  };

  const resend = async () => {
    const accessId = storage.getAccessId();
    if (!accessId || left > 0) return;
    setResending(true);
    try {
      const res = await resendOtp({ access_id: accessId });
      if (res.data?.access_id) storage.setAccessId(res.data.access_id);
      storage.setOtpExpiry(Date.now() + OTP_RESEND_SECONDS * 1000);
      setLeft(OTP_RESEND_SECONDS);
      storage.clearOtpLocked();
      setLocked(false);
      setError(null);
      setOtp('');
      if (res.data?.code_sent === false) {
        // Not sent yet either: say so rather than that it was resent.
        storage.setOtpDelayed(res.data.access_id ?? accessId);
        setDelayed(true);
        toast.info(CODE_DELAYED_MESSAGE);
      } else {
        storage.clearOtpDelayed();
        setDelayed(false);
        toast.success('OTP resent successfully!');
      }
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to resend OTP.'));
    } finally {
      setResending(false);
    }
  };

  if (challengeId) return <TwoFactorStep challengeId={challengeId} onBack={() => void navigate('/login', { replace: true })} />;

  return (
    <AuthShell icon={MailCheck} title="OTP Verification" subtitle="Enter the 6-digit code we sent to your e-mail">
      {email && (
        <p className="mb-4 text-center text-sm text-slate-300">
          Sent to <span className="font-medium text-white">{email}</span>
        </p>
      )}
      {delayed && (
        <p role="status" className="mb-4 rounded-lg border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-amber-200">
          {CODE_DELAYED_MESSAGE}
        </p>
      )}
      <form onSubmit={submit} noValidate className="space-y-4">
        <OtpField id="otp" label="Verification code" maxLength={OTP_LENGTH} value={otp} error={error ?? undefined} onChange={typed} />
        <Button type="submit" className="w-full" disabled={busy || locked}>
          {busy ? 'Loading...' : 'Verify'}
        </Button>
      </form>
      <div className="mt-5 text-center text-sm text-slate-400">
        {left > 0 ? (
          <p>
            {locked ? 'You can request a new code in' : 'Resend code in'} <span className="font-mono text-slate-200">{formatCountdown(left)}</span>
          </p>
        ) : (
          <button type="button" onClick={() => void resend()} disabled={resending} className="font-semibold text-brand-400 hover:underline disabled:opacity-50">
            {resending ? 'Loading...' : 'Resend OTP'}
          </button>
        )}
      </div>
    </AuthShell>
  );
}
