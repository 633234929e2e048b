import { UnderConstruction } from '../../../components/ui/under-construction';

export default function WithdrawalPage() {
  return <UnderConstruction title="Withdraw" />;
}
