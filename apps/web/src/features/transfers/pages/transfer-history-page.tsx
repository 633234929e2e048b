import { UnderConstruction } from '../../../components/ui/under-construction';

export default function TransferHistoryPage() {
  return <UnderConstruction title="Transfer History" />;
}
