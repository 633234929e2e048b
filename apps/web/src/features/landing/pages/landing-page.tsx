import { UnderConstruction } from '../../../components/ui/under-construction';

export default function LandingPage() {
  return <UnderConstruction title="Home" />;
}
