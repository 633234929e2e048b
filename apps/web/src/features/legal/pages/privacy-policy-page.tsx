import { LegalLayout } from '../components/legal-layout';

export default function PrivacyPolicyPage() {
  return (
    <LegalLayout title="Privacy Policy">
      <section>
        <h2>What we collect</h2>
        <ul>
          <li>Account data: your name, e-mail address, a hash of your password (never the password itself) and your referral relationships.</li>
          <li>Financial records: deposits, stakes, income, transfers and withdrawals, including the blockchain addresses and transaction hashes involved.</li>
          <li>Technical data: IP address and request logs kept for security and abuse prevention.</li>
        </ul>
      </section>
      <section>
        <h2>How we use it</h2>
        <p>To run your account, credit and pay out funds, send verification codes, answer support tickets, prevent fraud and meet legal obligations. We do not sell your data.</p>
      </section>
      <section>
        <h2>Who we share it with</h2>
        <p>Payment processors that handle deposits, e-mail providers that deliver our messages, and authorities when the law requires it. Your username is visible to members who send you transfers and to your sponsor.</p>
      </section>
      <section>
        <h2>How long we keep it</h2>
        <p>Financial records are kept for as long as the law requires; account data until you ask us to close your account and any legal retention period has passed.</p>
      </section>
      <section>
        <h2>Your rights</h2>
        <p>You may ask for a copy of your data, its correction or its deletion where the law allows. Write to the support address below.</p>
      </section>
    </LegalLayout>
  );
}
