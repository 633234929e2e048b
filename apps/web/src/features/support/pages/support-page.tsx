import { UnderConstruction } from '../../../components/ui/under-construction';

export default function SupportPage() {
  return <UnderConstruction title="Support" />;
}
