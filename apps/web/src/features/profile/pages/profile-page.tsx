import { formatDateLong } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { UserRound } from 'lucide-react';
import { StatusBadge } from '../../../components/status-badge';
import { BackLink, PageHeader } from '../../../components/ui/page-header';
import { QueryState } from '../../../components/ui/states';
import { profileQueryOptions } from '../api/profile';

/** A read-only detail: a label over its value, not a box that looks like it can be typed in. */
function Field({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="min-w-0 border-b border-white/5 pb-2.5">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-400">{label}</dt>
      <dd className="mt-1 flex min-w-0 items-center text-sm text-slate-100">{value}</dd>
    </div>
  );
}

export default function ProfilePage() {
  const profile = useQuery(profileQueryOptions());
  return (
    <div>
      <PageHeader title="My Profile" subtitle="Your account details" action={<BackLink to="/setting">Back</BackLink>} />
      <QueryState query={profile} errorText="Failed to fetch user information">
        {(data) => (
          <div className="card">
            <div className="mb-5 flex flex-col items-center gap-2">
              {data.avatar ? (
                <img src={data.avatar} alt="Avatar" className="h-20 w-20 rounded-full object-cover ring-2 ring-brand-500/40" />
              ) : (
                <span
                  aria-label="Default avatar"
                  role="img"
                  className="flex h-20 w-20 items-center justify-center rounded-full bg-gradient-to-br from-brand-400/30 to-brand-600/30 ring-2 ring-brand-500/40"
                >
                  <UserRound className="h-10 w-10 text-brand-300" aria-hidden />
                </span>
              )}
              <p className="text-lg font-semibold text-white">{data.name}</p>
            </div>
            <dl className="grid gap-4 sm:grid-cols-2">
              <Field label="Name" value={data.name} />
              <Field label="Username" value={data.username} />
              <Field label="Email" value={<span className="truncate">{data.email}</span>} />
              <Field label="Referral ID" value={data.referral_id || '-'} />
              <Field label="Status" value={<StatusBadge kind="user" status={data.status} />} />
              <Field label="Active Date" value={formatDateLong(data.active_date, '-')} />
            </dl>
          </div>
        )}
      </QueryState>
    </div>
  );
}
