import { UnderConstruction } from '../../../components/ui/under-construction';

export default function MaintenancePage() {
  return <UnderConstruction title="Maintenance" />;
}
