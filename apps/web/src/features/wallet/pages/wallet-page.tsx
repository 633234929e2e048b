import { UnderConstruction } from '../../../components/ui/under-construction';

export default function WalletPage() {
  return <UnderConstruction title="Wallet" />;
}
