import { LegalLayout, SUPPORT_EMAIL } from '../components/legal-layout';

export default function PrivacyPolicyPage() {
  return (
    <LegalLayout
      title="Privacy Policy"
      intro={
        <p>
          This policy explains what personal data USDT Stake collects when you use the website and app, why we collect it, who we share it with and the choices
          you have. We collect only what we need to run your account.
        </p>
      }
    >
      <section>
        <h2>1. Information we collect</h2>
        <ul>
          <li>
            <strong>Account data:</strong> your name, e-mail address, username, the referral ID you signed up with, and a one-way hash of your password (never
            the password itself). If you sign in with Google, we receive your name and e-mail address from it.
          </li>
          <li>
            <strong>Financial records:</strong> deposits, stakes, income, transfers and withdrawals, with their amounts, dates, blockchain networks, addresses
            and transaction hashes.
          </li>
          <li>
            <strong>Support messages:</strong> the subject and text of the tickets you send us, and our replies.
          </li>
          <li>
            <strong>Technical data:</strong> IP address, browser type and request logs, kept to secure the service and prevent abuse.
          </li>
        </ul>
      </section>
      <section>
        <h2>2. How we use it</h2>
        <p>
          To create and secure your account, send verification codes, credit deposits and income, process withdrawals and transfers, answer support tickets,
          detect fraud and meet our legal obligations. We do not sell your personal data and we do not use it for advertising.
        </p>
      </section>
      <section>
        <h2>3. Cookies and local storage</h2>
        <p>
          We keep your sign-in token in your browser’s local storage so that you stay signed in, and set one short-lived cookie while a social sign-up is being
          completed. We use no advertising or third-party tracking cookies, and the site loads no content from other domains.
        </p>
      </section>
      <section>
        <h2>4. Who we share it with</h2>
        <ul>
          <li>The payment processor that generates deposit addresses and confirms payments.</li>
          <li>The e-mail provider that delivers our verification codes and notices.</li>
          <li>Google, only if you choose to sign in with it.</li>
          <li>Authorities, when the law requires it.</li>
        </ul>
        <p>
          Your username is visible to members who send you transfers and to the member who referred you. Transactions you make on a blockchain are public by
          nature and outside our control.
        </p>
      </section>
      <section>
        <h2>5. How we protect it</h2>
        <p>
          Passwords and verification codes are stored only as strong one-way hashes, and access to personal data is limited to the staff who need it. No system
          is perfectly secure, so please use a unique password and keep your e-mail account safe.
        </p>
      </section>
      <section>
        <h2>6. How long we keep it</h2>
        <p>
          Financial records are kept for as long as the law requires. Account data is kept while your account is open and deleted or anonymised after you ask us
          to close it, once any legal retention period has passed.
        </p>
      </section>
      <section>
        <h2>7. Your rights</h2>
        <p>
          Depending on where you live, you may ask for a copy of your data, its correction, its deletion, or a limit on how we use it. Write to {SUPPORT_EMAIL}{' '}
          from the e-mail address of your account and we will answer within 30 days.
        </p>
      </section>
      <section>
        <h2>8. Children</h2>
        <p>The service is not meant for anyone under 18, and we do not knowingly collect their data.</p>
      </section>
      <section>
        <h2>9. Changes to this policy</h2>
        <p>When we change this policy we update the date at the top of this page, and we tell you by e-mail or in the app if the change is significant.</p>
      </section>
    </LegalLayout>
  );
}
