import { UnderConstruction } from '../../../components/ui/under-construction';

export default function AdminPlaceholderPage() {
  return <UnderConstruction title="Admin" />;
}
