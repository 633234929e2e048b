import { UnderConstruction } from '../../../components/ui/under-construction';

export default function DisclaimerPage() {
  return <UnderConstruction title="Disclaimer" />;
}
