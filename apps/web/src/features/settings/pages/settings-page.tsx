import { useQueryClient } from '@tanstack/react-query';
import { ChevronRight, LifeBuoy, LogOut, LockKeyhole, ShieldAlert, UserRound } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { PageHeader } from '../../../components/ui/page-header';
import { errorMessage } from '../../../lib/api-client';
import { storage } from '../../../lib/storage';
import { logout } from '../api/logout';

const ITEMS = [
  { to: '/profile', label: 'My Profile', icon: UserRound },
  { to: '/security', label: 'Security', icon: LockKeyhole },
  { to: '/support', label: 'Support Ticket', icon: LifeBuoy },
  { to: '/disclaimer', label: 'Disclaimer', icon: ShieldAlert },
];

export default function SettingsPage() {
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const qc = useQueryClient();

  const doLogout = async () => {
    setBusy(true);
    try {
      const res = await logout();
      toast.success(res.message || 'Logged out successfully');
    } catch (err) {
      toast.error(errorMessage(err, 'Error logging out'));
    } finally {
      storage.clearSession();
      qc.clear();
      setBusy(false);
      setConfirm(false);
      void navigate('/', { replace: true });
    }
  };

  return (
    <div>
      <PageHeader title="My Account" subtitle="Profile, security, support and sign-out" />
      <ul className="card divide-y divide-white/5 p-0">
        {ITEMS.map((i) => (
          <li key={i.to}>
            <Link to={i.to} className="flex items-center gap-3 px-4 py-4 text-slate-100 hover:bg-white/5">
              <span className="flex h-9 w-9 items-center justify-center rounded-xl bg-surface-700 text-brand-300">
                <i.icon className="h-4 w-4" aria-hidden />
              </span>
              <span className="flex-1 text-sm font-medium">{i.label}</span>
              <ChevronRight className="h-4 w-4 text-slate-500" aria-hidden />
            </Link>
          </li>
        ))}
        <li>
          <button type="button" onClick={() => setConfirm(true)} className="flex w-full items-center gap-3 px-4 py-4 text-left text-red-300 hover:bg-red-500/5">
            <span className="flex h-9 w-9 items-center justify-center rounded-xl bg-red-500/10">
              <LogOut className="h-4 w-4" aria-hidden />
            </span>
            <span className="flex-1 text-sm font-medium">Logout</span>
          </button>
        </li>
      </ul>
      <Modal open={confirm} onClose={() => setConfirm(false)} title="Confirm Logout">
        <p className="text-sm text-slate-300">Are you sure you want to logout?</p>
        <div className="mt-5 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirm(false)}>
            Cancel
          </Button>
          <Button variant="danger" disabled={busy} onClick={() => void doLogout()}>
            Logout
          </Button>
        </div>
      </Modal>
    </div>
  );
}
