import { UnderConstruction } from '../../../components/ui/under-construction';

export default function TermsPage() {
  return <UnderConstruction title="Terms and Conditions" />;
}
