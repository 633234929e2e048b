import { UnderConstruction } from '../../../components/ui/under-construction';

export default function ReferralPage() {
  return <UnderConstruction title="One Last Step" />;
}
