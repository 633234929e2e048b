import { Wrench } from 'lucide-react';
import { Link } from 'react-router';

export default function MaintenancePage() {
  return (
    <div className="flex min-h-dvh items-center justify-center px-4">
      <div className="card max-w-md p-8 text-center">
        <Wrench className="mx-auto h-12 w-12 text-gold-400" aria-hidden />
        <h1 className="mt-4 text-2xl font-bold text-white">Server is under maintenance</h1>
        <p className="mt-2 text-sm text-slate-400">We are making improvements and will be back shortly. Your balances are safe.</p>
        <Link to="/dashboard" className="mt-6 inline-flex rounded-xl bg-brand-500 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-600">
          Try again
        </Link>
      </div>
    </div>
  );
}
