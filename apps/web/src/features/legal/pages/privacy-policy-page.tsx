import { UnderConstruction } from '../../../components/ui/under-construction';

export default function PrivacyPolicyPage() {
  return <UnderConstruction title="Privacy Policy" />;
}
