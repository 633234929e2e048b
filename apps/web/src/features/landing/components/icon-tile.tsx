import type { LucideIcon } from 'lucide-react';

/** A feature's icon on a 44 px rounded tile; the section gives its colours. */
export function IconTile({ icon: Icon, className }: { icon: LucideIcon; className: string }) {
  return (
    <span className={`flex h-11 w-11 shrink-0 items-center justify-center rounded-xl ${className}`}>
      <Icon className="h-5 w-5" aria-hidden />
    </span>
  );
}
