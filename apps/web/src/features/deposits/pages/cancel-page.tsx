import { XCircle } from 'lucide-react';
import { Link } from 'react-router';

export default function CancelPage() {
  return (
    <div className="card mt-8 flex flex-col items-center gap-3 p-8 text-center">
      <XCircle className="h-14 w-14 text-red-400" aria-hidden />
      <h1 className="text-xl font-bold text-white">Transaction Failed</h1>
      <p className="text-sm text-slate-400">Your transaction could not be completed. Please check your payment details or try again later.</p>
      <Link
        to="/dashboard"
        className="mt-2 inline-flex min-h-11 items-center rounded-xl bg-brand-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-800"
      >
        Back to Dashboard
      </Link>
    </div>
  );
}
