import { SECTIONS } from '../content';

/** The page's anchors as a list of links: the navbar, its phone menu and the footer each style it their way. */
export function SectionLinks({
  sections = SECTIONS,
  className,
  linkClassName,
}: {
  sections?: readonly { id: string; label: string }[];
  className: string;
  linkClassName: string;
}) {
  return (
    <ul className={className}>
      {sections.map((s) => (
        <li key={s.id}>
          <a href={`#${s.id}`} className={linkClassName}>
            {s.label}
          </a>
        </li>
      ))}
    </ul>
  );
}
