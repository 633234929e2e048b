import { PageHeader } from '../../../components/ui/page-header';
import { TicketForm } from '../components/ticket-form';
import { TicketTable } from '../components/ticket-table';

export default function SupportPage() {
  return (
    <div className="space-y-4">
      <PageHeader title="Support - We're Here to Help" subtitle="Open a ticket and our team will answer here." />
      <TicketForm />
      <TicketTable />
    </div>
  );
}
