import clsx from 'clsx';
import type { LucideIcon } from 'lucide-react';
import { NavLink } from 'react-router';

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
}

/** A navigation link with its icon and label, styled as the page shown (`active`) or not (`idle`). */
export function NavItemLink({
  item,
  className,
  active,
  idle,
  iconClassName = 'h-5 w-5',
}: {
  item: NavItem;
  className: string;
  active: string;
  idle: string;
  iconClassName?: string;
}) {
  return (
    <NavLink to={item.to} className={({ isActive }) => clsx(className, isActive ? active : idle)}>
      <item.icon className={iconClassName} aria-hidden />
      {item.label}
    </NavLink>
  );
}
