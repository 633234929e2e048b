import { UnderConstruction } from '../../../components/ui/under-construction';

export default function VerifyOtpPage() {
  return <UnderConstruction title="OTP Verification" />;
}
