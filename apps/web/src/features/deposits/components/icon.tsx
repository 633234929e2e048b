import { CircleDollarSign } from 'lucide-react';
import { useState } from 'react';

/** A chain or token icon with a fallback when the image fails to load. */
export function Icon({ src, alt, className = 'h-5 w-5' }: { src?: string | undefined; alt: string; className?: string }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) return <CircleDollarSign className={`${className} text-brand-300`} aria-label={alt} />;
  return <img src={src} alt={alt} className={`${className} rounded-full`} onError={() => setFailed(true)} />;
}
