import { LegalLayout } from '../components/legal-layout';

export default function TermsPage() {
  return (
    <LegalLayout title="Terms and Conditions">
      <section>
        <h2>1. Accounts</h2>
        <p>You must be of legal age in your country and give accurate information. One person, one account. You are responsible for keeping your password safe.</p>
      </section>
      <section>
        <h2>2. Deposits</h2>
        <p>Send only USDT on the network you selected to the address shown for your payment, within its payment window. Other assets or networks may be lost. Your deposit balance is credited with what actually arrives.</p>
      </section>
      <section>
        <h2>3. Staking and income</h2>
        <ul>
          <li>The minimum stake is $50, in multiples of $10. A stake earns its daily rate for each full UTC day after the day it was made, until its total ROI reaches its cap; the staked principal is not returned separately.</li>
          <li>Each stake keeps the rate and cap in force when it was made. Rates for new stakes may change.</li>
          <li>Direct referral income and reward levels are paid under the rules shown in the app.</li>
        </ul>
      </section>
      <section>
        <h2>4. Withdrawals and transfers</h2>
        <p>Withdrawals start at $10 in multiples of $10; a 5% fee is kept. Requests are reviewed before payout and may be refused, in which case the full amount returns to your balance. Transfers to other members are final.</p>
      </section>
      <section>
        <h2>5. Risk</h2>
        <p>Crypto assets are volatile and staking carries risk, including the loss of what you stake. Past rewards do not promise future rewards. Use the platform at your own risk.</p>
      </section>
      <section>
        <h2>6. Suspension</h2>
        <p>We may block accounts involved in fraud, abuse or breaches of these terms, and may pause the service for maintenance.</p>
      </section>
    </LegalLayout>
  );
}
