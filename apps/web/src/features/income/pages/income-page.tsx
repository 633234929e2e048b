import { UnderConstruction } from '../../../components/ui/under-construction';

export default function IncomePage() {
  return <UnderConstruction title="Income Dashboard" />;
}
