import { UnderConstruction } from '../../../components/ui/under-construction';

export default function TransferPage() {
  return <UnderConstruction title="Transfer Crypto" />;
}
