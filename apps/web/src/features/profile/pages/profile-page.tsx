import { formatDateLong } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, UserRound } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/states';
import { errorMessage } from '../../../lib/api-client';
import { profileQueryOptions } from '../api/profile';

function Field({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div>
      <dt className="label">{label}</dt>
      <dd className="input flex min-h-10 items-center bg-surface-900/60">{value}</dd>
    </div>
  );
}

export default function ProfilePage() {
  const profile = useQuery(profileQueryOptions());
  return (
    <div>
      <PageHeader
        title="My Profile"
        subtitle="Your account details"
        action={
          <Link to="/setting" className="inline-flex items-center gap-1 text-sm text-slate-300 hover:text-white">
            <ArrowLeft className="h-4 w-4" aria-hidden /> Back
          </Link>
        }
      />
      {profile.isPending ? (
        <LoadingState />
      ) : profile.isError ? (
        <ErrorState text={errorMessage(profile.error, 'Failed to fetch user information')} />
      ) : (
        <div className="card">
          <div className="mb-5 flex flex-col items-center gap-2">
            {profile.data.avatar ? (
              <img src={profile.data.avatar} alt="Avatar" className="h-20 w-20 rounded-full object-cover ring-2 ring-brand-500/40" />
            ) : (
              <span
                aria-label="Default avatar"
                role="img"
                className="flex h-20 w-20 items-center justify-center rounded-full bg-gradient-to-br from-brand-400/30 to-brand-600/30 ring-2 ring-brand-500/40"
              >
                <UserRound className="h-10 w-10 text-brand-300" aria-hidden />
              </span>
            )}
            <p className="text-lg font-semibold text-white">{profile.data.name}</p>
          </div>
          <dl className="grid gap-4 sm:grid-cols-2">
            <Field label="Name" value={profile.data.name} />
            <Field label="Username" value={profile.data.username} />
            <Field label="Email" value={<span className="truncate">{profile.data.email}</span>} />
            <Field label="Referral ID" value={profile.data.referral_id || '-'} />
            <Field label="Status" value={<Badge tone={profile.data.status === 'active' ? 'success' : 'danger'}>{profile.data.status}</Badge>} />
            <Field label="Active Date" value={formatDateLong(profile.data.active_date, '-')} />
          </dl>
        </div>
      )}
    </div>
  );
}
