import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';

/** The landing page's sign-up call, styled by where it stands. */
export function CreateAccountLink({ className }: { className: string }) {
  return (
    <Link to="/signup" className={className}>
      Create your free account <ArrowRight className="h-4 w-4" aria-hidden />
    </Link>
  );
}
