import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/states';
import { errorMessage } from '../../../lib/api-client';
import { securityQueryOptions } from '../../../lib/shared-queries';
import { storage } from '../../../lib/storage';
import { ChangePasswordCard } from '../components/change-password-card';
import { SessionsCard } from '../components/sessions-card';
import { TwoFactorCard } from '../components/two-factor-card';

/** /security: change of password, two-factor authentication and the active sessions (server.md section 9). */
export default function SecurityPage() {
  const security = useQuery(securityQueryOptions());

  return (
    <div className="space-y-4">
      <PageHeader
        title="Security"
        subtitle={security.data ? `Signed in as ${security.data.email}` : 'Password, two-factor authentication and sessions'}
        action={
          // An admin reaches this page from the console's own navigation; /setting is for users.
          storage.isAdmin() ? undefined : (
            <Link
              to="/setting"
              className="-my-2 inline-flex min-h-11 min-w-11 items-center justify-center gap-1 rounded-xl px-2 text-sm text-slate-300 hover:bg-white/5"
              aria-label="Back to My Account"
            >
              <ArrowLeft className="h-4 w-4" aria-hidden />
              <span className="hidden sm:inline">My Account</span>
            </Link>
          )
        }
      />
      {security.isPending ? (
        <LoadingState />
      ) : security.isError ? (
        <div className="card">
          <ErrorState text={errorMessage(security.error, 'Could not load your security settings.')} />
          <div className="flex justify-center">
            <Button variant="secondary" onClick={() => void security.refetch()}>
              Try again
            </Button>
          </div>
        </div>
      ) : (
        <>
          <TwoFactorCard enabled={security.data.two_factor_enabled} />
          <ChangePasswordCard />
          <SessionsCard sessions={security.data.sessions} />
        </>
      )}
    </div>
  );
}
