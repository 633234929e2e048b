import { UnderConstruction } from '../../../components/ui/under-construction';

export default function SignupPage() {
  return <UnderConstruction title="Sign up" />;
}
