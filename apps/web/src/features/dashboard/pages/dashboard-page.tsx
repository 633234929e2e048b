import { UnderConstruction } from '../../../components/ui/under-construction';

export default function DashboardPage() {
  return <UnderConstruction title="Dashboard" />;
}
