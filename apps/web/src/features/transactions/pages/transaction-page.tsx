import { UnderConstruction } from '../../../components/ui/under-construction';

export default function TransactionPage() {
  return <UnderConstruction title="Transaction History" />;
}
