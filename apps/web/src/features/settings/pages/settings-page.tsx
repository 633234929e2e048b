import { UnderConstruction } from '../../../components/ui/under-construction';

export default function SettingsPage() {
  return <UnderConstruction title="My Account" />;
}
