import { UnderConstruction } from '../../../components/ui/under-construction';

export default function CancelPage() {
  return <UnderConstruction title="Transaction Failed" />;
}
