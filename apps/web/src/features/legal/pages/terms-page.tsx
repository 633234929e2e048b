import {
  DEFAULT_SETTINGS,
  STAKE_MIN_USD,
  STAKE_STEP_USD,
  TRANSFER_MIN_USD,
  WITHDRAW_FEE_PERCENT,
  WITHDRAW_MIN_USD,
  WITHDRAW_STEP_USD,
} from '@app/core/constants';
import { LegalLayout } from '../components/legal-layout';

export default function TermsPage() {
  return (
    <LegalLayout
      title="Terms and Conditions"
      intro={
        <p>
          These terms govern your use of USDT Stake. By creating an account or using the service you accept them. Please read them carefully, in particular the
          section on risk.
        </p>
      }
    >
      <section>
        <h2>1. Eligibility and accounts</h2>
        <ul>
          <li>You must be at least 18 and allowed by the laws of your country to use a service like this one.</li>
          <li>Give accurate information and keep it up to date. One person may hold one account.</li>
          <li>
            You are responsible for your password and for everything done with your account. Tell us at once if you suspect someone else has access to it.
          </li>
        </ul>
      </section>
      <section>
        <h2>2. Deposits</h2>
        <p>
          Send only USDT, on the network you selected, to the address shown for your payment and within its payment window. Other tokens, other networks or late
          payments may not be credited and may be lost. Your deposit balance is credited with the amount that actually arrives.
        </p>
      </section>
      <section>
        <h2>3. Staking and ROI</h2>
        <ul>
          <li>
            The minimum stake is ${STAKE_MIN_USD}, in multiples of ${STAKE_STEP_USD}. The staked amount moves from your deposit balance into the stake.
          </li>
          <li>
            A stake earns its daily rate (currently {DEFAULT_SETTINGS.roi_income_percentage}%) for each full UTC day after the day it was made, until its total
            ROI reaches its cap (currently {DEFAULT_SETTINGS.stake_cap_percentage}% of the stake). The principal is part of that total and is not returned
            separately.
          </li>
          <li>Each stake keeps the rate and cap in force when it was made. Rates and caps for new stakes may change.</li>
          <li>A stake cannot be cancelled or withdrawn early.</li>
        </ul>
      </section>
      <section>
        <h2>4. Referral income and rewards</h2>
        <p>
          When a member you referred directly makes a stake, you receive the direct referral percentage shown in the app (currently{' '}
          {DEFAULT_SETTINGS.direct_referral_percentage}%). Reward levels L1 to L7 are paid once each when their conditions are met, under the rules shown in the
          app. Self-referrals, fake accounts and other attempts to game these programmes are forbidden.
        </p>
      </section>
      <section>
        <h2>5. Withdrawals and transfers</h2>
        <ul>
          <li>
            Withdrawals start at ${WITHDRAW_MIN_USD}, in multiples of ${WITHDRAW_STEP_USD}. A fee of {WITHDRAW_FEE_PERCENT}% is kept and you receive the rest.
          </li>
          <li>
            Each request is reviewed before it is paid and may be refused, in which case the full amount returns to your balance. Check the address and network:
            payments sent to a wrong address cannot be recovered.
          </li>
          <li>Transfers to other members start at {TRANSFER_MIN_USD} USDT, carry no fee and are final.</li>
        </ul>
      </section>
      <section>
        <h2>6. Risk</h2>
        <p>
          Crypto assets are volatile and staking carries risk, including the loss of what you stake. Past rewards do not promise future rewards, and no return
          is guaranteed. Only stake what you can afford to lose. You use the platform at your own risk.
        </p>
      </section>
      <section>
        <h2>7. Prohibited use</h2>
        <p>
          You may not use the service for money laundering, fraud or any other unlawful purpose, attack or overload it, access other members’ accounts, or
          automate it in ways we have not allowed.
        </p>
      </section>
      <section>
        <h2>8. Availability and suspension</h2>
        <p>
          We work to keep the service running, but we do not guarantee that it will be error-free or uninterrupted, and we may pause it for maintenance. We may
          suspend or close accounts involved in fraud, abuse or breaches of these terms.
        </p>
      </section>
      <section>
        <h2>9. Limitation of liability</h2>
        <p>
          To the extent the law allows, the service is provided as it is, and we are not liable for indirect losses, lost profits, or losses caused by
          blockchain networks, third-party services or events outside our reasonable control.
        </p>
      </section>
      <section>
        <h2>10. Changes to these terms</h2>
        <p>
          We may update these terms. We update the date at the top of this page and tell you in advance of significant changes; continuing to use the service
          after they take effect means you accept them.
        </p>
      </section>
    </LegalLayout>
  );
}
