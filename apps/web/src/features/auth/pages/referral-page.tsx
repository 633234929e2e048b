import { ZOptionalReferralId } from '@app/core/schemas/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { storage } from '../../../lib/storage';
import { updateReferral } from '../api/auth-api';
import { AuthShell } from '../components/auth-shell';
import { ReferralField } from '../components/referral-field';
import { useReferralCheck } from '../components/use-referral-check';

const ZReferralForm = z.object({ referral_id: ZOptionalReferralId });
type SocialUser = { username?: string; name?: string; email?: string };

/** One Last Step: a new social sign-in user may give a referral ID before the account is finished. */
export default function ReferralPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  // Read on every render: arriving with the query stores the user and then navigates to /referral
  // on this same (still mounted) page, which must see the freshly stored value.
  const user = storage.getSocialUser<SocialUser>();
  const refParam = (params.get('ref') ?? '').toUpperCase();
  const form = useForm<{ referral_id?: string }>({
    resolver: zodResolver(ZReferralForm),
    defaultValues: { referral_id: /^[A-Z0-9]{9}$/.test(refParam) ? refParam : '' },
  });
  const referralValue = form.watch('referral_id');
  const referral = useReferralCheck(referralValue);
  const [pending, setPending] = useState(false);

  // Arrived with the provider's answer in the query: keep it in session storage and clean the URL.
  const fromQuery = params.get('requiresReferral') === 'true' && params.get('user');
  useEffect(() => {
    if (!fromQuery) return;
    try {
      storage.setSocialUser(JSON.parse(params.get('user')!));
      void navigate('/referral', { replace: true });
    } catch {
      void navigate('/login', { replace: true });
    }
  }, [fromQuery, params, navigate]);

  if (fromQuery) return null;
  if (!user) return <Navigate to="/login" replace />;

  const onSubmit = form.handleSubmit(async (values) => {
    if (!user?.username) {
      toast.error('User information is missing. Please try again.');
      return;
    }
    setPending(true);
    try {
      const res = await updateReferral({ username: user.username, ...(values.referral_id ? { referral_id: values.referral_id } : {}) });
      if (!res.success) throw new ApiError(res.message || 'Failed to update referral ID', 400);
      toast.success('Referral updated successfully!');
      storage.clearSocialUser();
      if (res.data?.token) {
        storage.setSession(res.data.token, res.data.is_admin ?? false);
        qc.clear();
        void navigate('/dashboard', { replace: true });
      } else {
        void navigate('/login', { replace: true });
      }
    } catch (err) {
      if (err instanceof ApiError && err.errors.referral_id) form.setError('referral_id', { message: err.errors.referral_id });
      toast.error(errorMessage(err, 'Failed to update referral'));
    } finally {
      setPending(false);
    }
  });

  return (
    <AuthShell title="One Last Step" subtitle={`Welcome${user.name ? `, ${user.name}` : ''}! Were you invited by someone? Enter their referral ID.`}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <ReferralField registration={form.register('referral_id')} value={referralValue} error={form.formState.errors.referral_id?.message} state={referral} />
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? 'Registering...' : 'Register'}
        </Button>
      </form>
    </AuthShell>
  );
}
