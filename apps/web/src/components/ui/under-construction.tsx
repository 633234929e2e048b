import { Construction } from 'lucide-react';
import { Link } from 'react-router';

/** Shown by a route whose screen is not built yet, so the walk through the routes finds it honestly. */
export function UnderConstruction({ title }: { title: string }) {
  return (
    <div className="card mt-8 flex flex-col items-center gap-3 py-10 text-center">
      <Construction className="h-10 w-10 text-gold-400" aria-hidden />
      <h1 className="text-lg font-semibold text-white">{title}</h1>
      <p className="text-sm text-slate-400">This screen is on its way.</p>
      <Link to="/dashboard" className="text-sm font-semibold text-brand-400 hover:underline">
        Back to Dashboard
      </Link>
    </div>
  );
}
