import { useState } from 'react';
import { PageHeader } from '../../../components/ui/page-header';
import { TicketForm } from '../components/ticket-form';
import { TicketTable } from '../components/ticket-table';

export default function SupportPage() {
  const [page, setPage] = useState(1);
  return (
    <div className="space-y-4">
      <PageHeader title="Support - We're Here to Help" subtitle="Open a ticket and our team will answer here." />
      <TicketForm onCreated={() => setPage(1)} />
      <TicketTable page={page} onPage={setPage} />
    </div>
  );
}
