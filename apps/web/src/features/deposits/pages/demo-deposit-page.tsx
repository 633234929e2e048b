import { UnderConstruction } from '../../../components/ui/under-construction';

export default function DemoDepositPage() {
  return <UnderConstruction title="Create Payment" />;
}
