import { UnderConstruction } from '../../../components/ui/under-construction';

export default function StakingPage() {
  return <UnderConstruction title="Staking" />;
}
