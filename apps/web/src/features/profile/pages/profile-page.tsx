import { UnderConstruction } from '../../../components/ui/under-construction';

export default function ProfilePage() {
  return <UnderConstruction title="My Profile" />;
}
