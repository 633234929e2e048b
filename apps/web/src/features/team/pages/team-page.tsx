import { UnderConstruction } from '../../../components/ui/under-construction';

export default function TeamPage() {
  return <UnderConstruction title="My Team" />;
}
