import { Toaster } from 'sonner';
import { TOAST_DURATION_MS, TOAST_VISIBLE } from '@app/core/constants';

/**
 * sonner's close button is a 20 px circle. It becomes a 44 px target centred where the circle was
 * (sonner puts its box at the toast's corner, moved 35% of 20 px up and left), and the circle stays
 * as it looked: the background is clipped to the 20 px content box inside 12 px of padding, and the
 * 1 px ring, in the colour sonner gives the button's border, is drawn by ::before. sonner's own
 * stylesheet is not in a cascade layer, so these layered utilities need `!` to win.
 */
const CLOSE_BUTTON = [
  'h-11! w-11! p-3! left-[-19px]! top-[-19px]! transform-none! border-0! bg-clip-content!',
  "before:absolute before:inset-3 before:rounded-full before:border before:[border-color:inherit] before:content-['']",
].join(' ');
/** sonner's action button ("Stay here" on a closing deposit) is 24 px tall: a 44 px target on a phone. */
const ACTION_BUTTON = 'h-11! px-3!';

/** The app's one toast region (sonner), loaded with the first screen that can raise a toast. */
export function AppToaster() {
  return (
    <Toaster
      position="top-center"
      duration={TOAST_DURATION_MS}
      visibleToasts={TOAST_VISIBLE}
      theme="dark"
      richColors
      closeButton
      toastOptions={{ classNames: { closeButton: CLOSE_BUTTON, actionButton: ACTION_BUTTON } }}
    />
  );
}
