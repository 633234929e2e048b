import { UnderConstruction } from '../../../components/ui/under-construction';

export default function DepositPage() {
  return <UnderConstruction title="Deposit" />;
}
