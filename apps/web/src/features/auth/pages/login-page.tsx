import { UnderConstruction } from '../../../components/ui/under-construction';

export default function LoginPage() {
  return <UnderConstruction title="Login" />;
}
