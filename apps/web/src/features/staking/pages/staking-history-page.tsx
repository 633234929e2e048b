import { UnderConstruction } from '../../../components/ui/under-construction';

export default function StakingHistoryPage() {
  return <UnderConstruction title="Staking History" />;
}
